import { describe, expect, it } from "vitest";
import { zipSync, strToU8 } from "fflate";
import {
  attachmentAccept,
  kindsOfMimeTypes,
  attachmentDisplayName,
  checkAttachment,
  checkAttachmentCount,
  DEFAULT_ATTACHMENT_RULES,
  kindOfName,
  parseAttachmentKinds,
  sniffKind,
  type AttachmentRules,
} from "./chat-attachments";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const PDF = bytes("%PDF-1.7\n%\xe2\xe3\n1 0 obj\n");
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const GIF = bytes("GIF89a", [1, 0, 1, 0]);
const WEBP = bytes("RIFF", [36, 0, 0, 0], "WEBPVP8 ");
const TXT = strToU8("Notes for week 3\r\n\tسلام — ok\n");
const ZIP = zipSync({ "notes.txt": strToU8("hello") });
const office = (dir: string) =>
  zipSync({ "[Content_Types].xml": strToU8("<Types/>"), [`${dir}/document.xml`]: strToU8("<x/>") });
const DOCX = office("word");
const XLSX = office("xl");
const PPTX = office("ppt");
const EXE = bytes("MZ", [0x90, 0, 3, 0]);
const HTML_WITH_NUL = bytes("<html>", [0], "</html>");

describe("spec 5 attachments: what a file's contents are (first bytes, a zip's entries)", () => {
  it.each([
    ["PDF", PDF, "pdf"],
    ["PNG", PNG, "png"],
    ["JPEG", JPEG, "jpeg"],
    ["GIF", GIF, "gif"],
    ["WebP", WEBP, "webp"],
    ["UTF-8 text", TXT, "txt"],
    ["zip", ZIP, "zip"],
    ["Word", DOCX, "docx"],
    ["Excel", XLSX, "xlsx"],
    ["PowerPoint", PPTX, "pptx"],
    ["a Windows program", EXE, null],
    ["binary with NUL", HTML_WITH_NUL, null],
    ["invalid UTF-8", bytes([0x61, 0xc3, 0x28]), null],
    ["a zip signature without a directory", bytes("PK\x03\x04garbage"), null],
    ["nothing", new Uint8Array(), null],
  ])("%s → %s", (_name, content, expected) => {
    expect(sniffKind(content)).toBe(expected);
  });
});

describe("spec 5 attachments: the kind a name claims", () => {
  it.each([
    ["report.PDF", "pdf"],
    ["photo.jpg", "jpeg"],
    ["photo.jpeg", "jpeg"],
    ["archive.tar.zip", "zip"],
    ["noextension", null],
    ["script.js", null],
    ["image.svg", null],
  ])("%s → %s", (name, expected) => {
    expect(kindOfName(name)).toBe(expected);
  });
});

const rules: AttachmentRules = { maxBytes: 1024, maxCount: 2, kinds: ["pdf", "png", "txt", "zip", "docx"] };
const tooLarge = { refusal: { code: "attachmentTooLarge", params: { size: "1.00 KB" } } };
const wrongType = { refusal: { code: "attachmentType", params: { types: "pdf, png, txt, zip, docx" } } };

