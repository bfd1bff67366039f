/**
 * Keys derived from the session secret: every node of a cluster already shares that one, so each
 * derives the same keys and finds again what another node signed.
 */
import { hkdfSync } from "node:crypto";
import { contentKeyFromSessionSecret } from "../api/scorm/content-token";

export interface DerivedKeys {
  /** The grants under which the content origin reads a package's files (decision 040). */
  contentKey: string;
  /** The personal calendar feed links (decision 022). */
  calendarFeedKey: string;
  /** The e-mails' unsubscribe links (decision 042). */
  mailLinkKey: string;
}

const derive = (secret: string, info: string) =>
  Buffer.from(hkdfSync("sha256", secret, "", info, 32)).toString("base64url");

export function deriveKeys(sessionSecret: string): DerivedKeys {
  return {
    contentKey: contentKeyFromSessionSecret(sessionSecret),
    calendarFeedKey: derive(sessionSecret, "learner-app calendar feed"),
    mailLinkKey: derive(sessionSecret, "learner-app mail links"),
  };
}
