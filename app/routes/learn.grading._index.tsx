import { data, Form, Link, useLoaderData } from "react-router";
import { useTranslation } from "~/common/i18n";
import type { Route } from "./+types/learn.grading._index";
import { endpoints } from "#domain/contract/endpoints";
import { gradingQueueQuerySchema, type GradingQueue } from "#domain/contract/hand-ins";
import type { QuizGradingItem } from "#domain/contract/assessment";
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
  const forbidden = (err: unknown): never => {
    if (err instanceof LmsError && err.status === 403) throw data("forbidden", { status: 403 });
    throw err;
  };
  // Both queues at once: the hand-ins, and the tests whose answers wait for a person (decision 065).
  const [queue, tests]: [GradingQueue, { data: QuizGradingItem[] }] = await Promise.all([
    lms
      .get(endpoints.gradingQueue, Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])))
      .catch(forbidden),
    lms.get(endpoints.quizGradingQueue).catch(forbidden),
  ]);
  const fmt = dateFormatter(getLocale(context), shell.user.timezone);
  // A test attempt is only ever "awaiting grading": shown unless another state is asked for.
  const shownTests = query.state
    ? []
    : tests.data.filter(
        (i) =>
          (!query.objectiveId || i.objective.id === query.objectiveId) &&
          (!query.activityPartId || i.activity.partId === query.activityPartId),
      );
  return {
    tests: shownTests.map((i) => ({ ...i, submittedText: fmt.dateTime(i.submittedAt) })),
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
  const { filters, courses, items, tests } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  // Under a "Hand-ins" heading once the tests have their own section.
  const ItemHeading = tests.length > 0 ? "h3" : "h2";
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
      {tests.length > 0 ? (
        <section aria-labelledby="grading-tests">
          <h2 id="grading-tests">{t("grading.tests")}</h2>
          <ol className="grading__list">
            {tests.map((i) => (
              <li key={i.attemptId} className="grading__item">
                <h3 className="grading__who">
                  <Link to={`/learn/grading/test/${i.attemptId}`}>
                    {t("grading.itemTitle", { learner: i.learner.name, activity: i.activity.name })}
                  </Link>
                </h3>
                <p className="grading__meta">{i.objective.name}</p>
                <p className="grading__meta">
                  {t("handIn.submittedOn", { date: i.submittedText ?? "" })}
                  {" · "}
                  {t("grading.waiting", { n: i.waiting })}
                </p>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {tests.length > 0 ? <h2>{t("grading.handIns")}</h2> : null}
      {items.length === 0 ? (
        <p className="notice" role="status">
          {t("grading.empty")}
        </p>
      ) : (
        <ol className="grading__list">
          {items.map((i) => (
            <li key={i.id} className="grading__item">
              <ItemHeading className="grading__who">
                <Link to={`/learn/grading/${i.id}`}>
                  {t("grading.itemTitle", { learner: i.learner.name, activity: i.activity.name })}
                </Link>
              </ItemHeading>
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
