import { data, Form, Link, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.grading._index";
import { endpoints } from "#domain/contract/endpoints";
import { gradingQueueQuerySchema, type GradingQueue } from "#domain/contract/hand-ins";
import { HAND_IN_STATES } from "#domain/hand-ins";
import { state } from "~/services/request.server";
import { dateFormatter } from "~/services/format.server";
import { getLocale } from "~/services/i18n.server";
import { LmsError } from "~/services/lms.server";

export const handle = {
  title: (_d: unknown, t: (k: string) => string) => t("grading.title"),
  breadcrumb: (_d: unknown, t: (k: string) => string) => [{ label: t("grading.title") }],
};

/**
 * /learn/grading (decision 048): the hand-ins awaiting grading in the grader's tenant, oldest first,
 * filtered by course, activity and state (a GET form: the filters are in the URL, with or without
 * JavaScript). Someone who does not grade gets 403.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const s = state(context);
  const shell = await s.requireLearner();
  const raw = Object.fromEntries([...url.searchParams].filter(([, v]) => v !== ""));
  const parsed = gradingQueueQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : { limit: 100 };
  const lms = await s.lms();
  const queue: GradingQueue = await lms
    .get(endpoints.gradingQueue, Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])))
    .catch((err: unknown) => {
      if (err instanceof LmsError && err.status === 403) throw data("forbidden", { status: 403 });
      throw err;
    });
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  return {
    filters: {
      objectiveId: query.objectiveId ?? "",
      activityPartId: query.activityPartId ?? "",
      state: query.state ?? "",
    },
    courses: queue.courses,
    items: queue.data.map((i) => ({ ...i, submittedText: fmt.dateTime(i.submittedAt), dueText: fmt.dateTime(i.due) })),
  };
}

export default function GradingQueuePage() {
  const { filters, courses, items } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const activities = courses.flatMap((c) =>
    !filters.objectiveId || c.id === filters.objectiveId ? c.activities.map((a) => ({ ...a, course: c.name })) : [],
  );
  return (
    <div className="grading">
      <h1>{t("grading.title")}</h1>
      <Form method="get" className="grading__filters" aria-label={t("grading.filters")}>
        <label>
          {t("grading.course")}
          <select name="objectiveId" defaultValue={filters.objectiveId}>
            <option value="">{t("grading.all")}</option>
            {courses.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("grading.activity")}
          <select name="activityPartId" defaultValue={filters.activityPartId}>
            <option value="">{t("grading.all")}</option>
            {activities.map((a) => (
              <option key={a.partId} value={a.partId}>
                {a.name} ({a.course})
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("grading.stateFilter")}
          <select name="state" defaultValue={filters.state}>
            <option value="">{t("grading.awaiting")}</option>
            {HAND_IN_STATES.filter((x) => x !== "draft").map((x) => (
              <option key={x} value={x}>
                {t(`handIn.state.${x}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          {t("grading.apply")}
        </button>
      </Form>
      {items.length === 0 ? (
        <p className="notice" role="status">
          {t("grading.empty")}
        </p>
      ) : (
        <ol className="grading__list">
          {items.map((i) => (
            <li key={i.id} className="grading__item">
              <h2 className="grading__who">
                <Link to={`/learn/grading/${i.id}`}>
                  {t("grading.itemTitle", { learner: i.learner.name, activity: i.activity.name })}
                </Link>
              </h2>
              <p className="grading__meta">{i.objective.name}</p>
              <p className="grading__meta">
                {t("handIn.submittedOn", { date: i.submittedText ?? "" })}
                {i.late ? <strong className="hand-in__late"> {t("handIn.late")}</strong> : null}
                {i.dueText ? ` · ${t("handIn.due", { date: i.dueText })}` : ""}
                {" · "}
                {t(`handIn.state.${i.state}`)}
                {" · "}
                {t("grading.files", { n: i.fileCount })}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
