import { z } from "zod";

const schema = z.object({
  APP_ENV: z.enum(["dev", "test", "prod"]).default("dev"),
  APP_URL: z.string().url().default("http://localhost:3000"),
  SESSION_SECRET: z.string().min(16, "SESSION_SECRET must be at least 16 characters"),
  OIDC_ISSUER: z.string().url(),
  OIDC_CLIENT_ID: z.string().min(1),
  OIDC_CLIENT_SECRET: z.string().min(1),
  OIDC_SCOPES: z.string().default("openid profile email lms"),
  OIDC_EMBEDDED: z.string().optional(),
  LMS_API_URL: z.string().url().optional(),
  PLATFORM_URL: z.string().default("/platform"),
  ADMIN_URL: z.string().default("/admin"),
  SIGN_UP_URL: z.string().optional(),
});

export type Env = z.infer<typeof schema>;
let cached: Env | null = null;

/** Parsed once; a bad configuration stops the server with a message naming the variable. */
export function env(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  cached = parsed.data;
  return cached;
}

export const isProduction = () => env().APP_ENV === "prod";
export const secureCookies = () => env().APP_URL.startsWith("https:");