describe("spec 5 attachments: 'not bigger than {size}' and 'only these types of files: {types}'", () => {
  it.each([
    ["a PDF named .pdf", { name: "a.pdf", size: PDF.length, bytes: PDF }, { kind: "pdf" }],
    ["exactly the largest size", { name: "a.txt", size: 1024, bytes: strToU8("x".repeat(1024)) }, { kind: "txt" }],
    ["one byte over", { name: "a.txt", size: 1025, bytes: strToU8("x".repeat(1025)) }, tooLarge],
    ["too large is said first, whatever the type", { name: "a.exe", size: 5000, bytes: EXE }, tooLarge],
    ["an extension not allowed", { name: "a.gif", size: GIF.length, bytes: GIF }, wrongType],
    ["no extension", { name: "README", size: TXT.length, bytes: TXT }, wrongType],
    ["a program renamed .pdf", { name: "invoice.pdf", size: EXE.length, bytes: EXE }, wrongType],
    ["a PNG named .pdf", { name: "scan.pdf", size: PNG.length, bytes: PNG }, wrongType],
    ["binary named .txt", { name: "a.txt", size: HTML_WITH_NUL.length, bytes: HTML_WITH_NUL }, wrongType],
    ["an empty file", { name: "a.txt", size: 0, bytes: new Uint8Array() }, wrongType],
    ["a Word document named .docx", { name: "essay.docx", size: DOCX.length, bytes: DOCX }, { kind: "docx" }],
    ["a plain zip named .docx", { name: "essay.docx", size: ZIP.length, bytes: ZIP }, wrongType],
    ["a Word document named .zip (it is a zip)", { name: "e.zip", size: DOCX.length, bytes: DOCX }, { kind: "zip" }],
  ])("%s", (_name, file, expected) => {
    expect(checkAttachment(file, rules)).toEqual(expected);
  });

  it("the default limit reads as spec 5 formats sizes (B, KB, MB… with 2 decimals)", () => {
    const big = { name: "a.pdf", size: DEFAULT_ATTACHMENT_RULES.maxBytes + 1, bytes: PDF };
    expect(checkAttachment(big, DEFAULT_ATTACHMENT_RULES)).toEqual({
      refusal: { code: "attachmentTooLarge", params: { size: "10.00 MB" } },
    });
    expect(DEFAULT_ATTACHMENT_RULES.kinds).toEqual([
      "pdf",
      "png",
      "jpeg",
      "gif",
      "webp",
      "txt",
      "docx",
      "xlsx",
      "pptx",
      "zip",
    ]);
  });

  it.each([
    [2, null],
    [3, { code: "attachmentCount", params: { count: 2 } }],
  ])("%i files → %j", (count, expected) => {
    expect(checkAttachmentCount(count, rules)).toEqual(expected);
  });
});

describe("configuration and display", () => {
  it.each([
    [undefined, null],
    ["  ", null],
    ["PDF, .jpg,png,jpeg", ["pdf", "jpeg", "png"]],
  ])("types %j → %j", (value, expected) => {
    expect(parseAttachmentKinds(value)).toEqual(expected);
  });

  it("an unknown type is an error, not a silent refusal of everything", () => {
    expect(() => parseAttachmentKinds("pdf,exe")).toThrow(/unknown attachment type "exe"/);
  });

  it("the file input accepts every extension of the allowed kinds", () => {
    expect(attachmentAccept(["pdf", "jpeg"])).toBe(".pdf,.jpg,.jpeg");
  });

  it.each([
    ["C:\\Users\\ada\\notes.txt", "notes.txt"],
    ["../../etc/passwd.txt", "passwd.txt"],
    ["a\u0000b\nc.pdf", "abc.pdf"],
    ["", "file"],
    [`${"n".repeat(300)}.pdf`, `${"n".repeat(196)}.pdf`],
  ])("name %j shows as %j", (name, expected) => {
    expect(attachmentDisplayName(name)).toBe(expected);
  });
});

describe("a QTI upload's MIME types narrow the kinds (decision 068)", () => {
  const all = DEFAULT_ATTACHMENT_RULES.kinds;
  it.each([
    [[], all],
    [["application/pdf"], ["pdf"]],
    [["image/*"], ["png", "jpeg", "gif", "webp"]],
    [
      ["application/pdf", "image/png"],
      ["pdf", "png"],
    ],
    [["text/plain"], ["txt"]],
    [["application/x-unknown"], []],
  ])("%j → %j", (types, kinds) => {
    expect(kindsOfMimeTypes(types, all)).toEqual(kinds);
  });

  it("never widens the configured kinds", () => {
    expect(kindsOfMimeTypes(["application/pdf", "image/png"], ["png", "txt"])).toEqual(["png"]);
  });
});
