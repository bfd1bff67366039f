/**
 * The communications hub (decision 027): a course's announcements and chat are
 * read and written by its members only, unread counts follow read markers, the live stream resumes
 * after a change number with nothing lost or repeated, and the rules of the page hold in the API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import type { ChatChannels, ChatMessage, ChatMessagePage, ChatUnread } from "../../domain/contract/chat";
import type { DataChange } from "../../domain/contract/changes";

type Who = "ada" | "grace" | "rita";
let t: TestApi;
let course: string;
let noHub: string;

/**
 * One token per user for the whole file: a token minted anew in another second is another cache key for
 * the API's principal, which would add a statement to a count now and then.
 */
const tokens = new Map<Who, Promise<string>>();
const tokenOf = (who: Who) => {
  if (!tokens.has(who)) tokens.set(who, t.token(who));
  return tokens.get(who)!;
};

async function call(who: Who, method: string, path: string, body?: unknown) {
  return t.request(method, `/api/lms/v1${path}`, {
    token: await tokenOf(who),
    body,
    headers: method === "POST" ? { Prefer: "respond-sync" } : undefined,
  });
}
const post = (who: Who, body: string, channel = "chat", id: string = crypto.randomUUID(), objectiveId = course) =>
  call(who, "POST", "/create-chat-messages", { id, objectiveId, channel, body });
