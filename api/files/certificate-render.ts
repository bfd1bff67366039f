/**
 * The certificate's files (decision 020): one design, drawn twice from the same layout —
 * as a PDF with real, selectable text in embedded fonts (pdfkit, whose fontkit shapes OpenType:
 * Arabic joined and right to left, Indic and Myanmar clusters, Thai), and as an SVG whose text is
 * the same fonts' glyph outlines, rendered to PNG by resvg (no system fonts, no system packages).
 * Fonts are Noto, from npm packages; each run of text takes the first font that has its letters.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { Resvg } from "@resvg/resvg-js";

const MODULES = resolve(fileURLToPath(new URL("../../node_modules/", import.meta.url)));

interface FontFace {
  key: string;
  file: string;
  font: fontkit.Font;
}

/** Fallback order: Latin, Greek and Cyrillic first, then each script, CJK last (Korean after Chinese). */
const FAMILIES: { name: string; regular: string; bold: string }[] = [
  expo("noto-sans", "NotoSans"),
  expo("noto-sans-arabic", "NotoSansArabic"),
  expo("noto-sans-hebrew", "NotoSansHebrew"),
  expo("noto-sans-devanagari", "NotoSansDevanagari"),
  expo("noto-sans-thai", "NotoSansThai"),
  fontsource("noto-sans-bengali", "bengali"),
  fontsource("noto-sans-tamil", "tamil"),
  fontsource("noto-sans-myanmar", "myanmar"),
  expo("noto-sans-sc", "NotoSansSC"),
  expo("noto-sans-kr", "NotoSansKR"),
];

function expo(pkg: string, base: string) {
  const dir = join(MODULES, "@expo-google-fonts", pkg);
  return {
    name: pkg,
    regular: join(dir, "400Regular", `${base}_400Regular.ttf`),
    bold: join(dir, "700Bold", `${base}_700Bold.ttf`),
  };
}

function fontsource(pkg: string, subset: string) {
  const dir = join(MODULES, "@fontsource", pkg, "files");
  return {
    name: pkg,
    regular: join(dir, `${pkg}-${subset}-400-normal.woff`),
    bold: join(dir, `${pkg}-${subset}-700-normal.woff`),
  };
}

let faces: { regular: FontFace[]; bold: FontFace[] } | null = null;

/** Opened once per process (the CJK fonts are 10 MB each); only the glyphs used are embedded. */
function loadFaces() {
  if (faces) return faces;
  const open = (weight: "regular" | "bold") =>
    FAMILIES.map((f) => {
      const file = f[weight];
      if (!existsSync(file)) throw new Error(`certificate font missing: ${file} (npm install)`);
      return { key: `${f.name}-${weight}`, file, font: fontkit.openSync(file) as fontkit.Font };
    });
  faces = { regular: open("regular"), bold: open("bold") };
  return faces;
}

interface Run {
  face: FontFace;
  text: string;
  /** Width at 1 pt. */
  advance: number;
  rtl: boolean;
}

/**
 * Shaping features: the font's defaults without `ccmp`, which splits letters into a base and marks
 * (Arabic dots, Vietnamese dot below) whose glyphs carry no character — extractors would read them
 * as garbage. The fonts have the composed letters, so the drawing is the same.
 */
const FEATURES = { ccmp: false } as never; // both libraries take an object of features, typed as arrays

const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;
/** Characters that stay with the run around them (spaces, punctuation, joiners). */
const NEUTRAL = /[\s\p{P}\p{Zs}\u200C\u200D]/u;

/** Splits text into runs of one font each, in visual order (right-to-left text reversed as a whole). */
function layoutRuns(text: string, bold: boolean): Run[] {
  const list = loadFaces()[bold ? "bold" : "regular"];
  const pick = (cp: number) => list.find((f) => f.font.hasGlyphForCodePoint(cp)) ?? list[0];
  const pieces: { face: FontFace; text: string }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = pieces.at(-1);
    if (last && NEUTRAL.test(ch) && last.face.font.hasGlyphForCodePoint(cp)) {
      last.text += ch;
      continue;
    }
    const face = pick(cp);
    if (last && last.face === face) last.text += ch;
    else pieces.push({ face, text: ch });
  }
  const runs = pieces.map((p) => {
    const rtl = RTL.test(p.text);
    const glyphs = p.face.font.layout(p.text, FEATURES);
    return { face: p.face, text: p.text, advance: glyphs.advanceWidth / p.face.font.unitsPerEm, rtl };
  });
  // A line whose first strong letter is right-to-left reads from the right: its runs swap order.
  const firstStrong = [...text].find((ch) => !NEUTRAL.test(ch) && !/\d/.test(ch));
  return firstStrong && RTL.test(firstStrong) ? runs.reverse() : runs;
}

