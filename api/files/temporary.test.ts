import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isTemporaryName, sweepTemporaryFiles, writeFileAtomicSync } from "./temporary";

/**
 * Issue 29 item 4: partial files of a killed upload (`storage/chat/…/<id>.<pid>.tmp`, 0.5 and 1.5 MB)
 * stayed forever. Every kind of stored file is written under a temporary name, and the start and the
 * periodic clean-up remove what a killed writer left — and nothing else: whole files, a SCORM package's
 * own files, another running process's upload.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), "temporary-files-"));
  dirs.push(d);
  return d;
};
const put = (path: string, bytes = 16) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, Buffer.alloc(bytes));
  return path;
};
const uuid = () => crypto.randomUUID();

describe("temporary files left by killed writers (issue 29 item 4)", () => {
  it("knows this project's temporary names and no others", () => {
    for (const name of [`${uuid()}.4242.tmp`, "x.pdf.99.1700000000000.tmp", `${uuid()}.tmp`, `${uuid()}.${uuid()}.tmp`])
      expect(isTemporaryName(name), name).toBe(true);
    for (const name of ["notes.tmp", "index.html", `${uuid()}`, "secrets.json"])
      expect(isTemporaryName(name), name).toBe(false);
  });

  it("removes every kind's leftovers at start, keeps whole files and a package's own files", async () => {
    const root = dataDir();
    const storage = join(root, "storage");
    const message = uuid();
    const pkg = uuid();
    // Writers with a process id no process can have (above pid_max): gone, whatever runs beside the test.
    const leftovers = [
      put(join(storage, "chat", message, `${uuid()}.99999999.tmp`), 512 * 1024),
      put(join(storage, "chat", message, `${uuid()}.99999999.tmp`), 1536 * 1024),
      put(join(storage, "certificates", "c.pdf.99999999.1700000000000.tmp")),
      put(join(storage, "scorm", `${uuid()}.tmp`, "index.html")),
      put(join(root, "outbox", "2026-11-26-x.eml.99999999.abcdef12.tmp")),
      put(join(root, "secrets.json.99999999.abcdef12.tmp")),
    ];
    const kept = [
      put(join(storage, "chat", message, uuid())),
      put(join(storage, "scorm", pkg, "index.html")),
      // Inside a package: its author's file, whatever its name.
      put(join(storage, "scorm", pkg, `${uuid()}.1.tmp`)),
      put(join(root, "outbox", "2026-11-26-y.eml")),
      put(join(root, "secrets.json")),
    ];
    const removed = await sweepTemporaryFiles(root, { olderThanMs: 0 });
    expect(removed).toBeGreaterThanOrEqual(leftovers.length);
    for (const path of leftovers) expect(existsSync(path), path).toBe(false);
    for (const path of kept) expect(existsSync(path), path).toBe(true);
  });

  it("later, or beside other nodes, only what has not changed for the given time", async () => {
    const root = dataDir();
    const fresh = put(join(root, "storage", "chat", uuid(), `${uuid()}.1.tmp`));
    const old = put(join(root, "storage", "chat", uuid(), `${uuid()}.1.tmp`));
    const staging = put(join(root, "storage", "scorm", `${uuid()}.tmp`, "a", "b.html"));
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(old, hourAgo, hourAgo);
    await sweepTemporaryFiles(root, { olderThanMs: 3600_000 });
    expect([existsSync(fresh), existsSync(old), existsSync(staging)]).toEqual([true, false, true]);
  });

  it("writes whole or not at all, and leaves no temporary name either way", () => {
    const root = dataDir();
    const file = join(root, "tools.json");
    writeFileAtomicSync(file, "{}\n");
    expect(readdirSync(root)).toEqual(["tools.json"]);
    expect(() => writeFileAtomicSync(join(root, "missing", "x.json"), "{}")).toThrow();
    expect(readdirSync(root)).toEqual(["tools.json"]);
  });

  it("an upload killed with SIGKILL halfway leaves a file that the clean-up removes", async () => {
    // A process streams an upload to disk as the import does (saveUpload), slowly, and is killed.
    const script = `
      import { saveUpload } from ${JSON.stringify(fileURLToPath(new URL("../scorm/import.ts", import.meta.url)))};
      let n = 0;
      const body = new ReadableStream({ async pull(c) {
        await new Promise((r) => setTimeout(r, 20));
        c.enqueue(new Uint8Array(64 * 1024));
        if (++n === 8) console.log("writing");
      } });
      await saveUpload(body, 1e9);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("writing") && resolve());
      child.on("exit", (code) => reject(new Error(`the writer exited (${code}) before it wrote`)));
    });
    const mine = (name: string) => name.startsWith(`scorm-upload-${child.pid}-`);
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    expect(readdirSync(tmpdir()).filter(mine)).toHaveLength(1);
    await sweepTemporaryFiles(dataDir(), { olderThanMs: 3600_000 });
    expect(readdirSync(tmpdir()).filter(mine)).toEqual([]);
  }, 30_000);
});
