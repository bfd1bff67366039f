import { useEffect, useEffectEvent } from "react";
import { useRevalidator } from "react-router";

/**
 * Issue 26 (the LTI lab): a course page whose tool may send a score learns of it without a reload —
 * when the page becomes visible again (the learner comes back from the tool's window or tab), and while
 * it is visible through the course's progress stream (a tool in a frame of this very page). The stream
 * is open only while the page is visible, so a tab in the background holds no connection.
 */
export function useLiveProgress(courseId: string, enabled: boolean) {
  const revalidator = useRevalidator();
  const revalidate = useEffectEvent(() => void revalidator.revalidate());
  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    const open = () => {
      if (source) return;
      source = new EventSource(`/learn/courses/${courseId}/progress-events`);
      source.addEventListener("changed", () => revalidate());
    };
    const close = () => {
      source?.close();
      source = null;
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") {
        revalidate();
        open();
      } else close();
    };
    if (document.visibilityState === "visible") open();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      close();
    };
  }, [courseId, enabled]);
}
