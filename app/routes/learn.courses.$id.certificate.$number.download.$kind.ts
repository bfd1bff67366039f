import type { Route } from "./+types/learn.courses.$id.certificate.$number.download.$kind";
import { endpoints } from "#domain/contract/endpoints";
import { isUuid } from "#domain/contract/common";
import { normalizeCertificateNumber } from "#domain/certificates";
import { state } from "~/services/request.server";
import { LmsError } from "~/services/lms.server";
import { publicLms } from "~/services/user.server";
import { isDownloadKind, streamDownload } from "~/services/certificate-files.server";
import { loadOwnCertificate } from "~/services/certificates.server";
import { tooManyRequestsText } from "~/services/command-errors.server";

/**
 * /learn/courses/{id}/certificate/{number}/download/{pdf|png|credential}: the holder's own files
 *, access-checked — another learner's number is a 404, a visitor is sent to sign in.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const number = normalizeCertificateNumber(params.number ?? "");
  if (!params.id || !isUuid(params.id) || !number || !isDownloadKind(params.kind))
    return new Response("Not found", { status: 404 });
  const s = state(context);
  await s.requireLearner();
  const lms = await s.lms();
  let record;
  try {
    record = await loadOwnCertificate(lms, params.id, number);
  } catch (err) {
    if (err && typeof err === "object" && "init" in err && (err.init as ResponseInit | null)?.status === 429)
      return tooManyRequestsText(
        context,
        Number((err as { data?: { retryAfterSeconds?: number } }).data?.retryAfterSeconds),
      );
    if (err instanceof LmsError || (err && typeof err === "object" && "init" in err))
      return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
    throw err;
  }
  if (params.kind === "credential")
    // The credential is public by design (anyone may verify it); the holder gets it as a JSON file.
    return streamDownload(request, publicLms(context), endpoints.certificateCredential(number), {
      cache: "private, max-age=60",
      context,
      query: "format=json",
      filename: `certificate-${number}.credential.json`,
    });
  return streamDownload(request, lms, endpoints.certificateFile(record.id, params.kind), {
    cache: "private, max-age=300",
    context,
  });
}
