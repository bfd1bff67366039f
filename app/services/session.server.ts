import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { createCookie } from "react-router";
import { env, secureCookies } from "./env.server";

/** What the session keeps: tokens for the LMS API, never the user profile (that is fetched). */
export interface SessionData {
  sub: string;
  accessToken: string;
  idToken: string | null;
  expiresAt: number;
  impersonatedBy?: string | null;
}

const MAX_COOKIE_BYTES = 4000;

function key(): Buffer {
  return createHash("sha256").update(`session:${env().SESSION_SECRET}`).digest();
}

const sessionCookie = () =>
  createCookie("learn_session", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(),
    maxAge: 14 * 24 * 3600,
    secrets: [env().SESSION_SECRET],
  });

function encrypt(data: SessionData): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(data), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

function decrypt(value: string): SessionData | null {
  try {
    const raw = Buffer.from(value, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    return JSON.parse(text) as SessionData;
  } catch {
    return null;
  }
}

/** The signed-in session, or null (absent, tampered with, or expired). */
export async function readSession(request: Request): Promise<SessionData | null> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  if (typeof value !== "string") return null;
  const data = decrypt(value);
  if (!data || data.expiresAt <= Date.now()) return null;
  return data;
}

/** Encrypted (AES-256-GCM) and signed; refuses to write a cookie browsers would drop. */
export async function commitSession(data: SessionData): Promise<string> {
  const header = await sessionCookie().serialize(encrypt(data));
  if (header.length > MAX_COOKIE_BYTES) throw new Error(`Session cookie too large (${header.length} bytes)`);
  return header;
}

export async function destroySession(): Promise<string> {
  return sessionCookie().serialize("", { maxAge: 0 });
}
