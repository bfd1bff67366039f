import { Form, useNavigation, useSearchParams } from "react-router";
import { useTranslation } from "~/common/i18n";
import { GROUP_WORK_MAX } from "#domain/groups";
import { ActivityWorkflowState } from "#domain/vocabulary";
import { INTENT } from "~/common/forms/intents";
import { Pagination } from "./course-filters";
import type { TeamView } from "~/common/views/team";
import { useTypedBeforeHydration } from "./use-typed-before-hydration";

export interface TeamPanelProps {
  team: TeamView;
  workflowId: string;
  /** The learner's own activity workflow of this activity (null before they start). */
  activityWorkflowId: string | null;
  /** Where the forms come back to (this activity's address). */
  back: string;
  /** Reviewing, a proctor lock or a finished attempt: nothing can be changed. */
  readOnly: boolean;
  /** The action's answer to a save a teammate's newer save overtook. */
  conflict?: { text: string; current: { text: string; version: number } } | null;
}

/**
 * A team or mini-group activity (spec 1, 3; issue 15 items 8–9; decision 026): the choice of mode
 * before starting, the group's shared answer that any member continues, the one submission for all,
 * and the members with what they contributed. Plain forms: it works without JavaScript.
 */
export default function TeamPanel({ team, workflowId, activityWorkflowId, back, readOnly, conflict }: TeamPanelProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const title = team.group
    ? t(team.group.kind === "team" ? "team.titleTeam" : "team.titleMiniGroup", { name: team.group.name })
    : t("team.title");
  const work = team.work;
  const open = work?.state === ActivityWorkflowState.inProgress && !readOnly;
  useTypedBeforeHydration("team-text");
  return (
    <section className="team" aria-labelledby="team-title">
      <h2 id="team-title">{title}</h2>
      {team.mode === null ? (
        <StartChoice team={team} workflowId={workflowId} back={back} readOnly={readOnly} busy={busy} />
      ) : team.mode === "personal" ? (
        <p className="activity-panel__meta">{t("team.workingAlone")}</p>
      ) : work ? (
        <>
          <p className="team__state" role="status">
            {work.state === ActivityWorkflowState.inProgress
              ? t("team.inProgress")
              : t(work.state === ActivityWorkflowState.inGrading ? "team.submittedWaiting" : "team.submitted", {
                  by: work.submitted?.by ?? "",
                  time: work.submitted?.time ?? "",
                })}
            {work.result
              ? ` ${t("team.result", { score: work.result.score ?? 0, max: work.result.maxScore ?? 0 })}`
              : ""}
          </p>
          {open ? (
            <>
              <Form method="post" className="team__work">
                <input type="hidden" name="intent" value={INTENT.teamSave} />
                <input type="hidden" name="aggregateId" value={team.aggregateId} />
                <input type="hidden" name="gawId" value={work.id} />
                <input type="hidden" name="version" value={conflict ? conflict.current.version : work.version} />
                <input type="hidden" name="back" value={back} />
                <label htmlFor="team-text">{t("team.answerLabel")}</label>
                <textarea
                  id="team-text"
                  name="text"
                  rows={8}
                  maxLength={GROUP_WORK_MAX}
                  defaultValue={conflict ? conflict.text : work.text}
                  dir="auto"
                  key={conflict ? `conflict-${conflict.current.version}` : `v${work.version}`}
                  aria-describedby={conflict ? "team-conflict" : work.updated ? "team-updated" : undefined}
                />
                {work.updated ? (
                  <p id="team-updated" className="activity-panel__meta">
                    {t("team.lastSaved", { by: work.updated.by, time: work.updated.time })}
                  </p>
                ) : null}
                {conflict ? (
                  <div id="team-conflict" className="notice" role="alert">
                    <p>{t("team.conflict")}</p>
                    <p className="team__answer" dir="auto">
                      {conflict.current.text}
                    </p>
                  </div>
                ) : null}
                <button type="submit" className="button" disabled={busy}>
                  {t("team.save")}
                </button>
              </Form>
              {activityWorkflowId ? (
                <Form method="post" className="team__submit">
                  <input type="hidden" name="intent" value={INTENT.finishActivity} />
                  <input type="hidden" name="workflowId" value={workflowId} />
                  <input type="hidden" name="activityWorkflowId" value={activityWorkflowId} />
                  <input type="hidden" name="back" value={back} />
                  <p className="activity-panel__meta">{t("team.submitHint")}</p>
                  <button type="submit" className="button button--primary" disabled={busy}>
                    {t("team.submit")}
                  </button>
                </Form>
              ) : null}
            </>
          ) : (
            <>
              <h3>{t("team.answer")}</h3>
              <p className="team__answer">{work.text || t("team.emptyAnswer")}</p>
            </>
          )}
        </>
      ) : null}
      {team.participants ? <Members team={team} /> : null}
    </section>
  );
}

