import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseManifest, ScormPackageError } from "../../api/scorm/manifest";
import { durationSeconds, isSafeEntryName, launchUrl, scormScos } from "../../domain/scorm";

const demo = (name: string) => readFileSync(`demo/data/scorm/${name}/imsmanifest.xml`, "utf8");

/** A SCORM 2004 3rd edition manifest with a cluster, xml:base and other prefixes than the usual ones. */
const THIRD_EDITION = `<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:a="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:s="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 3rd Edition</schemaversion></metadata>
  <organizations default="o2">
    <organization identifier="o1"><title>Not the default</title><item identifier="x" identifierref="r1"><title>X</title></item></organization>
    <organization identifier="o2">
      <title>Golf explained</title>
      <item identifier="cluster"><title>Part one</title>
        <item identifier="i1" identifierref="r1" parameters="#start"><title>Rules</title>
          <a:dataFromLMS>level=1</a:dataFromLMS>
          <a:timeLimitAction>exit,message</a:timeLimitAction>
        </item>
        <item identifier="i2" identifierref="r2"><title>Quiz</title>
          <s:sequencing><s:objectives><s:primaryObjective satisfiedByMeasure="true"><s:minNormalizedMeasure>0.75</s:minNormalizedMeasure></s:primaryObjective></s:objectives>
          <s:limitConditions attemptAbsoluteDurationLimit="PT1H30M"/></s:sequencing>
        </item>
      </item>
      <s:sequencing><s:controlMode choice="false" flow="true"/></s:sequencing>
    </organization>
  </organizations>
  <resources xml:base="content/">
    <resource identifier="r1" type="webcontent" a:scormType="sco" href="rules.html?x=1"/>
    <resource identifier="r2" type="webcontent" a:scormType="sco" xml:base="quiz/" href="index.html"/>
  </resources>
</manifest>`;

describe("SCORM manifests (issue 15 item 1, decision 025)", () => {
  it("reads a SCORM 1.2 single-SCO package: launch with parameters, mastery score, time limit", () => {
    const m = parseManifest(demo("gifts-quiz-12"));
    expect(m.version).toBe("1.2");
    expect(m.title).toBe("Gifts and hospitality: a short quiz");
    const [quiz] = scormScos(m.items);
    expect(quiz).toMatchObject({
      identifier: "quiz",
      launch: "quiz.html?mode=quiz",
      masteryScore: 60,
      timeLimit: 1800,
      timeLimitAction: "continue,no message",
    });
  });

  it("reads a SCORM 2004 4th edition multi-SCO lesson: two SCOs in order, scaled passing score, controls", () => {
    const m = parseManifest(demo("phishing-lesson-2004"));
    expect(m).toMatchObject({ version: "2004", schemaVersion: "2004 4th Edition" });
    expect(scormScos(m.items).map((i) => [i.identifier, i.launch, i.masteryScore, i.timeLimit])).toEqual([
      ["read", "read.html", null, 2700],
      ["check", "check.html?part=check", 80, null],
    ]);
    expect(m.controlMode).toEqual({ choice: true, flow: true });
  });

  it("reads a SCORM 2004 3rd edition manifest: the default organization, clusters, xml:base, any prefix", () => {
    const m = parseManifest(THIRD_EDITION);
    expect(m.version).toBe("2004");
    expect(m.title).toBe("Golf explained");
    expect(m.items[0]).toMatchObject({ identifier: "cluster", launch: null });
    expect(scormScos(m.items)).toMatchObject([
      {
        identifier: "i1",
        launch: "content/rules.html?x=1#start",
        launchData: "level=1",
        timeLimitAction: "exit,message",
      },
      { identifier: "i2", launch: "content/quiz/index.html", masteryScore: 75, timeLimit: 5400 },
    ]);
    expect(m.controlMode).toEqual({ choice: false, flow: true });
  });

  it.each([
    ["not XML", "<manifest><organizations>", "manifestInvalid"],
    ["no manifest element", "<?xml version='1.0'?><package/>", "manifestInvalid"],
    ["no organization", "<manifest><organizations/><resources/></manifest>", "noOrganization"],
    [
      "an unknown resource",
      "<manifest><organizations><organization identifier='o'><item identifier='i' identifierref='nope'/></organization></organizations><resources/></manifest>",
      "missingResource",
    ],
    [
      "a resource without href",
      "<manifest><organizations><organization identifier='o'><item identifier='i' identifierref='r'/></organization></organizations><resources><resource identifier='r'/></resources></manifest>",
      "missingLaunch",
    ],
  ])("refuses a manifest with %s", (_, xml, code) => {
    expect(() => parseManifest(xml)).toThrow(ScormPackageError);
    try {
      parseManifest(xml);
    } catch (e) {
      expect((e as ScormPackageError).code).toBe(code);
    }
  });
});

describe("package rules (domain/scorm.ts)", () => {
  it.each([
    ["index.html", true],
    ["shared/js/api.js", true],
    ["folder/", true],
    ["../evil.html", false],
    ["a/../../evil.html", false],
    ["/etc/passwd", false],
    ["C:/Windows/evil.dll", false],
    ["a\\..\\b", false],
    ["a//b", false],
    ["./a", false],
    ["", false],
  ])("entry name %j is safe: %s", (name, safe) => expect(isSafeEntryName(name)).toBe(safe));

  it.each([
    ["", "a.html", null, "a.html"],
    ["", "a.html", "?x=1", "a.html?x=1"],
    ["", "a.html?y=2", "x=1", "a.html?y=2&x=1"],
    ["", "a.html", "#p2", "a.html#p2"],
    ["base", "a.html", "&x=1", "base/a.html?x=1"],
    ["", "https://example.org/sco", null, "https://example.org/sco"],
  ])("launch URL of base %j, href %j, parameters %j", (base, href, params, url) =>
    expect(launchUrl(base, href, params)).toBe(url),
  );

  it.each([
    ["00:30:00", 1800],
    ["0001:00:30.5", 3630.5],
    ["PT1H30M", 5400],
    ["P1DT2S", 86402],
    ["PT", null],
    ["soon", null],
    [null, null],
  ])("duration %j is %j seconds", (text, seconds) => expect(durationSeconds(text)).toBe(seconds));
});
