/**
 * The file stores (decision 037): a folder and a bucket over the S3 API (s3rver, started here) behave
 * the same — whole writes, sizes, ranges, deletes, folders moved in — and no key reaches outside.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { localStore, openFileStore, safeKey, storageConfigFrom, type FileStore } from "./object-store";
import { startTestS3, type TestS3 } from "../../tests/fixtures/s3";

let s3: TestS3;
let folder: string;
const stores: Record<string, () => FileStore> = {};

beforeAll(async () => {
  s3 = await startTestS3();
  folder = mkdtempSync(join(tmpdir(), "store-test-"));
  stores.local = () => localStore(join(folder, "storage"));
  stores.s3 = () => openFileStore(s3.config("tenant-a/"));
});
afterAll(async () => {
  await s3?.stop();
  rmSync(folder, { recursive: true, force: true });
});

const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe.each(["local", "s3"])("the %s store", (kind) => {
  it("stores a file whole, tells its size, reads it whole and by range", async () => {
    const store = stores[kind]();
    expect(store.kind).toBe(kind);
    await store.put("chat/m1/a1", new TextEncoder().encode("hello, stored world"));
    expect(await store.stat("chat/m1/a1")).toEqual({ size: 19 });
    expect(await text(await store.read("chat/m1/a1"))).toBe("hello, stored world");
    expect(await text(await store.read("chat/m1/a1", { start: 7, end: 12 }))).toBe("stored");
    expect(new TextDecoder().decode((await store.readBytes("chat/m1/a1"))!)).toBe("hello, stored world");
    // Written again (a second node drew the same certificate): the last write is what is read.
    await store.put("chat/m1/a1", new TextEncoder().encode("again"));
    expect(await store.stat("chat/m1/a1")).toEqual({ size: 5 });
  });

  it("a missing file is null, and so is any key that could leave the store", async () => {
    const store = stores[kind]();
    expect(await store.stat("chat/none")).toBeNull();
    expect(await store.readBytes("chat/none")).toBeNull();
    for (const bad of ["../secrets.json", "chat/../../x", "/etc/passwd", "a\\b", "a//b", "a/./b", "a\u0000b", ""])
      expect(await store.stat(bad), bad).toBeNull();
    await expect(store.put("../escape", new Uint8Array([1]))).rejects.toThrow();
  });

  it("moves a staged folder in under a prefix, and removes a prefix", async () => {
    const store = stores[kind]();
    const staged = store.stagingDir("scorm/p1");
    mkdirSync(join(staged, "res/img"), { recursive: true });
    writeFileSync(join(staged, "index.html"), "<p>SCO</p>");
    writeFileSync(join(staged, "res/img/dot.png"), new Uint8Array([1, 2, 3]));
    await store.putFolder("scorm/p1", staged);
    expect(existsSync(staged)).toBe(false);
    expect(await store.stat("scorm/p1/index.html")).toEqual({ size: 10 });
    expect(await store.stat("scorm/p1/res/img/dot.png")).toEqual({ size: 3 });
    await store.put("scorm/p10/index.html", new Uint8Array([1]));
    await store.deletePrefix("scorm/p1");
    expect(await store.stat("scorm/p1/index.html")).toBeNull();
    expect(await store.stat("scorm/p1/res/img/dot.png")).toBeNull();
    // A neighbour whose name starts the same is not under that prefix.
    expect(await store.stat("scorm/p10/index.html")).toEqual({ size: 1 });
    await store.delete(["scorm/p10/index.html", "scorm/never-written"]);
    expect(await store.stat("scorm/p10/index.html")).toBeNull();
  });
});

it("a bucket's keys carry the configured prefix", async () => {
  await stores.s3().put("certificates/c1.pdf", new Uint8Array([37, 80, 68, 70]));
  expect(await s3.keys("tenant-a/certificates/")).toEqual(["tenant-a/certificates/c1.pdf"]);
});

describe("choosing the store by configuration", () => {
  it("the folder by default; a bucket with STORAGE_BACKEND=s3 and S3_*", () => {
    expect(storageConfigFrom({}, "/data/storage")).toEqual({ kind: "local", root: "/data/storage" });
    expect(
      storageConfigFrom(
        { STORAGE_BACKEND: "s3", S3_BUCKET: "b", S3_ENDPOINT: "http://minio:9000", S3_PREFIX: "lms/" },
        "/x",
      ),
    ).toEqual({
      kind: "s3",
      bucket: "b",
      prefix: "lms/",
      endpoint: "http://minio:9000",
      region: "us-east-1",
      forcePathStyle: true,
      credentials: undefined,
    });
    // AWS itself: no endpoint, virtual-host addressing, the SDK's own credentials.
    expect(storageConfigFrom({ STORAGE_BACKEND: "s3", S3_BUCKET: "b", S3_REGION: "eu-west-1" }, "/x")).toMatchObject({
      region: "eu-west-1",
      forcePathStyle: false,
      endpoint: undefined,
    });
  });

  it("a bad value stops the server with what to fix", () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ STORAGE_BACKEND: "ftp" }, /STORAGE_BACKEND/],
      [{ STORAGE_BACKEND: "s3" }, /S3_BUCKET/],
      [{ STORAGE_BACKEND: "s3", S3_BUCKET: "b", S3_ENDPOINT: "minio:9000" }, /S3_ENDPOINT/],
      [{ STORAGE_BACKEND: "s3", S3_BUCKET: "b", S3_PREFIX: "../x/" }, /S3_PREFIX/],
      [{ STORAGE_BACKEND: "s3", S3_BUCKET: "b", S3_PREFIX: "lms" }, /S3_PREFIX/],
      [{ STORAGE_BACKEND: "s3", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "k" }, /S3_SECRET_ACCESS_KEY/],
      [{ STORAGE_BACKEND: "s3", S3_BUCKET: "b", S3_FORCE_PATH_STYLE: "yes" }, /S3_FORCE_PATH_STYLE/],
    ];
    for (const [env, message] of bad) expect(() => storageConfigFrom(env, "/x"), JSON.stringify(env)).toThrow(message);
  });

  it("safeKey keeps plain relative keys only", () => {
    expect(safeKey("scorm/1/shared/launch page.html")).toBe("scorm/1/shared/launch page.html");
    expect(safeKey("..")).toBeNull();
    expect(safeKey("a/")).toBeNull();
  });
});
