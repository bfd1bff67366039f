import { createCookie } from "react-router";
import { z } from "zod";
import { secureCookies } from "./env.server";

/** A message shown once after a redirect (post/redirect/get); `key` is a translation key. */
export const toastSchema = z.object({
  type: z.enum(["success", "info", "critical"]),
  key: z.string().max(200),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  /** Already-translated text (e.g. an API message); shown instead of `key` when present. */
  text: z.string().max(2000).optional(),
});
export type Toast = z.infer<typeof toastSchema>;

const toastCookie = () =>
  createCookie("learn_toast", { path: "/", httpOnly: true, sameSite: "lax", secure: secureCookies(), maxAge: 60 });

export async function setToast(toast: Toast | Toast[]): Promise<string> {
  return toastCookie().serialize((Array.isArray(toast) ? toast : [toast]).slice(0, 3));
}

/** Reads and clears the pending toasts. */
export async function popToast(request: Request): Promise<{ toasts: Toast[]; setCookie: string | null }> {
  const raw = await toastCookie().parse(request.headers.get("Cookie"));
  if (raw == null) return { toasts: [], setCookie: null };
  const parsed = z
    .array(toastSchema)
    .max(3)
    .safeParse(Array.isArray(raw) ? raw : [raw]);
  return { toasts: parsed.success ? parsed.data : [], setCookie: await toastCookie().serialize("", { maxAge: 0 }) };
}

export async function redirectWithToast(
  url: string,
  toast: Toast | Toast[],
  init: ResponseInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await setToast(toast));
  headers.set("Location", url);
  return new Response(null, { status: 303, ...init, headers });
}
