/**
 * The operator endpoints: what `npm run sessions | lti:tool | certificates | content:import-scorm | people` ask
 * the running server to do while it holds the embedded database. A command comes from this machine
 * with the operator token of DATA_DIR/secrets.json, or it is refused.
 */
import { timingSafeEqual } from "node:crypto";
import { rm } from "node:fs/promises";
import { gradingCommand, GradingCommandError, runGradingCommand } from "../api/commands/grading";
import { Hono, type Context } from "hono";
import type { z } from "zod";
import type { Database } from "../api/db/client";
import type { FileStore } from "../api/files/object-store";
import { certificateCommand, CertificateCommandError, runCertificateCommand } from "../api/certificate-revocation";
import { AttachError, attachmentCommand, runAttachmentCommand } from "../api/lti/attach";
import { registryOf, type LtiRegistryOptions } from "../api/lti/registry";
import { runToolCommand, toolCommand, ToolStoreError } from "../api/lti/tool-store";
import { importPeopleCsv } from "../api/people/import";
import { runScimTokenCommand, scimTokenCommand, ScimTokenError } from "../api/scim/tokens";
import { importScormPackage, saveUpload } from "../api/scorm/import";
import { readQtiZip, storeQtiPackage } from "../api/assessment/import";
import { ScormPackageError } from "../api/scorm/manifest";
import { operatorCommand, OperatorError, runOperatorCommand } from "../identity/sessions/operator";
import { isLoopback } from "../demo/test-support";
import { incomingOf, socketAddress, type AddressOf } from "../server/http/client-address";
import { courseFolderCommand, runCourseFolderCommand } from "./commands/courses";
import { Refused } from "./database-or-server";

export interface OperatorRouteDeps {
  database: Database;
  files: FileStore;
  lti: LtiRegistryOptions;
  operatorToken: string;
  appUrl: string;
  scormLimits: { maxBytes: number; maxEntries: number };
  /** Who sent a request (TRUST_PROXY, decision 050); the socket's address without it. */
  addressOf?: AddressOf;
}

