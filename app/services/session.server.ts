import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { log, noteRequestUser } from "~/services/logger.server";
import { createCookie } from "react-router";
import type { AppConfig, SessionStore } from "./config.server";
import { memoByConfig } from "./memo.server";

/** What a signed-in session holds: tokens for the LMS API, never the user profile (that is fetched). */
export interface SessionData {
  sub: string;
  accessToken: string;
  idToken: string | null;
  expiresAt: number;
  impersonatedBy?: string | null;
}

/**
 * Sessions are rows on the server (decision 017): the cookie carries only a random 256-bit id,
 * signed; the row — found by the id's SHA-256 — holds the tokens sealed with AES-256-GCM under a key
 * derived from SESSION_SECRET. Sign-out, an operator's revoke or a password change mark the row
 * revoked, and the next request with that cookie is a visitor's.
 */
const ID_BYTES = 32;
/** "Last seen" is written at most once a minute per session. */
const TOUCH_EVERY_MS = 60_000;

const key = memoByConfig((config) => createHash("sha256").update(`session:${config.sessionSecret}`).digest());

const sessionCookie = memoByConfig((config) =>
  createCookie("learn_session", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    secrets: [config.sessionSecret],
  }),
);

export function seal(value: unknown, config: AppConfig): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(config), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function unseal<T>(value: string, config: AppConfig): T | null {
  try {
    const raw = Buffer.from(value, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key(config), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

const hashId = (id: string) => createHash("sha256").update(id).digest("hex");

/**
 * Cookie values whose signature was checked, per configuration: the same browser sends the same
 * signed value with every request, and React Router checks it with two WebCrypto jobs on the thread
 * pool each time (an import of the key, the HMAC) — a visible share of a page's time (decision 038).
 * A value is the same bytes under the same secret, so its answer cannot change. Bounded: past
 * `CHECKED_MAX` values it starts over.
 */
const CHECKED_MAX = 10_000;
const checked = memoByConfig(() => new Map<string, string | null>());
const SESSION_VALUE = /(?:^|;\s*)learn_session=([^;]*)/;

/** The session id the cookie carries, or null (absent, unsigned or malformed). */
async function cookieId(request: Request, config: AppConfig): Promise<string | null> {
  const header = request.headers.get("Cookie");
  const raw = header ? SESSION_VALUE.exec(header)?.[1] : undefined;
  if (raw === undefined) return null;
  const known = checked(config);
  const remembered = known.get(raw);
  if (remembered !== undefined) return remembered;
  let id: string | null;
  try {
    const value: unknown = await sessionCookie(config).parse(`learn_session=${raw}`);
    id = typeof value === "string" && /^[\w-]{43}$/.test(value) ? value : null;
  } catch {
    id = null;
  }
  if (known.size >= CHECKED_MAX) known.clear();
  known.set(raw, id);
  return id;
}

type Sealed = Omit<SessionData, "sub">;

/** The signed-in session, or null (no cookie, unknown id, revoked, expired). One read of the store. */
export async function readSession(
  request: Request,
  config: AppConfig,
  store: SessionStore,
): Promise<SessionData | null> {
  const id = await cookieId(request, config);
  if (!id) return null;
  const idHash = hashId(id);
  const row = await store.find(idHash);
  if (!row) return null;
  const sealed = unseal<Sealed>(row.tokens, config);
  if (!sealed || sealed.expiresAt <= Date.now()) return null;
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    store.touch(idHash).catch((err: unknown) => log().warn({ err }, "session: last-seen not written"));
  }
  noteRequestUser(row.subject);
  return { sub: row.subject, ...sealed };
}

/** Stores a new session and answers the cookie that names it. */
export async function createSession(
  data: SessionData & { email?: string | null },
  config: AppConfig,
  store: SessionStore,
): Promise<string> {
  const id = randomBytes(ID_BYTES).toString("base64url");
  const expiresAt = new Date(data.expiresAt);
  const sealed: Sealed = {
    accessToken: data.accessToken,
    idToken: data.idToken,
    expiresAt: data.expiresAt,
    impersonatedBy: data.impersonatedBy ?? null,
  };
  await store.create(hashId(id), {
    subject: data.sub,
    email: data.email ?? null,
    impersonatedBy: data.impersonatedBy ?? null,
    tokens: seal(sealed, config),
    expiresAt,
  });
  return sessionCookie(config).serialize(id, { expires: expiresAt });
}

/** Revokes the request's session (if any) and answers the cookie that clears it. */
export async function endSession(request: Request, config: AppConfig, store: SessionStore): Promise<string> {
  const id = await cookieId(request, config);
  if (id) await store.revoke(hashId(id));
  return sessionCookie(config).serialize("", { maxAge: 0 });
}
