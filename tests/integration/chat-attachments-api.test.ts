/**
 * Chat attachments (issue 16 item 3, spec 5 'attachments', spec 7.5 'HEAD on attachment URLs', decision
 * 027): a message carries up to three checked files, stored with it in one transaction; the files are
 * served to the course's hub members only, with their checked type, and no longer once the message is
 * deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { createTestApi, type TestApi } from "../fixtures/api";
import { createCourse, enrolUser } from "../fixtures/courses";
import * as s from "../../api/db/schema";
import type { ChatMessage, ChatMessagePage } from "../../domain/contract/chat";

type Who = "ada" | "grace" | "rita";
let t: TestApi;
let course: string;
let dataDir: string;

const tokens = new Map<Who, Promise<string>>();
const tokenOf = (who: Who) => {
  if (!tokens.has(who)) tokens.set(who, t.token(who));
  return tokens.get(who)!;
};

const PDF = strToU8("%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const DOCX = zipSync({ "[Content_Types].xml": strToU8("<Types/>"), "word/document.xml": strToU8("<w/>") });
const EXE = new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]);
const TYPES = "pdf, png, jpeg, gif, webp, txt, docx, xlsx, pptx, zip";

const file = (bytes: Uint8Array, name: string, type = "application/octet-stream") =>
  new File([bytes as Uint8Array<ArrayBuffer>], name, { type });

function form(fields: Record<string, string>, files: File[] = []) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  for (const x of files) f.append("attachments", x);
  return f;
}

async function call(
  who: Who | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return t.request(method, path, {
    token: who ? await tokenOf(who) : null,
    body,
    headers: method === "POST" ? { Prefer: "respond-sync", ...headers } : headers,
  });
}
const postWith = (who: Who, files: File[], body = "see attached", id: string = crypto.randomUUID()) =>
  call(
    who,
    "POST",
    "/api/lms/v1/create-chat-messages",
    form({ id, objectiveId: course, channel: "chat", body }, files),
  );
const posted = async (res: Response) => {
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: ChatMessage }).data;
};
const messages = async (who: Who) => {
  const res = await call(who, "GET", `/api/lms/v1/users/me/objectives/${course}/channels/chat/messages`);
  expect(res.status).toBe(200);
  return (await res.json()) as ChatMessagePage;
};
const errorsOf = async (res: Response) =>
  ((await res.json()) as { errors: Record<string, { message: string }[]> }).errors;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "chat-attachments-"));
  t = await createTestApi({ dataDir });
  const db = t.database.db;
  const [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
  const { objective, access } = await createCourse(db, tenantId, { announcementChannelId: crypto.randomUUID() });
  course = objective.id;
  // Ada and Grace are in the course; Rita is not.
  await enrolUser(db, { tenantId, userId: t.users.ada, objectiveId: course, accessId: access.id });
  await enrolUser(db, { tenantId, userId: t.users.grace, objectiveId: course, accessId: access.id });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("posting files with a message", () => {
  it("a message carries its files {id, name, size, type, url}, in the API and on the channel's page", async () => {
    const m = await posted(
      await postWith("ada", [file(PDF, "Week 1 notes.pdf", "text/html"), file(PNG, "диаграмма.png")]),
    );
    expect(m.attachments).toEqual([
      {
        id: expect.any(String),
        name: "Week 1 notes.pdf",
        size: PDF.length,
        type: "application/pdf",
        url: expect.any(String),
      },
      { id: expect.any(String), name: "диаграмма.png", size: PNG.length, type: "image/png", url: expect.any(String) },
    ]);
    expect(m.attachments[0].url).toBe(`/api/lms-storage/v1/chat-attachments/${m.attachments[0].id}`);
    const seen = (await messages("grace")).data.find((x) => x.id === m.id)!;
    expect(seen.attachments).toEqual(m.attachments);
    // Stored under DATA_DIR/storage, by message.
    expect(readdirSync(join(dataDir, "storage", "chat", m.id))).toHaveLength(2);
  });

  it("a message may be files only; a form's empty file part (nothing chosen) is no file", async () => {
    const filesOnly = await posted(await postWith("ada", [file(DOCX, "essay.docx")], ""));
    expect(filesOnly.body).toBe("");
    expect(filesOnly.attachments.map((a) => a.type)).toEqual([
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ]);
    const textOnly = await posted(await postWith("ada", [file(new Uint8Array(), "")], "just text"));
    expect(textOnly.attachments).toEqual([]);
    const nothing = await postWith("ada", [file(new Uint8Array(), "")], "  ");
    expect(nothing.status).toBe(400);
    expect(Object.keys(await errorsOf(nothing))).toEqual(["body"]);
  });

  it("a double submit stores one message with one set of files", async () => {
    const id = crypto.randomUUID();
    const [a, b] = await Promise.all([
      postWith("ada", [file(PDF, "a.pdf")], "x", id),
      postWith("ada", [file(PDF, "a.pdf")], "x", id),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = await t.database.db.select().from(s.chatAttachments).where(eq(s.chatAttachments.messageId, id));
    expect(rows).toHaveLength(1);
    expect(readdirSync(join(dataDir, "storage", "chat", id))).toHaveLength(1);
  });

  it("the channel's page is the same number of statements with files as without", async () => {
    const count = async () => {
      const start = t.database.queryCount();
      await messages("grace");
      return t.database.queryCount() - start;
    };
    await count();
    const before = await count();
    for (let i = 0; i < 3; i++) await postWith("ada", [file(PDF, `${i}.pdf`), file(PNG, `${i}.png`)]);
    expect(await count()).toBe(before);
  });

  it("the page tells the rules it enforces", async () => {
    expect((await messages("ada")).attachmentRules).toEqual({
      maxBytes: 10 * 1024 * 1024,
      maxCount: 3,
      types: ["pdf", "png", "jpeg", "gif", "webp", "txt", "docx", "xlsx", "pptx", "zip"],
    });
  });
});

describe("spec 5: the two attachment messages, and nothing stored when refused", () => {
  const rowCount = async () =>
    (await t.database.db.select({ id: s.chatAttachments.id }).from(s.chatAttachments)).length;

  it("a file over 10 MB: 'We support attaching files not bigger than 10.00 MB'", async () => {
    const before = await rowCount();
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(PDF);
    const res = await postWith("ada", [file(big, "big.pdf")]);
    expect(res.status).toBe(400);
    expect(await errorsOf(res)).toEqual({
      attachments: [
        {
          code: "attachmentTooLarge",
          message: "We support attaching files not bigger than 10.00 MB",
          params: { size: "10.00 MB" },
        },
      ],
    });
    expect(await rowCount()).toBe(before);
  });

  it.each([
    ["a program renamed .pdf (declared application/pdf)", file(EXE, "invoice.pdf", "application/pdf")],
    ["a PNG named .pdf", file(PNG, "scan.pdf")],
    ["an extension not allowed", file(strToU8("<svg/>"), "logo.svg", "image/svg+xml")],
    ["HTML named .txt", file(strToU8("<html>\u0000</html>"), "page.txt")],
  ])("%s: 'We support attaching only these types of files: …'", async (_name, f) => {
    const before = await rowCount();
    const res = await postWith("ada", [file(PDF, "fine.pdf"), f]);
    expect(res.status).toBe(400);
    const errors = await errorsOf(res);
    expect(errors.attachments[0].message).toBe(`We support attaching only these types of files: ${TYPES}`);
    // The good file of the same post is not kept either.
    expect(await rowCount()).toBe(before);
  });

  it("more than three files: 400 with the count", async () => {
    const res = await postWith(
      "ada",
      [1, 2, 3, 4].map((i) => file(PDF, `${i}.pdf`)),
    );
    expect(res.status).toBe(400);
    expect((await errorsOf(res)).attachments[0]).toMatchObject({ code: "attachmentCount", params: { count: 3 } });
  });

  it("a body declared past what three files can be: 413 before it is read", async () => {
    const res = await t.request("POST", "/api/lms/v1/create-chat-messages", {
      token: await tokenOf("ada"),
      body: "x",
      headers: {
        "Content-Type": "multipart/form-data; boundary=x",
        "Content-Length": String(40 * 1024 * 1024),
        Prefer: "respond-sync",
      },
    });
    expect(res.status).toBe(413);
    expect((await errorsOf(res)).attachments[0].message).toBe("We support attaching files not bigger than 10.00 MB");
  });

  it("a broken multipart body is a 400, not a 500", async () => {
    const res = await t.request("POST", "/api/lms/v1/create-chat-messages", {
      token: await tokenOf("ada"),
      body: '--x\r\nContent-Disposition: form-data; name="id"\r\n\r\nnot closed',
      headers: { "Content-Type": "multipart/form-data; boundary=x", Prefer: "respond-sync" },
    });
    expect(res.status).toBe(400);
  });

  it("a NUL in a multipart text field is a 400 invalidCharacters, as in a JSON body", async () => {
    const res = await postWith("ada", [file(PDF, "a.pdf")], "a\u0000b");
    expect(res.status).toBe(400);
    expect((await errorsOf(res))[""][0]).toMatchObject({ code: "invalidCharacters" });
  });

  it("a learner cannot post files in the announcements (403), and nothing is stored", async () => {
    const before = await rowCount();
    const f = form({ id: crypto.randomUUID(), objectiveId: course, channel: "announcements", body: "x" }, [
      file(PDF, "a.pdf"),
    ]);
    expect((await call("ada", "POST", "/api/lms/v1/create-chat-messages", f)).status).toBe(403);
    expect(await rowCount()).toBe(before);
  });
});

describe("serving a file (spec 7.5)", () => {
  let pdf: ChatMessage["attachments"][number];
  let png: ChatMessage["attachments"][number];
  let messageId: string;

  beforeAll(async () => {
    const m = await posted(await postWith("ada", [file(PDF, "Plan «final».pdf"), file(PNG, "chart.png")]));
    [pdf, png] = m.attachments;
    messageId = m.id;
  });

  it("members read it with its checked type; non-images download; nosniff", async () => {
    const res = await call("grace", "GET", pdf.url);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PDF);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Plan _final_.pdf"; filename*=UTF-8''${encodeURIComponent("Plan «final».pdf")}`,
    );
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const image = await call("ada", "GET", png.url);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("content-disposition")).toMatch(/^inline; /);
  });

  it("HEAD answers the size and no body; a range answers 206", async () => {
    const head = await call("grace", "HEAD", pdf.url);
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(PDF.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const part = await call("grace", "GET", pdf.url, undefined, { Range: "bytes=0-4" });
    expect(part.status).toBe(206);
    expect(new TextDecoder().decode(await part.arrayBuffer())).toBe("%PDF-");
  });

  it("anyone not in the course gets 404 (GET and HEAD); no token 401; an unknown id 404", async () => {
    expect((await call("rita", "GET", pdf.url)).status).toBe(404);
    expect((await call("rita", "HEAD", pdf.url)).status).toBe(404);
    expect((await call(null, "GET", pdf.url)).status).toBe(401);
    expect((await call("ada", "GET", `/api/lms-storage/v1/chat-attachments/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await call("ada", "GET", "/api/lms-storage/v1/chat-attachments/not-an-id")).status).toBe(404);
  });

  it("deleting the message hides its files: 404, and the message carries none", async () => {
    const del = await call("ada", "POST", "/api/lms/v1/edit-chat-messages", {
      id: crypto.randomUUID(),
      messageId,
      body: null,
    });
    expect(del.status).toBe(200);
    expect(((await del.json()) as { data: ChatMessage }).data.attachments).toEqual([]);
    expect((await call("ada", "GET", pdf.url)).status).toBe(404);
    expect((await call("grace", "HEAD", png.url)).status).toBe(404);
    const seen = (await messages("grace")).data.find((x) => x.id === messageId)!;
    expect(seen).toMatchObject({ deleted: true, attachments: [] });
  });
});

describe("configured rules", () => {
  it("another size and type list: the messages say so", async () => {
    const small = await createTestApi({ chatAttachments: { maxBytes: 1024, maxCount: 1, kinds: ["txt", "jpeg"] } });
    try {
      const db = small.database.db;
      const [{ id: tenantId }] = await db.select({ id: s.tenants.id }).from(s.tenants);
      const { objective } = await createCourse(db, tenantId, { announcementChannelId: crypto.randomUUID() });
      await enrolUser(db, { tenantId, userId: small.users.ada, objectiveId: objective.id });
      const token = await small.token("ada");
      const send = (f: File) =>
        small.request("POST", "/api/lms/v1/create-chat-messages", {
          token,
          body: form({ id: crypto.randomUUID(), objectiveId: objective.id, channel: "chat", body: "x" }, [f]),
          headers: { Prefer: "respond-sync" },
        });
      const big = await send(file(strToU8("x".repeat(1025)), "a.txt"));
      expect((await errorsOf(big)).attachments[0].message).toBe("We support attaching files not bigger than 1.00 KB");
      const pdf = await send(file(PDF, "a.pdf"));
      expect((await errorsOf(pdf)).attachments[0].message).toBe(
        "We support attaching only these types of files: txt, jpeg",
      );
      expect((await send(file(strToU8("hello"), "a.txt"))).status).toBe(200);
      // Without DATA_DIR the files go to a folder of this process's own.
      expect(existsSync(join(tmpdir(), `learner-app-storage-${process.pid}`, "chat"))).toBe(true);
    } finally {
      await small.close();
    }
  });
});
