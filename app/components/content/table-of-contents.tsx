/** The table of contents of a course (spec 2.6, 4.12, 4.13): icons, states, locks and their reasons. */
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { ActivityKind, ActivityWorkflowState } from "#domain/vocabulary";
import { textLanguage } from "#domain/locales";
import { useTranslation } from "~/common/i18n";
import type { ContentItem, ContentView } from "~/common/views/content";
import { useNonce } from "../nonce";
import { ProctoredMark } from "../proctored-mark";
import { TocIcon } from "../toc-icon";

/**
 * Spec 2.6: the panel is open on large screens and closed up to 1279 px. The server renders it closed
 * with the class `toc-panel--auto`, by which CSS shows its contents from 1280 px (issue 25 item 6: a
 * phone without JavaScript gets the lesson first, the table one tap away). The script after it (and
 * the effect, after a client navigation) opens it on wide screens and hands it to its toggle.
 */
const TOC_WIDE = "(min-width: 1280px)";
const AUTO = "toc-panel--auto";
const TOC_WIDTH_SCRIPT = `(function(d){d.open=matchMedia(${JSON.stringify(TOC_WIDE)}).matches;d.classList.remove(${JSON.stringify(AUTO)})})(document.currentScript.previousElementSibling)`;

function useTocOpen(ref: React.RefObject<HTMLDetailsElement | null>) {
  useEffect(() => {
    const el = ref.current;
    if (!el || !el.classList.contains(AUTO)) return;
    el.open = window.matchMedia(TOC_WIDE).matches;
    el.classList.remove(AUTO);
  }, [ref]);
}

/** A module's children done out of all (a composite's own state is its children's). */
function moduleProgress(items: ContentItem[], module: ContentItem) {
  const children = items.filter(
    (c) => c.node.parentPathId === module.node.activityPathId && c.node.childActivity.kind !== ActivityKind.composite,
  );
  const done = children.filter((c) => {
    const aw = c.node.childActivity.activityWorkflowAggregate.lastActivityWorkflow;
    return aw && aw.state !== ActivityWorkflowState.inProgress;
  }).length;
  return { done, total: children.length };
}

/**
 * The panel, open on wide screens. The server cannot know the width: CSS decides until the script after
 * it runs (before the first paint), so nothing jumps when React hydrates (CLS 0.49 on a phone once).
 */
export function TableOfContents({ d, linkTo }: { d: ContentView; linkTo: (i: ContentItem) => string }) {
  const { t } = useTranslation();
  const toc = useRef<HTMLDetailsElement>(null);
  const nonce = useNonce();
  useTocOpen(toc);
  const listed = d.items.filter((i) => i.node.activityPathId !== d.rootId);
  // Issue 25 item 2: the course's names in their own language and direction, whatever the page's.
  const own = textLanguage(d.course.language);
  return (
    <>
      <details className={`toc-panel ${AUTO}`} ref={toc} suppressHydrationWarning>
        <summary className="toc-panel__toggle">{t("content.tocToggle")}</summary>
        <nav className="toc" aria-label={t("activity.toc")}>
          <h2 {...own}>{d.course.name}</h2>
          <p className="toc__progress">{t("activity.courseProgress", { progress: d.workflow.progress })}</p>
          <ol>
            {listed.map((i) => (
              <li key={i.node.activityPathId} style={{ paddingInlineStart: `${i.depth * 16}px` }}>
                {i.locked ? (
                  <span className="toc__link toc__link--locked" aria-disabled="true">
                    <TocIcon icon={i.icon.icon} tooltipKeys={i.icon.tooltipKeys} statusKey="activityIcon.locked" />
                    <span className="toc__name" {...own}>
                      {i.node.childActivity.name}
                    </span>
                    {i.node.childActivity.proctored ? <ProctoredMark /> : null}
                    {i.reason ? (
                      <span className="toc__reason">{t(i.reason.key, { date: i.reason.date ?? "" })}</span>
                    ) : null}
                  </span>
                ) : (
                  <Link
                    to={linkTo(i)}
                    aria-current={i.node.activityPathId === d.selectedPath ? "page" : undefined}
                    className="toc__link"
                  >
                    <TocIcon icon={i.icon.icon} tooltipKeys={i.icon.tooltipKeys} statusKey={i.statusKey} />
                    <span className="toc__name" {...own}>
                      {i.node.childActivity.name}
                    </span>
                    {i.node.childActivity.proctored ? <ProctoredMark /> : null}
                    {i.node.childActivity.kind === ActivityKind.composite ? (
                      <span className="toc__status">{t("activity.moduleProgress", moduleProgress(d.items, i))}</span>
                    ) : (
                      <span className={`toc__status toc__status--${i.statusKey.split(".")[1]}`}>{t(i.statusKey)}</span>
                    )}
                  </Link>
                )}
              </li>
            ))}
          </ol>
        </nav>
      </details>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: TOC_WIDTH_SCRIPT }} />
    </>
  );
}
