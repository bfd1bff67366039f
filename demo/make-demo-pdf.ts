/**
 * Writes the demo course handbook, public/demo/course-handbook.pdf, served at
 * /learn/demo/course-handbook.pdf and linked by the public-file activities of the demo courses
 * (demo/data/media.json), and the demo certificate public/demo/certificate-sql-fundamentals.pdf.
 *
 *   npx tsx demo/make-demo-pdf.ts
 *
 * The PDF is written by hand with Node built-ins only: PDF 1.4, the standard Helvetica fonts
 * (not embedded), one uncompressed content stream per page, and a cross-reference table with
 * exact byte offsets. The output is deterministic (no dates), so the generated file is committed
 * and its size is recorded in demo/data/media.json (files.handbook; the loader checks it).
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const HANDBOOK_PDF_PATH = fileURLToPath(new URL("../public/demo/course-handbook.pdf", import.meta.url));

const PAGE_W = 595; // A4 in points
const PAGE_H = 842;
const MARGIN = 64;

/** Helvetica advance widths (1/1000 em) for ASCII 32..126 (from the standard AFM). */
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];

function textWidth(text: string, size: number): number {
  let w = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    w += code >= 32 && code <= 126 ? HELVETICA_WIDTHS[code - 32] : 556;
  }
  return (w * size) / 1000;
}

/** Greedy line breaking on spaces for Helvetica at `size` within `width` points. */
function wrap(text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/\(/g, "\\(").replace(/\)/g, "\\)");
const n = (x: number) => (Math.round(x * 100) / 100).toString();

/** A tiny content-stream builder (coordinates from the bottom-left corner, in points). */
class Canvas {
  ops: string[] = [];
  text(x: number, y: number, s: string, size = 11, bold = false, rgb: [number, number, number] = [0.13, 0.13, 0.13]) {
    this.ops.push(
      `BT /${bold ? "F2" : "F1"} ${size} Tf ${rgb.map(n).join(" ")} rg ${n(x)} ${n(y)} Td (${esc(s)}) Tj ET`,
    );
  }
  centered(
    cx: number,
    y: number,
    s: string,
    size = 10,
    bold = false,
    rgb: [number, number, number] = [0.13, 0.13, 0.13],
  ) {
    this.text(cx - textWidth(s, size) / 2, y, s, size, bold, rgb);
  }
  /** Wrapped paragraph; returns the y below it. */
  paragraph(x: number, y: number, s: string, width: number, size = 11, leading = 15.5): number {
    for (const line of wrap(s, size, width)) {
      this.text(x, y, line, size);
      y -= leading;
    }
    return y - 7;
  }
  bullets(x: number, y: number, items: string[], width: number, size = 11, leading = 15.5): number {
    for (const item of items) {
      this.fillRgb(0.06, 0.3, 0.5);
      this.circle(x + 3, y + 3.5, 2.2, "f");
      const lines = wrap(item, size, width - 14);
      for (const line of lines) {
        this.text(x + 14, y, line, size);
        y -= leading;
      }
      y -= 3;
    }
    return y - 6;
  }
  fillRgb(r: number, g: number, b: number) {
    this.ops.push(`${n(r)} ${n(g)} ${n(b)} rg`);
  }
  strokeRgb(r: number, g: number, b: number) {
    this.ops.push(`${n(r)} ${n(g)} ${n(b)} RG`);
  }
  lineWidth(w: number) {
    this.ops.push(`${n(w)} w`);
  }
  rect(x: number, y: number, w: number, h: number, paint: "f" | "S" | "B" = "f") {
    this.ops.push(`${n(x)} ${n(y)} ${n(w)} ${n(h)} re ${paint}`);
  }
  line(x1: number, y1: number, x2: number, y2: number) {
    this.ops.push(`${n(x1)} ${n(y1)} m ${n(x2)} ${n(y2)} l S`);
  }
  /** A circle from four Bezier curves. */
  circle(cx: number, cy: number, r: number, paint: "f" | "S" | "B" = "f") {
    const k = 0.5523 * r;
    this.ops.push(
      [
        `${n(cx + r)} ${n(cy)} m`,
        `${n(cx + r)} ${n(cy + k)} ${n(cx + k)} ${n(cy + r)} ${n(cx)} ${n(cy + r)} c`,
        `${n(cx - k)} ${n(cy + r)} ${n(cx - r)} ${n(cy + k)} ${n(cx - r)} ${n(cy)} c`,
        `${n(cx - r)} ${n(cy - k)} ${n(cx - k)} ${n(cy - r)} ${n(cx)} ${n(cy - r)} c`,
        `${n(cx + k)} ${n(cy - r)} ${n(cx + r)} ${n(cy - k)} ${n(cx + r)} ${n(cy)} c`,
        paint,
      ].join(" "),
    );
  }
  arrow(x1: number, y1: number, x2: number, y2: number) {
    this.line(x1, y1, x2, y2);
    const a = Math.atan2(y2 - y1, x2 - x1);
    const s = 7;
    const p1 = [x2 - s * Math.cos(a - 0.4), y2 - s * Math.sin(a - 0.4)];
    const p2 = [x2 - s * Math.cos(a + 0.4), y2 - s * Math.sin(a + 0.4)];
    this.ops.push(`${n(x2)} ${n(y2)} m ${n(p1[0])} ${n(p1[1])} l ${n(p2[0])} ${n(p2[1])} l h f`);
  }
  box(x: number, y: number, w: number, h: number, label: string, fill: [number, number, number], size = 10) {
    this.fillRgb(...fill);
    this.strokeRgb(0.06, 0.3, 0.5);
    this.lineWidth(1);
    this.rect(x, y, w, h, "B");
    this.centered(x + w / 2, y + h / 2 - size / 2.8, label, size, true, [0.06, 0.18, 0.3]);
  }
  toString() {
    return this.ops.join("\n");
  }
}

