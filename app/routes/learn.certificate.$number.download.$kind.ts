import type { Route } from "./+types/learn.certificate.$number.download.$kind";
import { endpoints } from "#domain/contract/endpoints";
import { normalizeCertificateNumber } from "#domain/certificates";
import { publicLms } from "~/services/user.server";
import { isDownloadKind, streamDownload } from "~/services/certificate-files.server";

/**
 * /learn/certificate/{number}/download/{pdf|png|credential}: the share form's files, public (spec
 * 6: no sign-in); the API limits lookups per address.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const number = normalizeCertificateNumber(params.number ?? "");
  if (!number || !isDownloadKind(params.kind)) return new Response("Not found", { status: 404 });
  const lms = publicLms(context);
  if (params.kind === "credential")
    return streamDownload(request, lms, endpoints.certificateCredential(number), {
      cache: "public, max-age=60",
      context,
      query: "format=json",
      filename: `certificate-${number}.credential.json`,
    });
  return streamDownload(request, lms, endpoints.publicCertificateFile(number, params.kind), {
    cache: "public, max-age=60",
    context,
  });
}
