/**
 * A storage outage is told apart from missing content (issue 53 item 3, decision 053): the store's
 * `check` finds a missing bucket and refused credentials (a setting to fix: the start stops) and a
 * server that does not answer; a failed read or write is `StorageUnavailable`, which the API answers
 * with 503, never 404. Against a real S3-compatible server (s3rver), stopped for the outage.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Hono } from "hono";
import { localStore, openFileStore, storageFailure, StorageUnavailable } from "./object-store";
import { renderError } from "../errors";
import { startTestS3, type TestS3 } from "../../tests/fixtures/s3";

let s3: TestS3;
let folder: string;
beforeAll(async () => {
  s3 = await startTestS3();
  folder = mkdtempSync(join(tmpdir(), "storage-outage-"));
});
afterAll(async () => {
  await s3?.stop().catch(() => {});
  rmSync(folder, { recursive: true, force: true });
});

const failure = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (e: unknown) => e,
  );

describe("check at start", () => {
  it("a bucket that exists, with good credentials, passes", async () => {
    await expect(openFileStore(s3.config()).check()).resolves.toBeUndefined();
  });
  it("a bucket that does not exist is a setting to fix, named", async () => {
    const error = await failure(openFileStore({ ...s3.config(), bucket: "no-such-bucket" }).check());
    expect(error).toBeInstanceOf(StorageUnavailable);
    expect(error).toMatchObject({ configuration: true });
    expect((error as Error).message).toMatch(/no such bucket "no-such-bucket" \(S3_BUCKET\)/);
  });
  it("refused credentials are a setting to fix (a server answering 403, as S3 does)", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(403);
      res.end();
    });
    const port = await new Promise<number>((r) =>
      server.listen(0, "127.0.0.1", () => r((server.address() as { port: number }).port)),
    );
    const error = await failure(openFileStore({ ...s3.config(), endpoint: `http://127.0.0.1:${port}` }).check());
    server.close();
    expect(error).toMatchObject({ configuration: true });
    expect((error as StorageUnavailable).reason).toMatch(/S3_SECRET_ACCESS_KEY/);
  });
  it("a local folder that cannot be written is unavailable", async () => {
    const root = join(folder, "read-only");
    const store = localStore(join(root, "storage"));
    await store.check();
    chmodSync(join(root, "storage"), 0o500);
    const error = await failure(store.check());
    chmodSync(join(root, "storage"), 0o700);
    // root ignores permissions: the check then passes, which is what the folder allows it.
    if (process.getuid?.() !== 0) expect(error).toBeInstanceOf(StorageUnavailable);
  });
});

describe("the bucket's server stopped", () => {
  it("reads, writes and the check fail as StorageUnavailable, and the API answers 503 with Retry-After", async () => {
    const store = openFileStore(s3.config("outage/"));
    await store.put("a.txt", new TextEncoder().encode("a"));
    await s3.stop();
    // One after another: a call started early would fail unawaited while an earlier one retries.
    for (const work of [
      () => store.stat("a.txt"),
      () => store.readBytes("a.txt"),
      () => store.put("b.txt", new Uint8Array(1)),
      () => store.check(),
    ]) {
      const error = await failure(work());
      expect(error).toBeInstanceOf(StorageUnavailable);
      expect((error as StorageUnavailable).reason).toMatch(/unreachable: ECONNREFUSED/);
      expect(error).toMatchObject({ configuration: false });
    }
    const app = new Hono();
    app.get("/file", async () => {
      await store.stat("a.txt");
      return new Response("never");
    });
    app.onError((err, c) => renderError(c, err));
    const res = await app.request("/file");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ errors: { "": [{ code: "storageUnavailable" }] } });
  }, 60_000);
});

describe("storageFailure", () => {
  it.each([
    [{ code: "ENOSPC" }, "disk full"],
    [{ name: "NoSuchBucket" }, "no such bucket (S3_BUCKET)"],
    [{ name: "ServiceUnavailable", $metadata: { httpStatusCode: 503 } }, "the storage answered 503"],
    [{ name: "TimeoutError" }, "no answer in time"],
  ])("%o → %s", (error, reason) => {
    expect(storageFailure(Object.assign(new Error("x"), error))).toMatchObject({ reason });
  });
  it("a missing key stays what it is", () => {
    const error = Object.assign(new Error("x"), { name: "NoSuchKey", $metadata: { httpStatusCode: 404 } });
    expect(storageFailure(error)).toBe(error);
  });
});
