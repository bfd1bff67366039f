import { useFetcher } from "react-router";
import type { ActivityBody } from "~/common/views/activity";
import { PdfViewer } from "./pdf-viewer";

/**
 * A PDF activity: the viewer, saving the page for resume (a fetcher; without JavaScript the page is
 * simply not remembered). Its own chunk, loaded by PDF activities only (activity-view.tsx).
 */
export default function PdfWithResume({
  body,
  title,
}: {
  body: Extract<ActivityBody, { kind: "pdf" }>;
  title: string;
}) {
  const fetcher = useFetcher();
  return (
    <PdfViewer
      url={body.url}
      title={title}
      initialPage={body.page ?? undefined}
      onPageChange={(page) => {
        if (!body.resumeTarget) return;
        fetcher.submit(
          { intent: "resume", activityWorkflowId: body.resumeTarget, page: String(page) },
          { method: "post" },
        );
      }}
    />
  );
}