const BLUE: [number, number, number] = [0.06, 0.3, 0.5];
const PALE: [number, number, number] = [0.89, 0.94, 0.98];
const WIDTH = PAGE_W - 2 * MARGIN;

function frame(c: Canvas, page: number, pages: number, title: string) {
  c.fillRgb(...BLUE);
  c.rect(0, PAGE_H - 28, PAGE_W, 28);
  c.text(MARGIN, PAGE_H - 19, "Northwind Learning Portal  |  Course handbook", 9, false, [1, 1, 1]);
  c.strokeRgb(0.75, 0.8, 0.85);
  c.lineWidth(0.6);
  c.line(MARGIN, 52, PAGE_W - MARGIN, 52);
  c.text(MARGIN, 38, "Version 2026.1 - for learners", 8, false, [0.4, 0.4, 0.4]);
  const footer = `Page ${page} of ${pages}`;
  c.text(PAGE_W - MARGIN - textWidth(footer, 8), 38, footer, 8, false, [0.4, 0.4, 0.4]);
  if (title) c.text(MARGIN, PAGE_H - 84, title, 22, true, BLUE);
}

type PageFn = (c: Canvas) => void;

const PAGES: PageFn[] = [
  // 1. Cover
  (c) => {
    c.fillRgb(...PALE);
    c.rect(MARGIN, 430, WIDTH, 300);
    // An open book.
    c.fillRgb(1, 1, 1);
    c.strokeRgb(...BLUE);
    c.lineWidth(2);
    c.ops.push(`${PAGE_W / 2} 500 m 230 520 180 520 150 510 c 150 640 l 180 650 230 650 ${PAGE_W / 2} 630 c h B`);
    c.ops.push(`${PAGE_W / 2} 500 m 365 520 415 520 445 510 c 445 640 l 415 650 365 650 ${PAGE_W / 2} 630 c h B`);
    c.lineWidth(1);
    for (let i = 0; i < 5; i++) {
      c.line(170, 615 - i * 18, 280, 610 - i * 18 + 2);
      c.line(315, 610 - i * 18 + 2, 425, 615 - i * 18);
    }
    c.fillRgb(0.96, 0.65, 0.14);
    c.circle(450, 690, 18);
    c.text(MARGIN, 380, "Course Handbook", 34, true, BLUE);
    c.text(MARGIN, 350, "How courses, activities, deadlines and grades work", 14, false, [0.3, 0.3, 0.3]);
    let y = 300;
    y = c.paragraph(
      MARGIN,
      y,
      "Welcome! This handbook explains how the courses on the Northwind Learning Portal are put together and what the icons, dates and results you see in a course mean. Keep it open in a tab while you work through your first course; it takes about ten minutes to read.",
      WIDTH,
    );
    c.bullets(
      MARGIN,
      y,
      [
        "How a course is organised",
        "Progress and grading",
        "Dates and availability",
        "Reviewing your work",
        "Getting help",
      ],
      WIDTH,
    );
  },
  // 2. Structure: a tree diagram
  (c) => {
    let y = PAGE_H - 120;
    y = c.paragraph(
      MARGIN,
      y,
      "Every course is a tree of activities. The course itself is the root; it contains modules, and modules contain the activities you actually open: readings, videos, files, live events, discussions and interactive labs or quizzes. The table of contents on the left of the content viewer shows the same tree.",
      WIDTH,
    );
    y = c.paragraph(
      MARGIN,
      y,
      "Activities marked as optional do not count towards your progress. An activity shown as 'Coming soon' is still being prepared by the course authors; it opens automatically once it is published.",
      WIDTH,
    );
    const top = y - 20;
    c.box(217, top - 34, 160, 34, "Course", [0.8, 0.89, 0.97], 12);
    const mods = [MARGIN + 10, 237, 401];
    c.strokeRgb(...BLUE);
    c.lineWidth(1.2);
    for (const [i, x] of mods.entries()) {
      c.line(297, top - 34, x + 60, top - 84);
      c.box(x, top - 118, 120, 34, `Module ${i + 1}`, [0.89, 0.94, 0.98]);
      const leaves = ["Reading", i === 2 ? "Lab" : "Video", "Quiz"];
      for (const [j, label] of leaves.entries()) {
        c.strokeRgb(...BLUE);
        c.line(x + 10, top - 118, x + 10, top - 146 - j * 36);
        c.line(x + 10, top - 146 - j * 36, x + 22, top - 146 - j * 36);
        c.box(x + 22, top - 160 - j * 36, 96, 28, label, [1, 1, 1], 9);
      }
    }
    c.text(
      MARGIN,
      top - 290,
      "Figure 1. A course with three modules, each with three activities.",
      9,
      false,
      [0.4, 0.4, 0.4],
    );
  },
  // 3. Grading: a bar chart
  (c) => {
    let y = PAGE_H - 120;
    y = c.paragraph(
      MARGIN,
      y,
      "Your progress is the share of required activities you have completed. Opening an activity starts it; finishing it (reaching the end of a video, submitting a quiz, marking a reading as done) completes it.",
      WIDTH,
    );
    y = c.paragraph(
      MARGIN,
      y,
      "Graded activities are worth points, and each carries a weight. Your course score adds up the weighted points, and the course's grading scale turns it into a grade such as A to F, Pass or Fail, or a number of points out of 20. Some assignments are marked by an instructor: the course then waits 'In grading' until the mark is in.",
      WIDTH,
    );
    const x0 = MARGIN + 40;
    const y0 = y - 230;
    c.strokeRgb(0.3, 0.3, 0.3);
    c.lineWidth(1);
    c.line(x0, y0, x0 + 380, y0);
    c.line(x0, y0, x0, y0 + 190);
    for (const t of [0, 25, 50, 75, 100]) {
      c.text(x0 - 26, y0 + t * 1.8 - 3, String(t), 8, false, [0.4, 0.4, 0.4]);
      c.strokeRgb(0.85, 0.85, 0.85);
      c.line(x0 + 1, y0 + t * 1.8, x0 + 380, y0 + t * 1.8);
    }
    const bars: [string, number][] = [
      ["Quiz 1", 80],
      ["Quiz 2", 65],
      ["Lab", 92],
      ["Essay", 74],
      ["Final", 88],
    ];
    for (const [i, [label, v]] of bars.entries()) {
      const bx = x0 + 24 + i * 72;
      c.fillRgb(0.12 + i * 0.05, 0.45, 0.7 - i * 0.04);
      c.rect(bx, y0, 40, v * 1.8);
      c.centered(bx + 20, y0 + v * 1.8 + 5, `${v}%`, 8, true);
      c.centered(bx + 20, y0 - 14, label, 9);
    }
    c.strokeRgb(0.83, 0.18, 0.18);
    c.lineWidth(1.5);
    c.line(x0, y0 + 60 * 1.8, x0 + 380, y0 + 60 * 1.8);
    c.text(x0 + 384, y0 + 60 * 1.8 - 3, "pass", 8, true, [0.83, 0.18, 0.18]);
    c.text(MARGIN, y0 - 44, "Figure 2. Scores per activity against a 60% pass mark.", 9, false, [0.4, 0.4, 0.4]);
  },
  // 4. Dates: a timeline
  (c) => {
    let y = PAGE_H - 120;
    y = c.paragraph(
      MARGIN,
      y,
      "Activities can carry dates. Hover over the lock or clock icon in the table of contents to see which one applies.",
      WIDTH,
    );
    y = c.bullets(
      MARGIN,
      y,
      [
        "Start from: the activity opens on this date.",
        "Start until: you must start it before this date; once started you can carry on.",
        "Due: the date the instructor expects it finished.",
        "Grace period until: late work is accepted until then; afterwards an unfinished activity is locked.",
        "Accessible until: after this date the activity can no longer be opened at all.",
      ],
      WIDTH,
    );
    const ty = y - 80;
    c.strokeRgb(...BLUE);
    c.lineWidth(3);
    c.line(MARGIN, ty, PAGE_W - MARGIN, ty);
    const marks: [string, number][] = [
      ["Start from", 0.08],
      ["Start until", 0.3],
      ["Due", 0.52],
      ["Grace period", 0.72],
      ["Accessible until", 0.9],
    ];
    for (const [i, [label, f]] of marks.entries()) {
      const x = MARGIN + f * WIDTH;
      c.fillRgb(...(i === 2 ? ([0.96, 0.49, 0] as [number, number, number]) : BLUE));
      c.circle(x, ty, 7);
      c.centered(x, i % 2 ? ty - 26 : ty + 16, label, 9, true);
    }
    c.text(
      MARGIN,
      ty - 60,
      "Figure 3. The dates an activity can carry, in the order they fall.",
      9,
      false,
      [0.4, 0.4, 0.4],
    );
  },
  // 5. Review: a flow chart
  (c) => {
    let y = PAGE_H - 120;
    y = c.paragraph(
      MARGIN,
      y,
      "After you finish an activity you can often review it: see your answers, the correct answers and the feedback. Each activity has a review policy set by the course authors.",
      WIDTH,
    );
    y = c.bullets(
      MARGIN,
      y,
      [
        "Never: answers are not shown again, for example in exams that are reused.",
        "After submission: you can review as soon as you have submitted.",
        "After revealing results: review opens when results are released - on a set date, once you finish the course, or once you reach a score.",
      ],
      WIDTH,
    );
    const fy = y - 70;
    const steps = ["Start", "Submit", "Results", "Review"];
    for (const [i, label] of steps.entries()) {
      const x = MARGIN + i * 122;
      c.box(x, fy, 96, 40, label, i === 3 ? [0.85, 0.95, 0.86] : PALE, 11);
      if (i < steps.length - 1) {
        c.strokeRgb(...BLUE);
        c.fillRgb(...BLUE);
        c.lineWidth(1.5);
        c.arrow(x + 98, fy + 20, x + 120, fy + 20);
      }
    }
    c.text(MARGIN, fy - 30, "Figure 4. From starting an activity to reviewing it.", 9, false, [0.4, 0.4, 0.4]);
  },
  // 6. Help: speech bubbles
  (c) => {
    let y = PAGE_H - 120;
    y = c.paragraph(
      MARGIN,
      y,
      "Stuck on an exercise? Most courses have a discussion activity where you can ask other learners, and instructors read every thread. Courses with the AI tutor show a chat button in the bottom corner of the content viewer; the tutor knows the course material but never gives away quiz answers.",
      WIDTH,
    );
    y = c.paragraph(
      MARGIN,
      y,
      "For problems with your account, access to a course or a certificate, contact the learning team at learning@northwind.example. Please include the course code, which you find under the course title.",
      WIDTH,
    );
    const by = y - 150;
    c.fillRgb(...PALE);
    c.strokeRgb(...BLUE);
    c.lineWidth(1.2);
    c.rect(MARGIN + 20, by + 40, 200, 70, "B");
    c.ops.push(`${MARGIN + 60} ${by + 40} m ${MARGIN + 50} ${by + 18} l ${MARGIN + 82} ${by + 40} l h B`);
    c.text(MARGIN + 34, by + 82, "How do I join two tables", 10);
    c.text(MARGIN + 34, by + 66, "on more than one column?", 10);
    c.fillRgb(0.85, 0.95, 0.86);
    c.rect(MARGIN + 230, by, 220, 70, "B");
    c.ops.push(`${MARGIN + 410} ${by} m ${MARGIN + 420} ${by - 22} l ${MARGIN + 388} ${by} l h B`);
    c.text(MARGIN + 244, by + 42, "List both conditions after ON,", 10);
    c.text(MARGIN + 244, by + 26, "joined with AND.", 10);
    c.text(MARGIN, by - 50, "Figure 5. Questions and answers in a course discussion.", 9, false, [0.4, 0.4, 0.4]);
  },
];