function StartChoice({
  team,
  workflowId,
  back,
  readOnly,
  busy,
}: {
  team: TeamView;
  workflowId: string;
  back: string;
  readOnly: boolean;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const groupOnly = team.modes.length === 1 && team.modes[0] === "group";
  if (groupOnly && !team.group) return <p className="notice">{t("team.noGroup")}</p>;
  if (readOnly) return null;
  const choose = team.modes.length === 2 && team.group !== null;
  return (
    <Form method="post" className="team__start">
      <input type="hidden" name="intent" value={INTENT.startActivity} />
      <input type="hidden" name="workflowId" value={workflowId} />
      <input type="hidden" name="activityPathId" value={team.activityPathId} />
      <input type="hidden" name="back" value={back} />
      {choose ? (
        <fieldset>
          <legend>{t("team.chooseMode")}</legend>
          <label>
            <input type="radio" name="mode" value="group" required /> {t("team.modeGroup", { name: team.group!.name })}
          </label>
          <label>
            <input type="radio" name="mode" value="personal" required defaultChecked /> {t("team.modePersonal")}
          </label>
        </fieldset>
      ) : groupOnly ? (
        <>
          <input type="hidden" name="mode" value="group" />
          <p className="activity-panel__meta">{t("team.groupOnly", { name: team.group!.name })}</p>
        </>
      ) : (
        <p className="activity-panel__meta">{t("team.personalOnly")}</p>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        {t("activity.start")}
      </button>
    </Form>
  );
}

function Members({ team }: { team: TeamView }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const p = team.participants!;
  return (
    <div className="team__members">
      <h3 id="team-members">{t("team.members")}</h3>
      <Form method="get" className="team__search" role="search" aria-labelledby="team-members">
        <input type="hidden" name="activityPathId" value={team.activityPathId} />
        <label htmlFor="team-member-search">{t("team.searchMembers")}</label>
        <input id="team-member-search" type="search" name="members" defaultValue={p.search} maxLength={200} />
        <button type="submit" className="button">
          {t("team.search")}
        </button>
      </Form>
      {p.rows.length === 0 ? (
        <p>{t("team.noMembersFound")}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="group" aria-labelledby="team-members">
          <table className="team__table stack-on-phone" aria-labelledby="team-members">
            <thead>
              <tr>
                <th scope="col">{t("team.member")}</th>
                <th scope="col">{t("team.contributions")}</th>
                <th scope="col">{t("team.lastContribution")}</th>
              </tr>
            </thead>
            <tbody>
              {p.rows.map((m) => (
                <tr key={m.id}>
                  <th scope="row">{m.me ? t("team.you", { name: m.name }) : m.name}</th>
                  <td data-label={t("team.contributions")}>{m.contributions}</td>
                  <td data-label={t("team.lastContribution")}>
                    {m.lastAt ? (
                      <>
                        {t(m.kind === "submitted" ? "team.kind.submitted" : "team.kind.saved")}{" "}
                        <time dateTime={m.lastAt}>{m.last}</time>
                      </>
                    ) : (
                      t("team.notYet")
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination params={params} page={p.page} total={p.totalCount} pageSize={p.pageSize} param="membersPage" />
    </div>
  );
}
