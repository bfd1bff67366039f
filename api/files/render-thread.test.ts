import { afterAll, describe, expect, it } from "vitest";
import { rendererRunning, renderCertificateFiles, setRendererIdleMs } from "./render-thread";

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

// Decision 038, addendum 4: the renderer's thread (fonts, PDF and PNG libraries, ~150 MB) ends when
// no work came for a while, and starts again for the next file.
describe("the certificate renderer's thread", () => {
  afterAll(() => setRendererIdleMs(5_000));

  it("ends after its idle time and renders again when asked", { timeout: 60_000 }, async () => {
    setRendererIdleMs(300);
    const first = await renderCertificateFiles(facts);
    expect(first.pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(rendererRunning()).toBe(true);
    await new Promise((r) => setTimeout(r, 800));
    expect(rendererRunning()).toBe(false);
    const again = await renderCertificateFiles(facts);
    expect(again.png.subarray(1, 4).toString()).toBe("PNG");
    expect(rendererRunning()).toBe(true);
  });

  it("stays while files keep coming within the idle time", { timeout: 60_000 }, async () => {
    setRendererIdleMs(1_000);
    await renderCertificateFiles(facts);
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 300));
      expect(rendererRunning()).toBe(true);
      await renderCertificateFiles(facts);
    }
  });
});