export function operatorRoutes(deps: OperatorRouteDeps): Hono {
  const { database, files, lti, appUrl, scormLimits } = deps;
  const expected = Buffer.from(deps.operatorToken);
  const addressOf = deps.addressOf ?? socketAddress;
  const allowed = (c: Context) => {
    const token = Buffer.from(c.req.header("authorization")?.replace(/^Bearer /, "") ?? "");
    const incoming = incomingOf(c.env);
    return (
      incoming !== null &&
      isLoopback(addressOf(incoming)) &&
      token.length === expected.length &&
      timingSafeEqual(token, expected)
    );
  };

  /** A JSON command: parsed by its schema, run, and its own error class answered as 400. */
  function command<S extends z.ZodType>(
    schema: S,
    run: (input: z.infer<S>) => Promise<unknown>,
    refusal: (err: unknown) => { error: string; code?: string } | null,
  ) {
    return async (c: Context) => {
      if (!allowed(c)) return c.json({ error: "Forbidden" }, 403);
      const input = schema.safeParse(await c.req.json().catch(() => null));
      if (!input.success) return c.json({ error: input.error.issues.map((i) => i.message).join("; ") }, 400);
      try {
        return c.json({ result: await run(input.data) });
      } catch (err) {
        const answer = refusal(err);
        if (answer) return c.json(answer, 400);
        throw err;
      }
    };
  }

  const routes = new Hono();
  // Sessions: list, end (decision 017).
  routes.post(
    "/sessions",
    command(
      operatorCommand,
      (input) => runOperatorCommand(database.db, input, appUrl),
      (err) => (err instanceof OperatorError ? { error: err.message } : null),
    ),
  );
  // LTI tools: add, list, remove (decision 043); a tool may not take a key or id of the demo's tools.
  routes.post(
    "/lti-tools",
    command(
      toolCommand,
      (input) => runToolCommand(database.db, input, lti.tools),
      (err) => (err instanceof ToolStoreError ? { error: err.message, code: err.code } : null),
    ),
  );
  // LTI tools attached to activities: the tool must be in this server's registry.
  routes.post(
    "/lti-attachments",
    command(
      attachmentCommand,
      async (input) => runAttachmentCommand(database.db, await registryOf({ lti, database }), input),
      (err) => (err instanceof AttachError ? { error: err.message, code: err.code } : null),
    ),
  );
  // Certificates: revoke, restore, list.
  routes.post(
    "/certificates",
    command(
      certificateCommand,
      (input) => runCertificateCommand(database.db, input, new Date()),
      (err) => (err instanceof CertificateCommandError ? { error: err.message } : null),
    ),
  );
  // SCIM clients' tokens: create, list, revoke (decision 059).
  routes.post(
    "/scim-tokens",
    command(
      scimTokenCommand,
      (input) => runScimTokenCommand(database.db, input),
      (err) => (err instanceof ScimTokenError ? { error: err.message } : null),
    ),
  );
  // Grading: the queue, a grade (decision 058), as the grader the command names.
  routes.post(
    "/grading",
    command(
      gradingCommand,
      (input) => runGradingCommand(database.db, input, new Date()),
      (err) => (err instanceof GradingCommandError ? { error: err.message } : null),
    ),
  );
  // A SCORM package, streamed to a temporary file and imported.
  routes.post("/scorm-packages", async (c) => {
    if (!allowed(c)) return c.json({ error: "Forbidden" }, 403);
    const course = c.req.query("course");
    if (!course) return c.json({ error: "Name the course: ?course=CODE" }, 400);
    let zipPath: string | null = null;
    try {
      zipPath = await saveUpload(c.req.raw.body, scormLimits.maxBytes);
      const result = await importScormPackage(database.db, {
        zipPath,
        store: files,
        courseCode: course,
        activityId: c.req.query("activity"),
        title: c.req.query("title"),
        limits: scormLimits,
      });
      return c.json({ result });
    } catch (err) {
      if (err instanceof ScormPackageError) return c.json({ error: err.message, code: err.code }, err.status as 400);
      throw err;
    } finally {
      if (zipPath) await rm(zipPath, { force: true });
    }
  });
  // A QTI package, streamed to a temporary file and imported.
  routes.post("/qti-packages", async (c) => {
    if (!allowed(c)) return c.json({ error: "Forbidden" }, 403);
    const course = c.req.query("course");
    if (!course) return c.json({ error: "Name the course: ?course=CODE" }, 400);
    const cut = c.req.query("cut");
    let zipPath: string | null = null;
    try {
      zipPath = await saveUpload(c.req.raw.body, scormLimits.maxBytes);
      const title = c.req.query("title");
      const content = await readQtiZip(zipPath, title ?? course, scormLimits);
      const result = await storeQtiPackage(database.db, content, {
        courseCode: course,
        activityId: c.req.query("activity"),
        title,
        cutValue: cut === undefined ? null : Number(cut),
        survey: c.req.query("survey") === "true",
        anonymous: c.req.query("anonymous") === "true",
      });
      return c.json({ result });
    } catch (err) {
      if (err instanceof ScormPackageError) return c.json({ error: err.message, code: err.code }, err.status as 400);
      throw err;
    } finally {
      if (zipPath) await rm(zipPath, { force: true });
    }
  });
  // A course folder of this machine imported, or a course exported to one (decision 062).
  routes.post(
    "/course-folders",
    command(
      courseFolderCommand,
      (input) =>
        runCourseFolderCommand(database.db, input, { store: files, givenTools: (lti.tools ?? []).map((t) => t.key) }),
      (err) => (err instanceof Refused ? { error: err.message } : null),
    ),
  );
  // A people or enrolments CSV file (decision 049): checked, and imported with ?apply=1.
  routes.post("/people", async (c) => {
    if (!allowed(c)) return c.json({ error: "Forbidden" }, 403);
    const report = await importPeopleCsv(database.db, await c.req.text(), { apply: c.req.query("apply") === "1" });
    return c.json({ result: report });
  });
  return routes;
}
