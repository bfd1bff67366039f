import { createCookie } from "react-router";
import { z } from "zod";
import type { AppConfig } from "./config.server";
import { memoByConfig } from "./memo.server";

/** A message shown once after a redirect (post/redirect/get); `key` is a translation key. */
const toastSchema = z.object({
  type: z.enum(["success", "info", "critical"]),
  key: z.string().max(200),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** Already-translated text (e.g. an API message); shown instead of `key` when present. */
  text: z.string().max(2000).optional(),
});
export type Toast = z.infer<typeof toastSchema>;

const toastCookie = memoByConfig((config) =>
  createCookie("learn_toast", { path: "/", httpOnly: true, sameSite: "lax", secure: config.secureCookies, maxAge: 60 }),
);

export async function setToast(toast: Toast | Toast[], config: AppConfig): Promise<string> {
  return toastCookie(config).serialize((Array.isArray(toast) ? toast : [toast]).slice(0, 3));
}

/** Reads and clears the pending toasts. */
export async function popToast(
  request: Request,
  config: AppConfig,
): Promise<{ toasts: Toast[]; setCookie: string | null }> {
  const raw = await toastCookie(config).parse(request.headers.get("Cookie"));
  if (raw == null) return { toasts: [], setCookie: null };
  const parsed = z
    .array(toastSchema)
    .max(3)
    .safeParse(Array.isArray(raw) ? raw : [raw]);
  return {
    toasts: parsed.success ? parsed.data : [],
    setCookie: await toastCookie(config).serialize("", { maxAge: 0 }),
  };
}

export async function redirectWithToast(
  url: string,
  toast: Toast | Toast[],
  config: AppConfig,
  init: ResponseInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await setToast(toast, config));
  // eslint-disable-next-line local/redirect-targets -- redirectWithToast's target: every caller's is checked by this rule
  headers.set("Location", url);
  return new Response(null, { status: 303, ...init, headers });
}
