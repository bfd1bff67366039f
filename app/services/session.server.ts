import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import type { AppConfig } from "./config.server";
import { memoByConfig } from "./memo.server";

/** What the session keeps: tokens for the LMS API, never the user profile (that is fetched). */
export interface SessionData {
  sub: string;
  accessToken: string;
  idToken: string | null;
  expiresAt: number;
  impersonatedBy?: string | null;
}

const MAX_COOKIE_BYTES = 4000;

const key = memoByConfig((config) => createHash("sha256").update(`session:${config.sessionSecret}`).digest());

const sessionCookie = memoByConfig((config) =>
  createCookie("learn_session", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    maxAge: 14 * 24 * 3600,
    secrets: [config.sessionSecret],
  }),
);

function encrypt(data: SessionData, config: AppConfig): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(config), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(data), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

function decrypt(value: string, config: AppConfig): SessionData | null {
  try {
    const raw = Buffer.from(value, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key(config), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    return JSON.parse(text) as SessionData;
  } catch {
    return null;
  }
}

/** The signed-in session, or null (absent, tampered with, or expired). */
export async function readSession(request: Request, config: AppConfig): Promise<SessionData | null> {
  const value = await sessionCookie(config).parse(request.headers.get("Cookie"));
  if (typeof value !== "string") return null;
  const data = decrypt(value, config);
  if (!data || data.expiresAt <= Date.now()) return null;
  return data;
}

/** Encrypted (AES-256-GCM) and signed; refuses to write a cookie browsers would drop. */
export async function commitSession(data: SessionData, config: AppConfig): Promise<string> {
  const header = await sessionCookie(config).serialize(encrypt(data, config));
  if (header.length > MAX_COOKIE_BYTES) throw new Error(`Session cookie too large (${header.length} bytes)`);
  return header;
}

export async function destroySession(config: AppConfig): Promise<string> {
  return sessionCookie(config).serialize("", { maxAge: 0 });
}
