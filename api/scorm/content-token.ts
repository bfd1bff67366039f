/**
 * The grant to read one package's files on the content origin (issue 29 item 1, decision 040). The
 * content origin carries no session: the runtime answer hands the player this token, the player puts
 * it in the package's URL (/scorm/{token}/{path}), and every file of the package is fetched under it,
 * relative URLs included. It names the package, the activity and the learner, expires, and is signed
 * with HMAC-SHA256 under a key derived from the server's session secret (the same on every node).
 * It grants reading that package's files — nothing of the learner, and no write.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/** How long a launch may go on fetching the package's files (a page reload issues a new token). */
export const CONTENT_TOKEN_SECONDS = 8 * 60 * 60;

export interface ContentGrant {
  packageId: string;
  activityId: string;
  userId: string;
  /** Seconds since the epoch. */
  expires: number;
}

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ""), "hex");
const uuidText = (b: Buffer) => {
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const mac = (key: Buffer, body: Buffer) =>
  createHmac("sha256", key).update("scorm-content-v1:").update(body).digest().subarray(0, 20);

/** 16 + 16 + 16 bytes of ids, 4 of expiry, 20 of MAC: 96 characters of base64url. */
export function signContentGrant(key: Buffer, grant: ContentGrant): string {
  const body = Buffer.alloc(52);
  uuidBytes(grant.packageId).copy(body, 0);
  uuidBytes(grant.activityId).copy(body, 16);
  uuidBytes(grant.userId).copy(body, 32);
  body.writeUInt32BE(grant.expires >>> 0, 48);
  return Buffer.concat([body, mac(key, body)]).toString("base64url");
}

/** The grant a token carries, or null when it is garbled, forged or expired. */
export function verifyContentGrant(key: Buffer, token: string, now: Date): ContentGrant | null {
  if (!/^[A-Za-z0-9_-]{96}$/.test(token)) return null;
  const raw = Buffer.from(token, "base64url");
  if (raw.length !== 72) return null;
  const body = raw.subarray(0, 52);
  if (!timingSafeEqual(mac(key, body), raw.subarray(52))) return null;
  const expires = body.readUInt32BE(48);
  if (expires * 1000 <= now.getTime()) return null;
  return {
    packageId: uuidText(body.subarray(0, 16)),
    activityId: uuidText(body.subarray(16, 32)),
    userId: uuidText(body.subarray(32, 48)),
    expires,
  };
}

/** The grants' key (base64url) of a deployment, derived from its session secret: every node the same. */
export function contentKeyFromSessionSecret(sessionSecret: string): string {
  return Buffer.from(hkdfSync("sha256", sessionSecret, "", "learner-app content grants", 32)).toString("base64url");
}

/** A key of this process's own, for an API started without CONTENT key (tests, a single process). */
const processKey = randomBytes(32);

/** The grants' key: the configured one (every node the same), or this process's. */
export function contentKeyOf(deps: { contentKey?: string }): Buffer {
  return deps.contentKey ? Buffer.from(deps.contentKey, "base64url") : processKey;
}
