import { describe, expect, it } from "vitest";
import jsQR from "jsqr";
import { Resvg } from "@resvg/resvg-js";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import {
  renderCertificatePdf,
  renderCertificatePng,
  renderCertificateSvg,
  type CertificateFacts,
} from "../../api/files/certificate-render";

/**
 * Issue 12 item 4: the certificate's PDF has real text in embedded fonts for the names of every
 * script of the 36 locales, and its QR code opens the public page; the PNG is the same design.
 */
const NAMES = {
  latin: "Zoë Ñúñez-Łukasik",
  vietnamese: "Nguyễn Thị Ánh",
  cyrillic: "Ада Лавлейс",
  greek: "Αλέξανδρος Παπαδόπουλος",
  simplifiedChinese: "张伟",
  traditionalChinese: "陳美玲",
  japanese: "山田はなこ",
  korean: "김민준",
  thai: "สมชาย ใจดี",
  devanagari: "अनिता शर्मा",
  tamil: "கார்த்திக் ராஜா",
  bengali: "রবীন্দ্রনাথ ঠাকুর",
  myanmar: "အောင်ဆန်းစုကြည်",
  arabic: "عائشة الفارسي",
  hebrew: "דוד כהן",
} as const;

/** Scripts whose vowel signs are drawn before their consonant: extractors may list them in drawing order. */
const REORDERING = new Set(["devanagari", "tamil", "bengali", "myanmar"]);
const RTL = new Set(["arabic", "hebrew"]);

const facts = (holderName: string): CertificateFacts => ({
  templateName: "Certificate of Completion",
  holderName,
  courseName: "SQL Fundamentals",
  courseCode: "SQL-101",
  certificateNumber: "LA-28T5-CY4T-QKFF-04HM",
  issued: "15 March 2026",
  expires: "15 March 2027",
  grade: "A",
  score: "90 % (18 out of 20 points)",
  publicUrl: "https://learn.example/learn/certificate/LA-28T5-CY4T-QKFF-04HM",
});

async function pdfText(pdf: Buffer) {
  const doc = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false }).promise;
  const page = await doc.getPage(1);
  const content = await page.getTextContent();
  const fonts = Object.values(await page.commonObjs).length;
  return { text: content.items.map((i) => ("str" in i ? i.str : "")).join(" "), pages: doc.numPages, fonts };
}

describe("the certificate PDF (text extraction in every script)", () => {
  it.each(Object.entries(NAMES))("%s: %s is selectable text in the PDF", async (script, name) => {
    const pdf = await renderCertificatePdf(facts(name));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const { text, pages } = await pdfText(pdf);
    expect(pages).toBe(1);
    expect(text).toContain("Certificate of Completion");
    expect(text).toContain("LA-28T5-CY4T-QKFF-04HM");
    // Compatibility forms (Arabic presentation forms) and decomposed marks compare as typed.
    const flat = text.normalize("NFKD").replace(/\s/g, "");
    const typed = name.normalize("NFKD");
    if (RTL.has(script)) {
      // Right-to-left words, each whole and in reading order.
      const words = typed.split(" ");
      let at = -1;
      for (const w of words) {
        const i = flat.indexOf(w, at + 1);
        expect(i, `${w} in ${flat}`).toBeGreaterThan(at);
        at = i;
      }
    } else if (REORDERING.has(script)) {
      // Every letter and sign is there (ActualText carries the typed order for extractors that read it).
      for (const ch of new Set(typed.replace(/\s/g, ""))) expect(flat).toContain(ch);
    } else {
      expect(flat).toContain(typed.replace(/\s/g, ""));
    }
  });

  it("embeds its fonts (subsets) and names the template in the document's title", async () => {
    const pdf = await renderCertificatePdf(facts(NAMES.arabic));
    const raw = pdf.toString("latin1");
    expect(raw).toMatch(/\/FontFile2/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansArabic-Bold/);
    expect(raw).toMatch(/\/ToUnicode/);
    const doc = await getDocument({ data: new Uint8Array(pdf) }).promise;
    const { info } = await doc.getMetadata();
    expect((info as { Title: string }).Title).toContain("Certificate of Completion");
  });
});

describe("the QR code and the PNG", () => {
  it("the PNG's QR code decodes to the public page", () => {
    const svg = renderCertificateSvg(facts(NAMES.latin));
    const image = new Resvg(svg, { fitTo: { mode: "width", value: 1684 } }).render();
    const rgba = new Uint8ClampedArray(image.pixels);
    const code = jsQR(rgba, image.width, image.height);
    expect(code?.data).toBe("https://learn.example/learn/certificate/LA-28T5-CY4T-QKFF-04HM");
  });

  it("the PDF's QR code is a link to the public page too", async () => {
    const pdf = await renderCertificatePdf(facts(NAMES.latin));
    expect(pdf.toString("latin1")).toContain("(https://learn.example/learn/certificate/LA-28T5-CY4T-QKFF-04HM)");
  });

  it.each(Object.entries(NAMES))("%s: the PNG draws %s with glyphs (no missing-glyph boxes)", (_script, name) => {
    const svg = renderCertificateSvg(facts(name));
    // Every glyph is an outline of a font that has it: .notdef (glyph 0) would be an empty or boxed path.
    expect(svg).not.toContain('d=""');
    const png = renderCertificatePng(facts(name));
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(png.length).toBeGreaterThan(20_000);
  });
});
