/**
 * Reading the demo's data files (demo/data/, its README.md): where they are, and how a mistake in
 * one fails — loudly, naming the file (relative to the repository) and the field.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";

/** Where the data files live. */
export const DEMO_DIR = fileURLToPath(new URL("../data/", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const PUBLIC_DIR = join(REPO, "public");
export const STORAGE_DIR = join(REPO, "storage");

/**
 * A data file (or request) that cannot be used: the message names the file (relative to the
 * repository; other labels, such as "request body", as they are) and the field.
 */
export class DemoContentError extends Error {
  readonly field: string;
  constructor(file: string, field: string, message: string) {
    super(`${shortPath(file)}: ${field ? `${field}: ` : ""}${message}`);
    this.name = "DemoContentError";
    this.field = field;
  }
}

/** A path inside the repository relative to it (demo/data/…); others (a copy elsewhere, a label) as they are. */
export function shortPath(file: string): string {
  if (!isAbsolute(file)) return file;
  const inRepo = relative(REPO, file);
  return inRepo.startsWith("..") ? file : inRepo;
}

const fieldOf = (path: readonly PropertyKey[]) =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("");

/** Parses `value` with `schema`; the first problem becomes a DemoContentError naming `file` and the field. */
function parseWith<S extends z.ZodType>(schema: S, value: unknown, file: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${fieldOf(i.path) || "(top level)"}: ${i.message}`);
  throw new DemoContentError(file, "", issues.join("; "));
}

export function readJson<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  if (!existsSync(file)) throw new DemoContentError(file, "", "file not found");
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new DemoContentError(file, "", `not valid JSON (${(error as Error).message})`);
  }
  return parseWith(schema, value, file);
}

/**
 * An HTML file of the demo content. Line breaks between two tags (with the indentation around them)
 * are dropped, so each block can sit on its own line in the file; text, and code in <pre>, is kept.
 */
export function readHtml(file: string, referencedFrom: string, field: string): string {
  if (!existsSync(file)) throw new DemoContentError(referencedFrom, field, `${shortPath(file)} not found`);
  return readFileSync(file, "utf8")
    .replace(/>\s*\n\s*</g, "><")
    .trim();
}

export function listDir(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => !name.startsWith(".")) : [];
}

/** A URL under /learn/ of a file in public/ (the app serves public/ under /learn/). */
export const publicPath = (url: string) => join(PUBLIC_DIR, url.replace(/^\/learn\//, ""));
