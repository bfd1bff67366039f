/**
 * Where stored files live (decision 037): SCORM packages' files, chat attachments, certificate PDFs
 * and PNGs. Two backends behind one small interface, chosen by configuration:
 *
 * - `local` (the default, the embedded mode): a folder, `DATA_DIR/storage`. Nodes that share it
 *   share the files.
 * - `s3`: a bucket over the S3 API (`@aws-sdk/client-s3`: AWS S3, MinIO, Ceph, Garage…), so several
 *   nodes need nothing but PostgreSQL and the bucket.
 *
 * Keys are relative paths (`scorm/<id>/index.html`, `chat/<message>/<file>`,
 * `certificates/<id>.pdf`); a key with "..", a leading "/", a backslash or a control character
 * finds nothing. What is served and to whom (ranges, HEAD, the access checks) is the routes' business
 * and the same for both (`send-file.ts`).
 */
import { constants, createReadStream } from "node:fs";
import { access, cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";

export interface FileStore {
  readonly kind: "local" | "s3";
  /** The size of a stored file, or null when there is none under that key. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Bytes `start`..`end` (inclusive) of a stored file, or all of it. */
  read(key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array>>;
  /** A whole stored file, or null. */
  readBytes(key: string): Promise<Uint8Array | null>;
  /** Stores a file whole: a reader never sees half of it. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** A folder of this machine to unpack into before `putFolder` (on the same disk as a local store). */
  stagingDir(prefix: string): string;
  /** Moves a staged folder's files under `prefix/` (the folder is gone afterwards). */
  putFolder(prefix: string, folder: string): Promise<void>;
  /** Removes files; missing ones are no error. */
  delete(keys: string[]): Promise<void>;
  /** Removes every file under `prefix/`. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Resolves when the store can be used (the folder is there and writable; the bucket exists and the
   * credentials are good), else rejects with `StorageUnavailable`: the start, readiness and `storage_up`.
   */
  check(): Promise<void>;
}

/**
 * The storage cannot be used now (decision 053, issue 53 item 3): the bucket's server does not answer,
 * the bucket is missing, the credentials are refused, or the disk is full. The API answers 503 with
 * `storageUnavailable` rather than a 404 or an unknown error; readiness and `storage_up` say so.
 */
export class StorageUnavailable extends Error {
  constructor(
    /** What an operator reads: "unreachable: ECONNREFUSED", "no such bucket", "disk full"… */
    readonly reason: string,
    options?: { cause?: unknown; configuration?: boolean },
  ) {
    super(`storage unavailable: ${reason}`, { cause: options?.cause });
    this.configuration = options?.configuration ?? false;
  }

  /** A setting is wrong (no such bucket, refused credentials): waiting will not cure it. */
  readonly configuration: boolean;
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
]);
const S3_REFUSALS: Record<string, string> = {
  NoSuchBucket: "no such bucket (S3_BUCKET)",
  AccessDenied: "access denied (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)",
  InvalidAccessKeyId: "unknown access key (S3_ACCESS_KEY_ID)",
  SignatureDoesNotMatch: "wrong secret key (S3_SECRET_ACCESS_KEY)",
  Forbidden: "access denied (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)",
};
const DISK_CODES: Record<string, string> = {
  ENOSPC: "disk full",
  EDQUOT: "disk quota exceeded",
  EROFS: "read-only file system",
  EIO: "input/output error",
};

/** A storage failure as `StorageUnavailable` when it is one (the error itself otherwise). */
export function storageFailure(error: unknown): unknown {
  if (error instanceof StorageUnavailable) return error;
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; errors?: unknown[] };
  const code = e?.code ?? (e?.errors?.[0] as { code?: string } | undefined)?.code ?? "";
  if (NETWORK_CODES.has(code)) return new StorageUnavailable(`unreachable: ${code}`, { cause: error });
  if (DISK_CODES[code]) return new StorageUnavailable(DISK_CODES[code], { cause: error });
  if (e?.name && S3_REFUSALS[e.name])
    return new StorageUnavailable(S3_REFUSALS[e.name]!, { cause: error, configuration: true });
  if (e?.name === "TimeoutError" || e?.name === "RequestTimeout")
    return new StorageUnavailable("no answer in time", { cause: error });
  const status = e?.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500)
    return new StorageUnavailable(`the storage answered ${status}`, { cause: error });
  return error;
}

export type StorageConfig =
  | { kind: "local"; root: string }
  | {
      kind: "s3";
      bucket: string;
      /** Prepended to every key ("learner-app/" keeps a shared bucket tidy). */
      prefix: string;
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
      credentials?: { accessKeyId: string; secretAccessKey: string };
    };

/** A stored file's key, or null when it could point outside the store. */
export function safeKey(key: string): string | null {
  if (!key || key.startsWith("/") || key.includes("\\") || /[\x00-\x1f\x7f]/.test(key)) return null;
  const parts = key.split("/");
  if (parts.some((p) => p === "" || p === "." || p === "..")) return null;
  return key;
}

