/**
 * E-mail through the outbox (decision 036). A message is a row of `mail_outbox`, committed
 * with whatever caused it; `sendPendingMail` — run by the background jobs on every node (decision 021)
 * and by the writer at once, in the background — claims pending rows with `FOR UPDATE SKIP LOCKED`, so
 * two nodes never send the same message, and gives a row back when its send fails (tried again on a
 * later run, at most MAX_ATTEMPTS times).
 */
import { log } from "../db/log";
import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { mailOutbox } from "../db/schema";
import { openMailer, type MailMessage, type MailOptions } from "./transport";

const MAX_ATTEMPTS = 5;
/** A claim this old without a send is a node that died mid-send: the row may be claimed again. */
const STALE_CLAIM_MS = 5 * 60_000;
/** Sent messages are kept this long (what was sent, and when), then deleted. */
const KEEP_SENT_MS = 7 * 24 * 3600_000;

/** Queues a message (in the caller's transaction when it passes one). */
export async function enqueueMail(db: Pick<Db, "insert">, kind: string, message: MailMessage): Promise<void> {
  await db.insert(mailOutbox).values({
    kind,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: message.headers ?? null,
  });
}

/** Claims up to `limit` pending rows (marks them claimed, counts the attempt) and returns them. */
async function claimPending(db: Db, now: Date, limit: number) {
  const stale = new Date(now.getTime() - STALE_CLAIM_MS);
  const claimed = await db.execute<{ id: string }>(sql`
    update ${mailOutbox} set claimed_at = ${now}, attempts = attempts + 1
    where id in (
      select id from ${mailOutbox}
      where sent_at is null and attempts < ${MAX_ATTEMPTS} and (claimed_at is null or claimed_at < ${stale})
      order by created_at
      limit ${limit}
      for update skip locked
    )
    returning id`);
  const ids = claimed.rows.map((r) => r.id);
  if (ids.length === 0) return [];
  return db
    .select()
    .from(mailOutbox)
    .where(
      sql`${mailOutbox.id} in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
}

/** One run: sends what is pending; returns how many went out. */
export async function sendPendingMail(db: Db, options: MailOptions, now = new Date(), limit = 50): Promise<number> {
  const rows = await claimPending(db, now, limit);
  if (rows.length === 0) return 0;
  const mailer = openMailer(options);
  let sent = 0;
  try {
    for (const row of rows) {
      try {
        const file = await mailer.send(
          {
            to: row.to,
            subject: row.subject,
            text: row.text,
            html: row.html,
            ...(row.headers ? { headers: row.headers } : {}),
          },
          `${row.kind}-${row.id}`,
        );
        await db.update(mailOutbox).set({ sentAt: new Date(), lastError: null }).where(eq(mailOutbox.id, row.id));
        // Without SMTP the message is a file: say where, so a developer or a demo can open its link. The
        // line names the message, never its recipient's address (decision 050).
        if (file) log().info({ kind: row.kind, id: row.id, file }, "mail: written to a file (no SMTP_URL)");
        sent++;
      } catch (error) {
        log().warn({ kind: row.kind, id: row.id, err: error }, "mail: sending failed; will retry");
        await db
          .update(mailOutbox)
          .set({ claimedAt: null, lastError: String((error as Error).message ?? error).slice(0, 500) })
          .where(eq(mailOutbox.id, row.id));
      }
    }
  } finally {
    mailer.close();
  }
  return sent;
}

/** Deletes messages sent more than a week ago. */
export async function deleteOldMail(db: Db, now = new Date()): Promise<void> {
  await db
    .delete(mailOutbox)
    .where(and(isNotNull(mailOutbox.sentAt), lt(mailOutbox.sentAt, new Date(now.getTime() - KEEP_SENT_MS))));
}