export interface CertificateFacts {
  templateName: string;
  holderName: string;
  courseName: string;
  courseCode: string;
  certificateNumber: string;
  issued: string;
  expires: string | null;
  grade: string | null;
  score: string | null;
  /** The public page the QR code opens. */
  publicUrl: string;
}

interface TextLine {
  text: string;
  size: number;
  bold: boolean;
  /** Baseline, in points from the top. */
  y: number;
  color: string;
  align: "center" | "left";
  x?: number;
  /** Widest the line may be; the size shrinks to fit. */
  maxWidth: number;
}

const PAGE = { width: 842, height: 595 };
const INK = "#1b2a41";
const MUTED = "#4a5568";
const ACCENT = "#8a6d1d";

/** The design, as lines of text, frames and the QR code (all in points, top-left origin). */
function design(facts: CertificateFacts) {
  const lines: TextLine[] = [];
  const centered = (text: string, size: number, y: number, bold = false, color = INK) =>
    lines.push({ text, size, bold, y, color, align: "center", maxWidth: 700 });
  centered(facts.templateName, 30, 118, true, ACCENT);
  centered("This certifies that", 14, 172, false, MUTED);
  centered(facts.holderName, 34, 222, true);
  centered("has successfully completed", 14, 262, false, MUTED);
  centered(facts.courseName, 22, 300, true);
  centered(facts.courseCode, 12, 324, false, MUTED);
  const result = [facts.grade ? `Grade: ${facts.grade}` : null, facts.score ? `Score: ${facts.score}` : null]
    .filter(Boolean)
    .join("   ·   ");
  if (result) centered(result, 13, 352, false);
  const left = (text: string, y: number, bold = false) =>
    lines.push({ text, size: 11, bold, y, color: INK, align: "left", x: 80, maxWidth: 520 });
  left(`Issued: ${facts.issued}`, 430);
  left(`Expires: ${facts.expires ?? "never"}`, 450);
  left(`Certificate ID: ${facts.certificateNumber}`, 470, true);
  lines.push({
    text: `Verify: ${facts.publicUrl}`,
    size: 8,
    bold: false,
    y: 520,
    color: MUTED,
    align: "left",
    x: 80,
    maxWidth: 560,
  });
  const qr = QRCode.create(facts.publicUrl, { errorCorrectionLevel: "M" });
  return { lines, qr: { modules: qr.modules, x: 652, y: 392, size: 110 } };
}

function fitted(line: TextLine) {
  const runs = layoutRuns(line.text, line.bold);
  const width1 = runs.reduce((w, r) => w + r.advance, 0);
  const size = width1 * line.size > line.maxWidth ? line.maxWidth / width1 : line.size;
  const width = width1 * size;
  const x = line.align === "center" ? (PAGE.width - width) / 2 : (line.x ?? 0);
  return { runs, size, x };
}

/** Horizontal spans of dark modules, one rectangle each (fewer drawing operations than squares). */
function qrSpans(q: ReturnType<typeof design>["qr"]) {
  const n = q.modules.size;
  const cell = q.size / (n + 2);
  const spans: { x: number; y: number; w: number; h: number }[] = [];
  for (let r = 0; r < n; r++) {
    let c = 0;
    while (c < n) {
      if (!q.modules.get(r, c)) {
        c++;
        continue;
      }
      const start = c;
      while (c < n && q.modules.get(r, c)) c++;
      spans.push({ x: q.x + (start + 1) * cell, y: q.y + (r + 1) * cell, w: (c - start) * cell, h: cell });
    }
  }
  return spans;
}

