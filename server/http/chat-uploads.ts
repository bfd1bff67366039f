import { DEFAULT_ATTACHMENT_RULES, parseAttachmentKinds, type AttachmentRules } from "#domain/chat-attachments";

/**
 * What files a chat message may carry (issue 16 item 3, decision 027), from the environment:
 * CHAT_ATTACHMENT_MAX_BYTES (10 MB), CHAT_ATTACHMENT_MAX_COUNT (3), CHAT_ATTACHMENT_TYPES (a comma list
 * of kinds or extensions: pdf,png,jpeg,gif,webp,txt,docx,xlsx,pptx,zip). A bad value throws at start.
 */
export function chatAttachmentRules(env: Record<string, string | undefined>): AttachmentRules {
  const whole = (name: string, fallback: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === "") return fallback;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < 1 || n > max)
      throw new Error(`${name} must be a whole number 1–${max}, got "${raw}"`);
    return n;
  };
  let kinds;
  try {
    kinds = parseAttachmentKinds(env.CHAT_ATTACHMENT_TYPES) ?? DEFAULT_ATTACHMENT_RULES.kinds;
  } catch (err) {
    throw new Error(`CHAT_ATTACHMENT_TYPES: ${(err as Error).message}`);
  }
  return {
    // The size column is an integer (2 GiB): far beyond what a chat should take.
    maxBytes: whole("CHAT_ATTACHMENT_MAX_BYTES", DEFAULT_ATTACHMENT_RULES.maxBytes, 1024 * 1024 * 1024),
    maxCount: whole("CHAT_ATTACHMENT_MAX_COUNT", DEFAULT_ATTACHMENT_RULES.maxCount, 10),
    kinds,
  };
}

const CHAT_POST_PATHS = [
  /^\/learn\/courses\/[^/]+\/view\/notifications(\.data)?\/?$/,
  /^\/api\/lms\/v1\/create-chat-messages$/,
  // Decision 048: a hand-in's files (its page, or the page's upload with progress) and a grader's feedback
  // file take the same rules.
  /^\/learn\/courses\/[^/]+\/hand-in\/[^/]+(\.data|\/upload)?\/?$/,
  /^\/learn\/grading\/[^/]+(\.data)?\/?$/,
  /^\/api\/lms\/v1\/(save|grade)-hand-ins$/,
  // Decision 068: a QTI test's page with an upload, and the API's save of its answers.
  /^\/learn\/courses\/[^/]+\/assessment\/[^/]+\/[^/]+(\.data)?\/?$/,
  /^\/api\/assessment\/v1\/users\/me\/objective-workflows\/[^/]+\/activity-workflows\/[^/]+\/assessment\/answers$/,
];

/**
 * The paths files are posted to with the attachment rules: a chat message (the Notifications layer's
 * form, the API's command), and a hand-in or a grader's feedback (their pages, their commands).
 */
export const isChatPostPath = (path: string) => CHAT_POST_PATHS.some((re) => re.test(path));