/**
 * The storage the environment asks for: STORAGE_BACKEND=local (DATA_DIR/storage) or s3 (S3_BUCKET,
 * S3_PREFIX, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY).
 * A bad value stops the server.
 */
export function storageConfigFrom(env: Record<string, string | undefined>, localRoot: string): StorageConfig {
  const backend = env.STORAGE_BACKEND || "local";
  if (backend === "local") return { kind: "local", root: resolve(localRoot) };
  if (backend !== "s3") throw new Error(`STORAGE_BACKEND must be "local" or "s3", got "${backend}"`);
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new Error("STORAGE_BACKEND=s3 needs S3_BUCKET");
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new Error("S3_ENDPOINT must be an http(s) URL");
  const prefix = (env.S3_PREFIX ?? "").replace(/^\/+/, "");
  if (prefix && (!safeKey(prefix.replace(/\/$/, "")) || !prefix.endsWith("/")))
    throw new Error('S3_PREFIX must be a plain path ending in "/" (e.g. "learner-app/")');
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle !== undefined && pathStyle !== "" && pathStyle !== "0" && pathStyle !== "1")
    throw new Error("S3_FORCE_PATH_STYLE must be 0 or 1");
  const keyId = env.S3_ACCESS_KEY_ID;
  const secret = env.S3_SECRET_ACCESS_KEY;
  if (Boolean(keyId) !== Boolean(secret))
    throw new Error("set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither");
  return {
    kind: "s3",
    bucket,
    prefix,
    endpoint,
    region: env.S3_REGION || "us-east-1",
    // MinIO, Ceph and Garage are usually reached by path (http://host:9000/bucket/key).
    forcePathStyle: pathStyle ? pathStyle === "1" : Boolean(endpoint),
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
  };
}

export function openFileStore(config: StorageConfig): FileStore {
  return config.kind === "local" ? localStore(config.root) : s3Store(config);
}

