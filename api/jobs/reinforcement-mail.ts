/**
 * The reinforcement mail job (spec 2.8, decision 021): every due, unsent question is claimed by one
 * node — `FOR UPDATE SKIP LOCKED` inside the claiming UPDATE, so two nodes on one PostgreSQL never
 * take the same row — and sent as an e-mail with one link per answer option. Through SMTP when
 * SMTP_URL is set; otherwise each message is written as an .eml file to DATA_DIR/outbox, where the
 * demo's links can be opened (`api/mail/transport.ts`). A failed send gives the row back.
 */
import { log } from "../db/log";
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { openMailer, type MailOptions } from "../mail/transport";
import { activities, objectives, reinforcementWorkflows, users } from "../db/schema";
import { reinforcementAnswerPath } from "../../domain/reinforcement";

/** The link of one answer option (spec 2.1 /email-response-callback?answer=…&workflowId=…). */
function answerLink(appUrl: string, workflowId: string, answer: string): string {
  return `${appUrl}${reinforcementAnswerPath(workflowId, answer)}`;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

type Claimed = {
  id: string;
  question: string;
  options: { id: string; text: string }[];
  email: string;
  firstName: string;
  courseName: string;
  moduleName: string;
};

/** Claims up to `limit` due, unsent questions (marks them sent) and returns them with their recipients. */
async function claimDue(db: Db, now: Date, limit: number): Promise<Claimed[]> {
  const claimed = await db.execute<{ id: string }>(sql`
    update ${reinforcementWorkflows} set sent_at = ${now}
    where id in (
      select id from ${reinforcementWorkflows}
      where sent_at is null and answer is null and due_at <= ${now}
      order by due_at
      limit ${limit}
      for update skip locked
    )
    returning id`);
  const ids = claimed.rows.map((r) => r.id);
  if (ids.length === 0) return [];
  return db
    .select({
      id: reinforcementWorkflows.id,
      question: reinforcementWorkflows.question,
      options: reinforcementWorkflows.options,
      email: users.email,
      firstName: users.firstName,
      courseName: objectives.name,
      moduleName: activities.name,
    })
    .from(reinforcementWorkflows)
    .innerJoin(users, eq(users.id, reinforcementWorkflows.userId))
    .innerJoin(objectives, eq(objectives.id, reinforcementWorkflows.objectiveId))
    .innerJoin(activities, eq(activities.id, reinforcementWorkflows.activityId))
    .where(inArray(reinforcementWorkflows.id, ids));
}

/** The message: plain text and HTML, one link per option; nothing in it records an answer by itself. */
function reinforcementMessage(appUrl: string, q: Claimed) {
  const links = q.options.map((o) => ({ text: o.text, href: answerLink(appUrl, q.id, o.id) }));
  const subject = `A question about ${q.moduleName} (${q.courseName})`;
  const text = [
    `Hello ${q.firstName},`,
    "",
    `A quick question about "${q.moduleName}" in ${q.courseName}:`,
    "",
    q.question,
    "",
    ...links.map((l) => `- ${l.text}: ${l.href}`),
    "",
    "Open the link of your answer, then confirm it on the page.",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>Hello ${esc(q.firstName)},</p>
<p>A quick question about <strong>${esc(q.moduleName)}</strong> in ${esc(q.courseName)}:</p>
<p style="font-size:1.1em">${esc(q.question)}</p>
<ul>${links.map((l) => `<li><a href="${esc(l.href)}">${esc(l.text)}</a></li>`).join("")}</ul>
<p>Open the link of your answer, then confirm it on the page.</p>
</body></html>`;
  return { to: q.email, subject, text, html };
}

/** One run of the job: sends what is due now; returns how many were sent. */
export async function sendDueReinforcements(db: Db, options: MailOptions, now = new Date(), limit = 50) {
  const due = await claimDue(db, now, limit);
  if (due.length === 0) return 0;
  const mailer = openMailer(options);
  let sent = 0;
  for (const q of due) {
    try {
      await mailer.send(reinforcementMessage(options.appUrl, q), q.id);
      sent++;
    } catch (error) {
      log().error({ err: error, reinforcement: q.id }, "reinforcement: sending failed; will retry");
      await db.update(reinforcementWorkflows).set({ sentAt: null }).where(eq(reinforcementWorkflows.id, q.id));
    }
  }
  mailer.close();
  return sent;
}