/** The PDF: A4 landscape, text as text (selectable and searchable), fonts embedded as subsets. */
export async function renderCertificatePdf(facts: CertificateFacts): Promise<Buffer> {
  const d = design(facts);
  const doc = new PDFDocument({
    size: "A4",
    layout: "landscape",
    margin: 0,
    info: {
      Title: `${facts.templateName} — ${facts.holderName}`,
      Subject: `${facts.courseName} (${facts.courseCode}) ${facts.certificateNumber}`,
      Creator: "Learner app",
    },
    pdfVersion: "1.7",
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((ok, fail) => {
    doc.on("end", () => ok(Buffer.concat(chunks)));
    doc.on("error", fail);
  });
  const registered = new Set<string>();
  doc
    .rect(24, 24, PAGE.width - 48, PAGE.height - 48)
    .lineWidth(3)
    .stroke(ACCENT);
  doc
    .rect(34, 34, PAGE.width - 68, PAGE.height - 68)
    .lineWidth(0.8)
    .stroke(ACCENT);
  for (const line of d.lines) {
    const { runs, size, x } = fitted(line);
    let cx = x;
    for (const run of runs) {
      if (!registered.has(run.face.key)) {
        doc.registerFont(run.face.key, run.face.file);
        registered.add(run.face.key);
      }
      doc.font(run.face.key).fontSize(size).fillColor(line.color);
      if (run.rtl) {
        // Right to left, word by word in reading order from the right edge: extractors that follow
        // the content stream read the words in their logical order; each word is shaped whole.
        const font = run.face.font;
        const space = (font.layout(" ", FEATURES).advanceWidth / font.unitsPerEm) * size;
        let right = cx + run.advance * size;
        for (const word of run.text.split(" ")) {
          const width = (font.layout(word, FEATURES).advanceWidth / font.unitsPerEm) * size;
          if (word)
            doc.text(word, right - width, line.y, { lineBreak: false, baseline: "alphabetic", features: FEATURES });
          right -= width + space;
        }
      } else {
        // ActualText: extractors read the run as typed (logical order), not in the shaped glyphs'
        // order (a Devanagari vowel sign drawn before its consonant, for one).
        doc.markContent("Span", { actual: run.text });
        doc.text(run.text, cx, line.y, { lineBreak: false, baseline: "alphabetic", features: FEATURES });
        doc.endMarkedContent();
      }
      cx += run.advance * size;
    }
  }
  for (const s of qrSpans(d.qr)) doc.rect(s.x, s.y, s.w, s.h).fill(INK);
  doc.link(d.qr.x, d.qr.y, d.qr.size, d.qr.size, facts.publicUrl);
  doc.end();
  return done;
}

const esc = (s: string) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The same design as SVG: glyph outlines of the same fonts, shaped by the same engine. */
export function renderCertificateSvg(facts: CertificateFacts): string {
  const d = design(facts);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PAGE.width}" height="${PAGE.height}" viewBox="0 0 ${PAGE.width} ${PAGE.height}">`,
    `<title>${esc(`${facts.templateName} — ${facts.holderName}`)}</title>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<rect x="24" y="24" width="${PAGE.width - 48}" height="${PAGE.height - 48}" fill="none" stroke="${ACCENT}" stroke-width="3"/>`,
    `<rect x="34" y="34" width="${PAGE.width - 68}" height="${PAGE.height - 68}" fill="none" stroke="${ACCENT}" stroke-width="0.8"/>`,
  ];
  for (const line of d.lines) {
    const { runs, size, x } = fitted(line);
    let cx = x;
    for (const run of runs) {
      const font = run.face.font;
      const scale = size / font.unitsPerEm;
      const glyphRun = font.layout(run.text, FEATURES);
      let pen = 0;
      const paths: string[] = [];
      glyphRun.glyphs.forEach((glyph, i) => {
        const pos = glyphRun.positions[i];
        const d = glyph.path.toSVG();
        if (d) {
          const gx = cx + (pen + pos.xOffset) * scale;
          const gy = line.y - pos.yOffset * scale;
          paths.push(
            `<path transform="translate(${gx.toFixed(2)} ${gy.toFixed(2)}) scale(${scale.toFixed(5)} ${(-scale).toFixed(5)})" d="${d}"/>`,
          );
        }
        pen += pos.xAdvance;
      });
      parts.push(`<g fill="${line.color}">${paths.join("")}</g>`);
      cx += run.advance * size;
    }
  }
  parts.push(`<g fill="${INK}" shape-rendering="crispEdges">`);
  for (const s of qrSpans(d.qr))
    parts.push(
      `<rect x="${s.x.toFixed(3)}" y="${s.y.toFixed(3)}" width="${s.w.toFixed(3)}" height="${s.h.toFixed(3)}"/>`,
    );
  parts.push("</g></svg>");
  return parts.join("");
}

/** The PNG: the SVG at twice the page's size in points (1684 × 1190 pixels). */
export function renderCertificatePng(facts: CertificateFacts): Buffer {
  const svg = renderCertificateSvg(facts);
  const png = new Resvg(svg, { fitTo: { mode: "width", value: PAGE.width * 2 }, font: { loadSystemFonts: false } });
  return png.render().asPng();
}