/** Files in a folder of this machine. */
export function localStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const safe = safeKey(key);
    const full = safe ? resolve(base, safe) : null;
    return full && full.startsWith(base + sep) ? full : null;
  };
  const statOf = async (key: string) => {
    const full = pathOf(key);
    if (!full) return null;
    try {
      const s = await stat(full);
      return s.isFile() ? { full, size: s.size } : null;
    } catch {
      return null;
    }
  };
  return {
    kind: "local",
    async stat(key) {
      const s = await statOf(key);
      return s ? { size: s.size } : null;
    },
    async read(key, range) {
      const full = pathOf(key);
      if (!full) throw new Error(`no stored file ${key}`);
      return Readable.toWeb(createReadStream(full, range ?? {})) as ReadableStream<Uint8Array>;
    },
    async readBytes(key) {
      const s = await statOf(key);
      return s ? new Uint8Array(await readFile(s.full)) : null;
    },
    async put(key, bytes) {
      const full = pathOf(key);
      if (!full) throw new Error(`unsafe key ${key}`);
      await mkdir(dirname(full), { recursive: true });
      const tmp = `${full}.${process.pid}.${randomUUID()}.tmp`;
      try {
        await writeFile(tmp, bytes);
        await rename(tmp, full);
      } catch (err) {
        await rm(tmp, { force: true });
        throw storageFailure(err);
      }
    },
    async check() {
      try {
        await mkdir(base, { recursive: true });
        await access(base, constants.W_OK);
      } catch (err) {
        const failure = storageFailure(err);
        throw failure instanceof StorageUnavailable
          ? failure
          : new StorageUnavailable(`${base}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
              cause: err,
            });
      }
    },
    stagingDir(prefix) {
      return join(base, `${prefix}.${randomUUID()}.tmp`);
    },
    async putFolder(prefix, folder) {
      const full = pathOf(prefix);
      if (!full) throw new Error(`unsafe key ${prefix}`);
      await mkdir(dirname(full), { recursive: true });
      try {
        await rename(folder, full);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
        await cp(folder, full, { recursive: true });
        await rm(folder, { recursive: true, force: true });
      }
    },
    async delete(keys) {
      await Promise.all(keys.map((k) => pathOf(k)).map((p) => (p ? rm(p, { force: true }) : null)));
    },
    async deletePrefix(prefix) {
      const full = pathOf(prefix);
      if (full) await rm(full, { recursive: true, force: true });
    },
  };
}

/** Every file under a folder, as paths relative to it with "/" between the parts. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(folder, join(e.parentPath, e.name)).split(sep).join("/"));
}

/** Runs `work` on every item, `width` at a time. */
async function eachLimited<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NotFound" || e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404;
};

/** Files in a bucket over the S3 API. */
function s3Store(config: Extract<StorageConfig, { kind: "s3" }>): FileStore {
  // The SDK (≈5 MB of heap, 0.2 s to import) is loaded by the first file operation, never by a node
  // that keeps its files in a folder (decision 038).
  let loading: Promise<{ client: S3Client; sdk: typeof import("@aws-sdk/client-s3") }> | null = null;
  const s3 = () =>
    (loading ??= import("@aws-sdk/client-s3")
      .then((sdk) => ({
        sdk,
        client: new sdk.S3Client({
          region: config.region,
          endpoint: config.endpoint,
          forcePathStyle: config.forcePathStyle,
          credentials: config.credentials,
          // Checksums only where S3 requires them: S3-compatible servers do not all know the newer ones.
          requestChecksumCalculation: "WHEN_REQUIRED",
          responseChecksumValidation: "WHEN_REQUIRED",
        }),
      }))
      .then(({ sdk, client }) => {
        // Every command's failure as `StorageUnavailable` when it is one (the outermost step sees them all).
        client.middlewareStack.add(
          (next) => async (args) => {
            try {
              return await next(args);
            } catch (error) {
              throw storageFailure(error);
            }
          },
          { step: "initialize", name: "storageFailure" },
        );
        return { sdk, client };
      }));
  const Bucket = config.bucket;
  const keyOf = (key: string) => {
    const safe = safeKey(key);
    if (!safe) throw new Error(`unsafe key ${key}`);
    return `${config.prefix}${safe}`;
  };
  const deleteKeys = async (keys: string[]) => {
    const { client, sdk } = await s3();
    for (let i = 0; i < keys.length; i += 1000) {
      const Objects = keys.slice(i, i + 1000).map((Key) => ({ Key }));
      const out = await client.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
      if (out.Errors?.length) throw new Error(`S3 delete failed: ${out.Errors[0]!.Code} ${out.Errors[0]!.Message}`);
    }
  };
  return {
    kind: "s3",
    async stat(key) {
      if (!safeKey(key)) return null;
      const { client, sdk } = await s3();
      try {
        const head = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return { size: Number(head.ContentLength ?? 0) };
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async read(key, range) {
      const { client, sdk } = await s3();
      const out = await client.send(
        new sdk.GetObjectCommand({
          Bucket,
          Key: keyOf(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!out.Body) throw new Error(`no body for ${key}`);
      return out.Body.transformToWebStream() as ReadableStream<Uint8Array>;
    },
    async readBytes(key) {
      if (!safeKey(key)) return null;
      const { client, sdk } = await s3();
      try {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: keyOf(key) }));
        return out.Body ? await out.Body.transformToByteArray() : null;
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async put(key, bytes) {
      const { client, sdk } = await s3();
      // A PUT is atomic in S3: the object appears whole or not at all.
      await client.send(
        new sdk.PutObjectCommand({ Bucket, Key: keyOf(key), Body: bytes, ContentLength: bytes.byteLength }),
      );
    },
    stagingDir(prefix) {
      return join(tmpdir(), `learner-app-staging-${randomUUID()}`, prefix.replace(/\//g, "_"));
    },
    async putFolder(prefix, folder) {
      const { client, sdk } = await s3();
      const files = await filesUnder(folder);
      const uploaded: string[] = [];
      try {
        await eachLimited(files, 8, async (file) => {
          const full = join(folder, file);
          const { size } = await stat(full);
          const Key = keyOf(`${prefix}/${file}`);
          await client.send(
            new sdk.PutObjectCommand({ Bucket, Key, Body: createReadStream(full), ContentLength: size }),
          );
          uploaded.push(Key);
        });
      } catch (err) {
        await deleteKeys(uploaded).catch(() => {});
        throw err;
      } finally {
        await rm(dirname(folder), { recursive: true, force: true });
      }
    },
    async delete(keys) {
      await deleteKeys(keys.map(keyOf));
    },
    async check() {
      const { client, sdk } = await s3();
      try {
        await client.send(new sdk.HeadBucketCommand({ Bucket }));
      } catch (err) {
        if (err instanceof StorageUnavailable) throw err;
        // HEAD has no body: a missing bucket is a bare 404, refused credentials a bare 403.
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 404)
          throw new StorageUnavailable(`no such bucket "${Bucket}" (S3_BUCKET)`, { cause: err, configuration: true });
        if (status === 403 || status === 401)
          throw new StorageUnavailable("access denied (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)", {
            cause: err,
            configuration: true,
          });
        throw new StorageUnavailable((err as Error).message, { cause: err });
      }
    },
    async deletePrefix(prefix) {
      const { client, sdk } = await s3();
      const Prefix = `${keyOf(prefix)}/`;
      let token: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, Prefix, ContinuationToken: token }));
        await deleteKeys((page.Contents ?? []).map((o) => o.Key!).filter(Boolean));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}

/** The first store holding `key`, with its size. */
export async function firstHolding(
  stores: FileStore[],
  key: string,
): Promise<{ store: FileStore; size: number } | null> {
  for (const store of stores) {
    const found = await store.stat(key);
    if (found) return { store, size: found.size };
  }
  return null;
}