const TITLES = [
  "",
  "1. How a course is organised",
  "2. Progress and grading",
  "3. Dates and availability",
  "4. Reviewing your work",
  "5. Getting help",
];

/**
 * A PDF file from page content streams: catalog, page tree, the two Helvetica fonts, the document
 * information, then a content stream and a page object per page, and an exact cross-reference table.
 */
function assemblePdf(info: string, streams: string[], mediaBox: [number, number]): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) as number; // object number = index + 1
  add("<< /Type /Catalog /Pages 2 0 R >>");
  add("PAGES");
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  add(info);
  const pageRefs: number[] = [];
  for (const stream of streams) {
    const contentNo = add(`<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`);
    const pageNo = add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${mediaBox[0]} ${mediaBox[1]}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentNo} 0 R >>`,
    );
    pageRefs.push(pageNo);
  }
  objects[1] = `<< /Type /Pages /Kids [${pageRefs.map((p) => `${p} 0 R`).join(" ")}] /Count ${pageRefs.length} >>`;

  // Binary comment line marks the file as binary for transfer tools.
  let out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** The handbook's bytes (deterministic). */
export function buildHandbookPdf(): Buffer {
  const streams = PAGES.map((draw, i) => {
    const c = new Canvas();
    frame(c, i + 1, PAGES.length, TITLES[i]);
    draw(c);
    return c.toString();
  });
  return assemblePdf(
    "<< /Title (Course Handbook) /Author (Northwind Learning) /Subject (How courses, activities, deadlines and grades work) /Producer (make-demo-pdf.ts) >>",
    streams,
    [PAGE_W, PAGE_H],
  );
}

export const CERTIFICATE_PDF_PATH = fileURLToPath(
  new URL("../public/demo/certificate-sql-fundamentals.pdf", import.meta.url),
);

/**
 * The demo certificate PDF linked from ada's SQL Fundamentals certificates (demo/data/learners/ada.json,
 * seed-catalog.ts DEMO_CERTIFICATE_PDF): landscape A4, deterministic. The certificate number and dates depend on
 * when the demo was seeded, so the page does not print them; the course page lists them.
 */
export function buildCertificatePdf(): Buffer {
  const W = PAGE_H;
  const H = PAGE_W;
  const cx = W / 2;
  const c = new Canvas();
  c.fillRgb(...PALE);
  c.rect(0, 0, W, H);
  c.strokeRgb(...BLUE);
  c.lineWidth(4);
  c.rect(28, 28, W - 56, H - 56, "S");
  c.lineWidth(1);
  c.rect(40, 40, W - 80, H - 80, "S");
  c.centered(cx, H - 92, "Northwind Learning Portal", 12, false, [0.3, 0.3, 0.3]);
  c.centered(cx, H - 150, "CERTIFICATE", 44, true, BLUE);
  c.centered(cx, H - 180, "of achievement", 16, false, BLUE);
  c.centered(cx, H - 235, "This certifies that", 13, false, [0.3, 0.3, 0.3]);
  c.centered(cx, H - 280, "Ada Lovelace", 34, true, [0.13, 0.13, 0.13]);
  c.strokeRgb(0.75, 0.8, 0.85);
  c.line(cx - 180, H - 292, cx + 180, H - 292);
  c.centered(cx, H - 325, "has passed the course", 13, false, [0.3, 0.3, 0.3]);
  c.centered(cx, H - 360, "SQL Fundamentals (DB-110)", 22, true, BLUE);
  c.centered(cx, H - 390, "and holds the SQL Fundamentals Certificate.", 13, false, [0.3, 0.3, 0.3]);
  c.fillRgb(0.96, 0.65, 0.14);
  c.circle(cx, 120, 30);
  c.fillRgb(1, 1, 1);
  c.circle(cx, 120, 20);
  c.centered(
    cx,
    64,
    "Demo certificate. Its certificate ID and its issue and expiry dates are listed on the course page.",
    9,
    false,
    [0.4, 0.4, 0.4],
  );
  return assemblePdf(
    "<< /Title (SQL Fundamentals Certificate - Ada Lovelace) /Author (Northwind Learning) /Producer (make-demo-pdf.ts) >>",
    [c.toString()],
    [W, H],
  );
}

function main() {
  const bytes = buildHandbookPdf();
  mkdirSync(dirname(HANDBOOK_PDF_PATH), { recursive: true });
  writeFileSync(HANDBOOK_PDF_PATH, bytes);
  console.log(`wrote ${HANDBOOK_PDF_PATH} (${bytes.length} bytes, ${PAGES.length} pages)`);
  const certificate = buildCertificatePdf();
  writeFileSync(CERTIFICATE_PDF_PATH, certificate);
  console.log(`wrote ${CERTIFICATE_PDF_PATH} (${certificate.length} bytes)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
