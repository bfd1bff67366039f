import { afterAll, describe, expect, it } from "vitest";
import { rendererPid, rendererRunning, renderCertificateFiles, setRendererIdleMs } from "./render-process";

const facts = {
  templateName: "Certificate of completion",
  holderName: "Ada Lovelace",
  courseName: "SQL Fundamentals",
  courseCode: "SQL-101",
  certificateNumber: "LA-TEST-TEST-TEST-TEST",
  issued: "27 Nov 2026",
  expires: null,
  grade: null,
  score: null,
  publicUrl: "http://localhost:3000/learn/certificate/LA-TEST-TEST-TEST-TEST",
};

/** Whether a process of this id is alive (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Decision 038, addenda 4 and 11: the renderer's process (fonts, PDF and PNG libraries, ~140 MB) ends
// when no work came for a while, giving its memory back, and starts again for the next file.
describe("the certificate renderer's process", () => {
  afterAll(() => setRendererIdleMs(5_000));

  it("ends after its idle time and renders again when asked", { timeout: 60_000 }, async () => {
    setRendererIdleMs(300);
    const first = await renderCertificateFiles(facts);
    expect(first.pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(rendererRunning()).toBe(true);
    const pid = rendererPid()!;
    expect(alive(pid)).toBe(true);
    await new Promise((r) => setTimeout(r, 800));
    expect(rendererRunning()).toBe(false);
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    const again = await renderCertificateFiles(facts);
    expect(again.png.subarray(1, 4).toString()).toBe("PNG");
    expect(rendererRunning()).toBe(true);
    expect(rendererPid()).not.toBe(pid);
  });

  it("stays while files keep coming within the idle time", { timeout: 60_000 }, async () => {
    setRendererIdleMs(1_000);
    await renderCertificateFiles(facts);
    const pid = rendererPid();
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 300));
      expect(rendererPid()).toBe(pid);
      await renderCertificateFiles(facts);
    }
  });

  it("answers several files asked for at once, each with its own", { timeout: 60_000 }, async () => {
    const names = ["Ada Lovelace", "Grace Hopper", "Edsger Dijkstra"];
    const files = await Promise.all(names.map((holderName) => renderCertificateFiles({ ...facts, holderName })));
    // Each answer is its own holder's: no two images alike.
    expect(files[0].png.equals(files[1].png) || files[1].png.equals(files[2].png)).toBe(false);
    for (const f of files) expect(f.pdf.subarray(0, 5).toString()).toBe("%PDF-");
  });
});