const messages = async (who: Who, channel = "chat", query = "") => {
  const res = await call(who, "GET", `/users/me/objectives/${course}/channels/${channel}/messages${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ChatMessagePage;
};
const unread = async (who: Who) => {
  const res = await call(who, "GET", `/users/me/objectives/${course}/channels`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as ChatChannels;
  return Object.fromEntries(body.data.map((c) => [c.kind, c.unreadCount]));
};

beforeAll(async () => {
  t = await createTestApi();
  const db = t.database.db;
  const [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
  const { objective, access } = await createCourse(db, tenantId, { announcementChannelId: crypto.randomUUID() });
  course = objective.id;
  noHub = (await createCourse(db, tenantId)).objective.id;
  // Ada is a learner of the course, Grace its instructor (and enrolled too); Rita is not in it.
  await enrolUser(db, { tenantId, userId: t.users.ada, objectiveId: course, accessId: access.id });
  await enrolUser(db, { tenantId, userId: t.users.grace, objectiveId: course, accessId: access.id });
  await enrolUser(db, { tenantId, userId: t.users.ada, objectiveId: noHub });
});
afterAll(() => t?.close());

describe("channels are the course members' only", () => {
  it("a learner not in the course gets 404 for reading, posting and the read marker", async () => {
    expect((await call("rita", "GET", `/users/me/objectives/${course}/channels`)).status).toBe(404);
    expect((await call("rita", "GET", `/users/me/objectives/${course}/channels/chat/messages`)).status).toBe(404);
    expect((await post("rita", "hello")).status).toBe(404);
    expect((await call("rita", "PUT", `/users/me/objectives/${course}/channels/chat/read`, { seq: 1 })).status).toBe(
      404,
    );
  });

  it("a course without an announcement channel has no hub, and unknown channels or ids are not found", async () => {
    expect((await call("ada", "GET", `/users/me/objectives/${noHub}/channels`)).status).toBe(404);
    expect((await call("ada", "GET", `/users/me/objectives/${course}/channels/secret/messages`)).status).toBe(404);
    expect((await call("ada", "GET", `/users/me/objectives/not-a-uuid/channels`)).status).toBe(404);
    const garbled = await call("ada", "GET", `/users/me/objectives/${course}/channels/chat/messages?after=-1`);
    expect(garbled.status).toBe(400);
  });

  it("learners read announcements but only instructors post them", async () => {
    const refused = await post("ada", "Exam moved", "announcements");
    expect(refused.status).toBe(403);
    expect((await post("grace", "Exam moved to Friday", "announcements")).status).toBe(200);
    const page = await messages("ada", "announcements");
    expect(page.mayPost).toBe(false);
    expect(page.data.map((m) => m.body)).toEqual(["Exam moved to Friday"]);
    expect((await messages("grace", "announcements")).mayPost).toBe(true);
  });
});

describe("messages", () => {
  it("plain text up to 4,000 characters: longer or empty is a 400 with the field's message", async () => {
    const long = await post("ada", "x".repeat(4001));
    expect(long.status).toBe(400);
    expect(JSON.stringify(await long.json())).toContain("maxLength");
    expect((await post("ada", "   ")).status).toBe(400);
    expect((await post("ada", "y".repeat(4000))).status).toBe(200);
  });

  it("a double submit makes one message", async () => {
    const id = crypto.randomUUID();
    const [a, b] = await Promise.all([post("ada", "twice?", "chat", id), post("ada", "twice?", "chat", id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const page = await messages("grace");
    expect(page.data.filter((m) => m.id === id)).toHaveLength(1);
  });

  it("unread counts follow the reader's marker; one's own messages are never unread", async () => {
    await call("grace", "PUT", `/users/me/objectives/${course}/channels/chat/read`, { seq: 1_000_000 });
    expect((await unread("grace")).chat).toBe(0);
    await post("ada", "one");
    await post("ada", "two");
    expect((await unread("grace")).chat).toBe(2);
    expect((await unread("ada")).chat).toBe(0);
    const before = t.database.queryCount();
    const total = (await (await call("grace", "GET", "/users/me/chat/unread")).json()) as ChatUnread;
    // The shell's badge: the total, and the course and channel of the newest unread message, in one statement.
    expect(total).toEqual({ total: 2, objectiveId: course, channel: "chat" });
    expect(t.database.queryCount() - before).toBeLessThanOrEqual(3);
    const page = await messages("grace");
    const one = page.data.find((m) => m.body === "one")!;
    await call("grace", "PUT", `/users/me/objectives/${course}/channels/chat/read`, { seq: one.seq });
    expect((await unread("grace")).chat).toBe(1);
    // The marker never moves back.
    await call("grace", "PUT", `/users/me/objectives/${course}/channels/chat/read`, { seq: 0 });
    expect((await unread("grace")).chat).toBe(1);
  });

  it("resuming after a change number returns exactly what changed since, edits and deletions included", async () => {
    const before = await messages("grace");
    const mark = before.lastVersion;
    const created = (await (await post("ada", "see https://example.org")).json()) as ChatMessage;
    await post("grace", "reply");
    const edit = await call("ada", "POST", "/edit-chat-messages", {
      id: crypto.randomUUID(),
      messageId: created.id,
      body: "see https://example.org/edited",
    });
    expect(edit.status).toBe(200);
    const after = await messages("grace", "chat", `?after=${mark}`);
    // The edited message once, in its newest version; the reply once.
    expect(after.data.map((m) => m.body)).toEqual(["reply", "see https://example.org/edited"]);
    expect(new Set(after.data.map((m) => m.id)).size).toBe(2);
    const last = after.data.at(-1)!.version;
    expect((await messages("grace", "chat", `?after=${last}`)).data).toEqual([]);
    // Someone else's message cannot be edited or deleted (404); the author deletes theirs.
    const foreign = await call("grace", "POST", "/edit-chat-messages", {
      id: crypto.randomUUID(),
      messageId: created.id,
      body: null,
    });
    expect(foreign.status).toBe(404);
    await call("ada", "POST", "/edit-chat-messages", { id: crypto.randomUUID(), messageId: created.id, body: null });
    const gone = (await messages("grace", "chat", `?after=${last}`)).data;
    expect(gone).toMatchObject([{ id: created.id, deleted: true, body: "" }]);
  });

  it("a channel's page is the same number of statements however many messages it has", async () => {
    const count = async () => {
      const start = t.database.queryCount();
      await messages("grace");
      await unread("grace");
      return t.database.queryCount() - start;
    };
    await count(); // the principal is read once, then remembered
    const few = await count();
    for (let i = 0; i < 5; i++) await post("ada", `more ${i}`);
    expect(await count()).toBe(few);
  });

  it("posting is rate-limited per user (429 beyond the limit)", async () => {
    const limited = await createTestApi({ writeLimits: { chat: { points: 2, durationSeconds: 60 } } });
    try {
      const db = limited.database.db;
      const [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
      const { objective } = await createCourse(db, tenantId, { announcementChannelId: crypto.randomUUID() });
      await enrolUser(db, { tenantId, userId: limited.users.ada, objectiveId: objective.id });
      const token = await limited.token("ada");
      const send = () =>
        limited.request("POST", "/api/lms/v1/create-chat-messages", {
          token,
          body: { id: crypto.randomUUID(), objectiveId: objective.id, channel: "chat", body: "hi" },
          headers: { Prefer: "respond-sync" },
        });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe("every node hears of a message at once", () => {
  it("a post sends the change notice chat:<channel id> (LISTEN/NOTIFY on PostgreSQL)", async () => {
    const heard: DataChange[] = [];
    const stop = t.database.changes.subscribe((c) => heard.push(c));
    await t.database.changes.listening();
    try {
      const created = (await (await post("ada", "notice me")).json()) as ChatMessage;
      const [row] = await t.database.db
        .select({ channelId: s.chatMessages.channelId })
        .from(s.chatMessages)
        .where(eq(s.chatMessages.id, created.id));
      const deadline = Date.now() + 5_000;
      while (!heard.some((c) => c.kind === "chat" && c.channelId === row.channelId)) {
        if (Date.now() > deadline) throw new Error(`no chat notice; heard ${JSON.stringify(heard)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      // Nothing else is forgotten for a chat message: no "all", no user notice.
      expect(heard.filter((c) => c.kind !== "chat")).toEqual([]);
    } finally {
      stop();
    }
  });
});
