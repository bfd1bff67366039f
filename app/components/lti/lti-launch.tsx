import { useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { sameOriginPath } from "#domain/lti";
import { useTranslation } from "~/common/i18n";
import { DisplayMode } from "#domain/vocabulary";
import { useHydrated } from "../use-hydrated";
import type { LtiLaunchProps } from "~/common/views/lti";

const MIN_HEIGHT = 320;
const MAX_HEIGHT = 4000;

function LaunchFields({
  workflowId,
  activityPathId,
  version,
}: Pick<LtiLaunchProps, "workflowId" | "activityPathId" | "version">) {
  return (
    <>
      <input type="hidden" name="objectiveWorkflowId" value={workflowId} />
      <input type="hidden" name="activityPathId" value={activityPathId} />
      <input type="hidden" name="version" value={version} />
    </>
  );
}

/**
 * An LTI activity. A launch starts the activity, so it happens only when the
 * learner asks for it: in embedded display modes, with JavaScript, it launches into a frame (the launch
 * form targets it) when she opened this activity alone (`autoLaunch`), else on "Open the tool"; the frame grows with the tool's `lti.frameResize` message, read only from
 * that frame. Without JavaScript, and in Fullscreen mode, the button launches the tool in a window of
 * its own.
 */
export default function LtiLaunch({
  workflowId,
  activityPathId,
  displayMode,
  version,
  frame: policy,
  size,
  autoLaunch,
  title,
}: LtiLaunchProps & { title: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const embedded = hydrated && displayMode !== DisplayMode.Fullscreen;
  const frame = useRef<HTMLIFrameElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const [height, setHeight] = useState(640);
  const [clicked, setLaunched] = useState(false);
  const launched = clicked || (embedded && autoLaunch);
  const name = `lti-${activityPathId}`;

  // The learner opened this activity alone: opening it is her request to launch it.
  useEffect(() => {
    if (embedded && autoLaunch) form.current?.submit();
  }, [embedded, autoLaunch, workflowId, activityPathId]);

  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const logout = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!embedded) return;
    const onMessage = (event: MessageEvent) => {
      // Only messages of the frame this component launched.
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      const data = (typeof event.data === "string" ? safeJson(event.data) : event.data) as {
        subject?: unknown;
        height?: unknown;
        path?: unknown;
      } | null;
      if (data?.subject === "lti.frameResize" && typeof data.height === "number" && Number.isFinite(data.height)) {
        // EmbeddedCustom keeps the activity's own size.
        if (size) return;
        setHeight(Math.min(Math.max(Math.round(data.height), MIN_HEIGHT), MAX_HEIGHT));
        return;
      }
      // The bridge (/learn/lti-tool-callback) is this app's own page: its messages come from this origin only.
      if (event.origin !== window.location.origin) return;
      if (data?.subject === "lms.navigate" && typeof data.path === "string") {
        const path = sameOriginPath(data.path);
        if (path) void navigate(path);
      } else if (data?.subject === "lms.logout") logout.current?.submit();
      else if (data?.subject === "lms.relogin") window.location.assign("/oidc/login");
      // Spec 4.4: after an LTI activity the course view reloads (progress, scores, locks).
      else if (data?.subject === "lti.redirect") void revalidator.revalidate();
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [embedded, navigate, revalidator, size]);

  return (
    <div className="lti-launch">
      {embedded ? (
        <>
          <form ref={logout} method="post" action="/oidc/logout" hidden />
          <form
            ref={form}
            method="post"
            action="/learn/lti/launch"
            target={name}
            hidden={launched}
            onSubmit={() => setLaunched(true)}
          >
            <LaunchFields workflowId={workflowId} activityPathId={activityPathId} version={version} />
            <button type="submit" className="button button--primary">
              {t("lti.launch.open")}
            </button>
          </form>
          <iframe
            hidden={!launched}
            ref={frame}
            name={name}
            title={t("lti.launch.frameTitle", { name: title })}
            className="lti-launch__frame"
            style={
              size
                ? // Spec 3 EmbeddedCustom: the preferred size, never wider than the column (then scaled, aspect kept).
                  {
                    inlineSize: `min(100%, ${size.width}px)`,
                    aspectRatio: `${size.width} / ${size.height}`,
                    minBlockSize: 0,
                  }
                : { blockSize: `${height}px` }
            }
            allow={policy.allow}
            sandbox={policy.sandbox ?? undefined}
          />
        </>
      ) : null}
      <form method="post" action="/learn/lti/launch" target="_blank">
        <LaunchFields workflowId={workflowId} activityPathId={activityPathId} version={version} />
        <button type="submit" className={embedded ? "button" : "button button--primary"}>
          {embedded ? t("lti.launch.newWindow") : t("lti.launch.open")}
        </button>
      </form>
    </div>
  );
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
