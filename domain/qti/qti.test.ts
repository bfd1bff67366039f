import { describe, expect, it } from "vitest";
import { parseItem } from "./item";
import { correctResponses, itemMaxScore, scoreItem } from "./processing";
import { orderFromPositions, ResponseError, toResponses } from "./responses";
import { planAttempt, parseTest, scoreTest } from "./test";
import { itemView } from "./view";
import { QtiError } from "./xml";
import { responsesFromForm, savedValues, viewInteractions } from "./form";

const NS = `xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"`;
const MATCH_CORRECT = `<qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>`;
const MAP_RESPONSE = `<qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response.xml"/>`;
const SCORE = `<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>`;

const choiceItem = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item ${NS} identifier="phishing-1" title="Phishing" adaptive="false" time-dependent="false" xml:lang="en">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>B</qti-value></qti-correct-response>
  </qti-response-declaration>
  ${SCORE}
  <qti-outcome-declaration identifier="FEEDBACK" cardinality="single" base-type="identifier"/>
  <qti-item-body>
    <p>An e-mail asks you to confirm your password on a page that looks like your bank's.</p>
    <qti-choice-interaction response-identifier="RESPONSE" shuffle="true" max-choices="1">
      <qti-prompt>What do you do?</qti-prompt>
      <qti-simple-choice identifier="A">Type the password: the page looks right.</qti-simple-choice>
      <qti-simple-choice identifier="B">Report it and delete it.</qti-simple-choice>
      <qti-simple-choice identifier="C">Reply and ask whether it is real.</qti-simple-choice>
      <qti-simple-choice identifier="D" fixed="true">None of these.</qti-simple-choice>
    </qti-choice-interaction>
    <qti-feedback-block outcome-identifier="FEEDBACK" identifier="B" show-hide="show"><p>Right: banks never ask.</p></qti-feedback-block>
  </qti-item-body>
  <qti-response-processing>
    <qti-response-condition>
      <qti-response-if>
        <qti-match><qti-variable identifier="RESPONSE"/><qti-correct identifier="RESPONSE"/></qti-match>
        <qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">1</qti-base-value></qti-set-outcome-value>
      </qti-response-if>
      <qti-response-else>
        <qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">0</qti-base-value></qti-set-outcome-value>
      </qti-response-else>
    </qti-response-condition>
    <qti-set-outcome-value identifier="FEEDBACK"><qti-variable identifier="RESPONSE"/></qti-set-outcome-value>
  </qti-response-processing>
</qti-assessment-item>`;

const multipleItem = `<qti-assessment-item ${NS} identifier="mfa" title="MFA">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="identifier">
    <qti-correct-response><qti-value>app</qti-value><qti-value>key</qti-value></qti-correct-response>
    <qti-mapping lower-bound="0" upper-bound="2" default-value="0">
      <qti-map-entry map-key="app" mapped-value="1"/>
      <qti-map-entry map-key="key" mapped-value="1"/>
      <qti-map-entry map-key="sms" mapped-value="0.5"/>
      <qti-map-entry map-key="pet" mapped-value="-1"/>
    </qti-mapping>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="0">
      <qti-prompt>Which are second factors?</qti-prompt>
      <qti-simple-choice identifier="app">An authenticator app</qti-simple-choice>
      <qti-simple-choice identifier="key">A security key</qti-simple-choice>
      <qti-simple-choice identifier="sms">A code by SMS</qti-simple-choice>
      <qti-simple-choice identifier="pet">Your pet's name</qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  ${MAP_RESPONSE}
</qti-assessment-item>`;

const textItem = `<qti-assessment-item ${NS} identifier="port" title="Port">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string">
    <qti-correct-response><qti-value>443</qti-value></qti-correct-response>
    <qti-mapping default-value="0"><qti-map-entry map-key="443" mapped-value="2"/><qti-map-entry map-key="https" mapped-value="1" case-sensitive="false"/></qti-mapping>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body><p>HTTPS listens on port <qti-text-entry-interaction response-identifier="RESPONSE" expected-length="5"/> by default.</p></qti-item-body>
  ${MAP_RESPONSE}
</qti-assessment-item>`;

const inlineOrderMatch = `<qti-assessment-item ${NS} identifier="mixed" title="Mixed">
  <qti-response-declaration identifier="R1" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>y</qti-value></qti-correct-response></qti-response-declaration>
  <qti-response-declaration identifier="R2" cardinality="ordered" base-type="identifier"><qti-correct-response><qti-value>c1</qti-value><qti-value>c2</qti-value><qti-value>c3</qti-value></qti-correct-response></qti-response-declaration>
  <qti-response-declaration identifier="R3" cardinality="multiple" base-type="directedPair">
    <qti-correct-response><qti-value>s1 t2</qti-value><qti-value>s2 t1</qti-value></qti-correct-response>
    <qti-mapping default-value="0"><qti-map-entry map-key="s1 t2" mapped-value="1"/><qti-map-entry map-key="s2 t1" mapped-value="1"/></qti-mapping>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <p>Python is <qti-inline-choice-interaction response-identifier="R1" shuffle="true"><qti-inline-choice identifier="x">compiled to machine code</qti-inline-choice><qti-inline-choice identifier="y">interpreted</qti-inline-choice></qti-inline-choice-interaction>.</p>
    <qti-order-interaction response-identifier="R2" shuffle="true"><qti-prompt>Order the steps of incident response.</qti-prompt>
      <qti-simple-choice identifier="c1">Contain</qti-simple-choice><qti-simple-choice identifier="c2">Eradicate</qti-simple-choice><qti-simple-choice identifier="c3">Recover</qti-simple-choice></qti-order-interaction>
    <qti-match-interaction response-identifier="R3" max-associations="2"><qti-prompt>Match.</qti-prompt>
      <qti-simple-match-set><qti-simple-associable-choice identifier="s1" match-max="1">list</qti-simple-associable-choice><qti-simple-associable-choice identifier="s2" match-max="1">dict</qti-simple-associable-choice></qti-simple-match-set>
      <qti-simple-match-set><qti-simple-associable-choice identifier="t1" match-max="1">{}</qti-simple-associable-choice><qti-simple-associable-choice identifier="t2" match-max="1">[]</qti-simple-associable-choice></qti-simple-match-set>
    </qti-match-interaction>
  </qti-item-body>
  <qti-response-processing>
    <qti-response-condition><qti-response-if><qti-match><qti-variable identifier="R1"/><qti-correct identifier="R1"/></qti-match>
      <qti-set-outcome-value identifier="SCORE"><qti-sum><qti-variable identifier="SCORE"/><qti-base-value base-type="float">1</qti-base-value></qti-sum></qti-set-outcome-value></qti-response-if></qti-response-condition>
    <qti-response-condition><qti-response-if><qti-match><qti-variable identifier="R2"/><qti-correct identifier="R2"/></qti-match>
      <qti-set-outcome-value identifier="SCORE"><qti-sum><qti-variable identifier="SCORE"/><qti-base-value base-type="float">1</qti-base-value></qti-sum></qti-set-outcome-value></qti-response-if></qti-response-condition>
    <qti-response-condition><qti-response-if><qti-not><qti-is-null><qti-variable identifier="R3"/></qti-is-null></qti-not>
      <qti-set-outcome-value identifier="SCORE"><qti-sum><qti-variable identifier="SCORE"/><qti-map-response identifier="R3"/></qti-sum></qti-set-outcome-value></qti-response-if></qti-response-condition>
  </qti-response-processing>
</qti-assessment-item>`;

const gapItem = `<qti-assessment-item ${NS} identifier="gaps" title="Gaps">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="directedPair">
    <qti-correct-response><qti-value>w1 g1</qti-value><qti-value>w2 g2</qti-value></qti-correct-response>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <qti-gap-match-interaction response-identifier="RESPONSE" shuffle="true">
      <qti-prompt>Fill the gaps.</qti-prompt>
      <qti-gap-text identifier="w1" match-max="1">encrypts</qti-gap-text>
      <qti-gap-text identifier="w2" match-max="1">signs</qti-gap-text>
      <p>TLS <qti-gap identifier="g1"/> the traffic and the server's certificate <qti-gap identifier="g2"/> its key.</p>
    </qti-gap-match-interaction>
  </qti-item-body>
  ${MATCH_CORRECT}
</qti-assessment-item>`;

const essay = `<qti-assessment-item ${NS} identifier="essay" title="Essay" xml:lang="he" dir="rtl">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float" normal-maximum="5" external-scored="human"/>
  <qti-item-body><qti-extended-text-interaction response-identifier="RESPONSE" expected-lines="6"><qti-prompt>תאר אירוע אבטחה.</qti-prompt></qti-extended-text-interaction></qti-item-body>
</qti-assessment-item>`;

const qti22 = `<?xml version="1.0"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p2" identifier="choice22" title="Unattended Luggage" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>ChoiceA</value></correctResponse></responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"><defaultValue><value>0</value></defaultValue></outcomeDeclaration>
  <itemBody><p>Look at the text in the picture.</p>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1"><prompt>What does it say?</prompt>
      <simpleChoice identifier="ChoiceA">You must stay with your luggage at all times.</simpleChoice>
      <simpleChoice identifier="ChoiceB">Do not let someone else look after your luggage.</simpleChoice>
    </choiceInteraction></itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p2/rptemplates/match_correct"/>
</assessmentItem>`;

const score = (xml: string, raw: Record<string, string[]>) => {
  const item = parseItem(xml);
  return scoreItem(item, toResponses(item, raw));
};

describe("items: parsed, and scored by their response processing", () => {
  it.each([
    ["single choice, right", choiceItem, { RESPONSE: ["B"] }, 1, 1],
    ["single choice, wrong", choiceItem, { RESPONSE: ["A"] }, 0, 1],
    ["single choice, none", choiceItem, {}, 0, 1],
    ["multiple, both right", multipleItem, { RESPONSE: ["app", "key"] }, 2, 2],
    ["multiple, all (capped at the upper bound)", multipleItem, { RESPONSE: ["app", "key", "sms"] }, 2, 2],
    ["multiple, one right one wrong", multipleItem, { RESPONSE: ["app", "pet"] }, 0, 2],
    ["multiple, wrong alone (floored at the lower bound)", multipleItem, { RESPONSE: ["pet"] }, 0, 2],
    ["multiple, partial", multipleItem, { RESPONSE: ["sms"] }, 0.5, 2],
    ["text entry, exact", textItem, { RESPONSE: ["443"] }, 2, 2],
    ["text entry, case-insensitive key", textItem, { RESPONSE: ["HTTPS"] }, 1, 2],
    ["text entry, wrong", textItem, { RESPONSE: ["80"] }, 0, 2],
    [
      "inline + order + match, all right",
      inlineOrderMatch,
      { R1: ["y"], R2: ["c1", "c2", "c3"], R3: ["s1 t2", "s2 t1"] },
      4,
      4,
    ],
    ["order wrong, one pair", inlineOrderMatch, { R1: ["y"], R2: ["c2", "c1", "c3"], R3: ["s1 t2"] }, 2, 4],
    ["gap match, right", gapItem, { RESPONSE: ["w2 g2", "w1 g1"] }, 1, 1],
    ["gap match, swapped", gapItem, { RESPONSE: ["w1 g2", "w2 g1"] }, 0, 1],
    ["QTI 2.2 match correct, right", qti22, { RESPONSE: ["ChoiceA"] }, 1, 1],
    ["QTI 2.2 match correct, wrong", qti22, { RESPONSE: ["ChoiceB"] }, 0, 1],
  ])("%s", (_, xml, raw, expected, max) => {
    const outcome = score(xml, raw as Record<string, string[]>);
    expect(outcome.score).toBe(expected);
    expect(outcome.maxScore).toBe(max);
  });

  it.each([choiceItem, multipleItem, textItem, inlineOrderMatch, gapItem, qti22])(
    "the correct responses score the maximum",
    (xml) => {
      const item = parseItem(xml);
      expect(scoreItem(item, correctResponses(item)).score).toBe(itemMaxScore(item));
    },
  );

  it("an essay needs a person, keeps its language and direction", () => {
    const item = parseItem(essay);
    expect(item.needsPerson).toBe(true);
    expect(itemMaxScore(item)).toBe(5);
    expect([item.lang, item.dir]).toEqual(["he", "rtl"]);
  });

  it("feedback follows the outcome it names", () => {
    const item = parseItem(choiceItem);
    const right = scoreItem(item, toResponses(item, { RESPONSE: ["B"] }));
    const wrong = scoreItem(item, toResponses(item, { RESPONSE: ["C"] }));
    const shown = (vars: Map<string, never>) =>
      JSON.stringify(itemView(item, "s", { vars, feedback: true, solution: false }).body);
    expect(shown(right.vars as never)).toContain("banks never ask");
    expect(shown(wrong.vars as never)).not.toContain("banks never ask");
  });
});

describe("expressions", () => {
  const rp = (
    body: string,
    decl = `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>`,
  ) =>
    `<qti-assessment-item ${NS} identifier="x">${decl}${SCORE}<qti-item-body><p><qti-text-entry-interaction response-identifier="RESPONSE"/></p></qti-item-body><qti-response-processing>
      <qti-response-condition><qti-response-if>${body}<qti-set-outcome-value identifier="SCORE"><qti-base-value base-type="float">1</qti-base-value></qti-set-outcome-value></qti-response-if></qti-response-condition>
    </qti-response-processing></qti-assessment-item>`;
  const v = `<qti-variable identifier="RESPONSE"/>`;
  const num = `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="float"/>`;
  it.each([
    [
      "string-match case-insensitive",
      rp(
        `<qti-string-match case-sensitive="false">${v}<qti-base-value base-type="string">Firewall</qti-base-value></qti-string-match>`,
      ),
      "FIREWALL",
      1,
    ],
    [
      "string-match case-sensitive",
      rp(
        `<qti-string-match case-sensitive="true">${v}<qti-base-value base-type="string">Firewall</qti-base-value></qti-string-match>`,
      ),
      "FIREWALL",
      0,
    ],
    [
      "string-match substring",
      rp(
        `<qti-string-match case-sensitive="false" substring="true">${v}<qti-base-value base-type="string">wall</qti-base-value></qti-string-match>`,
      ),
      "a firewall",
      1,
    ],
    ["pattern-match", rp(`<qti-pattern-match pattern="[0-9]{3}">${v}</qti-pattern-match>`), "443", 1],
    ["is-null on no answer", rp(`<qti-is-null>${v}</qti-is-null>`), "", 1],
    ["not is-null", rp(`<qti-not><qti-is-null>${v}</qti-is-null></qti-not>`), "", 0],
    [
      "equal exact",
      rp(
        `<qti-equal tolerance-mode="exact">${v}<qti-base-value base-type="float">3.14</qti-base-value></qti-equal>`,
        num,
      ),
      "3.14",
      1,
    ],
    [
      "equal absolute tolerance",
      rp(
        `<qti-equal tolerance-mode="absolute" tolerance="0.01">${v}<qti-base-value base-type="float">3.14</qti-base-value></qti-equal>`,
        num,
      ),
      "3.145",
      1,
    ],
    [
      "equal absolute tolerance, outside",
      rp(
        `<qti-equal tolerance-mode="absolute" tolerance="0.01">${v}<qti-base-value base-type="float">3.14</qti-base-value></qti-equal>`,
        num,
      ),
      "3.2",
      0,
    ],
    [
      "gte and lte",
      rp(
        `<qti-and><qti-gte>${v}<qti-base-value base-type="float">1</qti-base-value></qti-gte><qti-lte>${v}<qti-base-value base-type="float">10</qti-base-value></qti-lte></qti-and>`,
        num,
      ),
      "10",
      1,
    ],
    ["gt fails", rp(`<qti-gt>${v}<qti-base-value base-type="float">10</qti-base-value></qti-gt>`, num), "10", 0],
    ["lt", rp(`<qti-lt>${v}<qti-base-value base-type="float">10</qti-base-value></qti-lt>`, num), "9.5", 1],
    [
      "or with NULL is not true",
      rp(`<qti-or><qti-gt>${v}<qti-base-value base-type="float">1</qti-base-value></qti-gt><qti-null/></qti-or>`, num),
      "5",
      0,
    ],
    [
      "member",
      rp(
        `<qti-member>${v}<qti-multiple><qti-base-value base-type="string">tcp</qti-base-value><qti-base-value base-type="string">udp</qti-base-value></qti-multiple></qti-member>`,
      ),
      "udp",
      1,
    ],
    [
      "sum equals",
      rp(
        `<qti-equal><qti-sum>${v}<qti-base-value base-type="float">2</qti-base-value></qti-sum><qti-base-value base-type="float">5</qti-base-value></qti-equal>`,
        num,
      ),
      "3",
      1,
    ],
  ])("%s", (_, xml, answer, expected) => {
    expect(score(xml, answer ? { RESPONSE: [answer] } : {}).score).toBe(expected);
  });
});

describe("what the learner sends", () => {
  const item = parseItem(inlineOrderMatch);
  it.each([
    [{ R1: ["z"] }, "responseInvalid"],
    [{ R1: ["x", "y"] }, "responseTooMany"],
    [{ NOPE: ["x"] }, "responseUnknown"],
    [{ R2: ["c1", "c1"] }, "responseInvalid"],
    [{ R3: ["t1 s1"] }, "responseInvalid"],
  ])("%j is refused: %s", (raw, code) => {
    expect(() => toResponses(item, raw)).toThrow(ResponseError);
    try {
      toResponses(item, raw);
    } catch (e) {
      expect((e as ResponseError).code).toBe(code);
    }
  });
  it("choose at most max-choices", () => {
    expect(() => toResponses(parseItem(choiceItem), { RESPONSE: ["A", "B"] })).toThrow(/one answer/);
  });
  it.each([
    [{ c1: "2", c2: "1", c3: "3" }, ["c2", "c1", "c3"]],
    [{ c1: "1", c2: "", c3: "2" }, ["c1", "c3"]],
    [{ c1: "1", c2: "1", c3: "x" }, ["c1", "c2"]],
  ])("order from positions %j", (positions, expected) => {
    expect(orderFromPositions(["c1", "c2", "c3"], positions)).toEqual(expected);
  });
});

describe("the learner's view", () => {
  it("holds no correct response, mapping or feedback before review", () => {
    for (const xml of [choiceItem, multipleItem, textItem, inlineOrderMatch]) {
      const json = JSON.stringify(itemView(parseItem(xml), "seed-1"));
      expect(json).not.toMatch(/correct|mapping|mapped|banks never ask|qti-feedback/i);
    }
  });
  it("shuffles per seed, keeps fixed choices in place, the same on every call", () => {
    const item = parseItem(choiceItem);
    const order = (seed: string) => {
      const body = itemView(item, seed).body.find((n) => n.kind === "interaction");
      return body?.kind === "interaction" && body.interaction.type === "choice"
        ? body.interaction.choices.map((c) => c.identifier)
        : [];
    };
    expect(order("a")).toEqual(order("a"));
    const seen = new Set(Array.from({ length: 20 }, (_, i) => order(`s${i}`).join("")));
    expect(seen.size).toBeGreaterThan(1);
    for (const s of seen) expect(s.endsWith("D")).toBe(true);
  });
  it("the solution only when allowed", () => {
    const item = parseItem(choiceItem);
    expect(itemView(item, "s", { vars: new Map(), feedback: false, solution: true }).solution).toEqual({
      RESPONSE: ["B"],
    });
    expect(itemView(item, "s", { vars: new Map(), feedback: false, solution: false }).solution).toBeNull();
  });
});

describe("refusals name the file and the item", () => {
  it.each([
    [`<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><qti-assessment-item identifier="a"/>`, /DOCTYPE/],
    [`<qti-assessment-item identifier="a"><p>`, /well-formed/],
    [
      `<qti-assessment-item ${NS} identifier="hs"><qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="point"/><qti-item-body><qti-select-point-interaction response-identifier="RESPONSE" max-choices="1"/></qti-item-body></qti-assessment-item>`,
      /item "hs".*select-point-interaction/,
    ],
    [
      `<qti-assessment-item ${NS} identifier="u"><qti-item-body><qti-choice-interaction response-identifier="R"><qti-simple-choice identifier="a">a</qti-simple-choice></qti-choice-interaction></qti-item-body></qti-assessment-item>`,
      /"R" is not declared/,
    ],
    [
      `<qti-assessment-item ${NS} identifier="c"><qti-response-processing><qti-custom-operator class="x"/></qti-response-processing></qti-assessment-item>`,
      /custom-operator/,
    ],
  ])("%#", (xml, message) => {
    expect(() => parseItem(xml, "items/a.xml")).toThrow(QtiError);
    expect(() => parseItem(xml, "items/a.xml")).toThrow(message);
    expect(() => parseItem(xml, "items/a.xml")).toThrow(/^items\/a\.xml/);
  });
});

const testXml = `<qti-assessment-test ${NS} identifier="cyber-exam" title="Cyber exam">
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-outcome-declaration identifier="MAXSCORE" cardinality="single" base-type="float"/>
  <qti-outcome-declaration identifier="PASS" cardinality="single" base-type="boolean"/>
  <qti-time-limits max-time="1800"/>
  <qti-test-part identifier="p1" navigation-mode="nonlinear" submission-mode="simultaneous">
    <qti-item-session-control max-attempts="1" allow-review="true" show-solution="true"/>
    <qti-assessment-section identifier="s1" title="Basics" visible="true">
      <qti-selection select="2"/>
      <qti-ordering shuffle="true"/>
      <qti-assessment-item-ref identifier="i1" href="items/i1.xml" required="true"><qti-weight identifier="WEIGHT" value="2"/></qti-assessment-item-ref>
      <qti-assessment-item-ref identifier="i2" href="items/i2.xml"/>
      <qti-assessment-item-ref identifier="i3" href="items/i3.xml"/>
    </qti-assessment-section>
    <qti-assessment-section identifier="s2" title="More" visible="true">
      <qti-assessment-item-ref identifier="i4" href="items/i4.xml"><qti-item-session-control show-solution="false"/></qti-assessment-item-ref>
    </qti-assessment-section>
  </qti-test-part>
  <qti-outcome-processing>
    <qti-set-outcome-value identifier="SCORE"><qti-sum><qti-test-variables variable-identifier="SCORE" weight-identifier="WEIGHT"/></qti-sum></qti-set-outcome-value>
    <qti-set-outcome-value identifier="MAXSCORE"><qti-outcome-maximum outcome-identifier="SCORE" weight-identifier="WEIGHT"/></qti-set-outcome-value>
    <qti-set-outcome-value identifier="PASS"><qti-gte><qti-variable identifier="SCORE"/><qti-base-value base-type="float">3</qti-base-value></qti-gte></qti-set-outcome-value>
  </qti-outcome-processing>
</qti-assessment-test>`;

describe("tests: plan and outcome", () => {
  const test = parseTest(testXml);
  it("selection keeps the required ref, is fixed per seed, differs between seeds", () => {
    const refs = (seed: string) => planAttempt(test, seed).pages.map((p) => p.items.map((i) => i.ref).join(","));
    expect(refs("a")).toEqual(refs("a"));
    for (let i = 0; i < 20; i++) {
      const [first, second] = refs(`seed${i}`);
      expect(first!.split(",")).toHaveLength(2);
      expect(first).toContain("i1");
      expect(second).toBe("i4");
    }
    expect(new Set(Array.from({ length: 20 }, (_, i) => refs(`seed${i}`)[0])).size).toBeGreaterThan(1);
  });
  it("nonlinear: a page per section; session control inherited and overridden; time limit", () => {
    const plan = planAttempt(test, "x");
    expect(plan.pages).toHaveLength(2);
    expect(plan.maxTime).toBe(1800);
    expect(plan.pages[0]!.items[0]!.control.showSolution).toBe(true);
    expect(plan.pages[1]!.items[0]!.control.showSolution).toBe(false);
    expect(plan.parts[0]).toMatchObject({ navigationMode: "nonlinear", submissionMode: "simultaneous" });
  });
  it("linear individual: a page per item", () => {
    const linear = parseTest(
      testXml.replace(
        `navigation-mode="nonlinear" submission-mode="simultaneous"`,
        `navigation-mode="linear" submission-mode="individual"`,
      ),
    );
    expect(planAttempt(linear, "x").pages).toHaveLength(3);
  });
  const item = (identifier: string, score: number, maxScore: number, weights: Record<string, number> = {}) => ({
    identifier,
    weights,
    categories: [],
    sections: ["s1"],
    vars: new Map([["SCORE", { cardinality: "single" as const, baseType: "float" as const, values: [score] }]]),
    maxScore,
    presented: true,
    responded: true,
    correct: score === maxScore,
  });
  it.each([
    ["weighted sum passes the cut", [item("i1", 1, 1, { WEIGHT: 2 }), item("i4", 1, 1)], 3, 3, true],
    ["below the cut", [item("i1", 1, 1, { WEIGHT: 2 }), item("i4", 0, 1)], 2, 3, false],
  ])("outcome processing: %s", (_, items, s, max, passed) => {
    const o = scoreTest(test, items, null);
    expect([o.score, o.maxScore, o.passed]).toEqual([s, max, passed]);
  });
  it.each([
    [0.6, [item("a", 3, 5), item("b", 0, 5)], 3, false],
    [0.3, [item("a", 3, 5), item("b", 0, 5)], 3, true],
    [null, [item("a", 3, 5)], 3, null],
  ])("no outcome processing: weighted sum, cut value %s", (cut, items, s, passed) => {
    const plain = parseTest(testXml.replace(/<qti-outcome-processing>[\s\S]*<\/qti-outcome-processing>/, ""));
    const o = scoreTest(plain, items, cut);
    expect([o.score, o.passed]).toEqual([s, passed]);
  });
});

describe("plain form controls and back (the page without JavaScript)", () => {
  it.each([
    ["single choice", choiceItem, { "r::RESPONSE": ["B"] }, { RESPONSE: ["B"] }],
    ["multiple choice", multipleItem, { "r::RESPONSE": ["app", "key"] }, { RESPONSE: ["app", "key"] }],
    ["text entry, emptied", textItem, { "r::RESPONSE": [""] }, { RESPONSE: [] }],
    [
      "inline, order by positions, match by selects",
      inlineOrderMatch,
      {
        "r::R1": ["y"],
        "r::R2::pos::c1": ["3"],
        "r::R2::pos::c2": ["1"],
        "r::R2::pos::c3": ["2"],
        "r::R3::src::s1": ["t2"],
        "r::R3::src::s2": [""],
      },
      { R1: ["y"], R2: ["c2", "c3", "c1"], R3: ["s1 t2"] },
    ],
    [
      "gap match by selects",
      gapItem,
      { "r::RESPONSE::gap::g1": ["w1"], "r::RESPONSE::gap::g2": ["w2"] },
      { RESPONSE: ["w1 g1", "w2 g2"] },
    ],
  ])("%s", (_, xml, posted, expected) => {
    const view = itemView(parseItem(xml), "seed");
    const raw = responsesFromForm(view, "r", (name) => (posted as Record<string, string[]>)[name] ?? []);
    expect(raw).toEqual(expected);
    // What the page shows again on resume is what was posted.
    for (const i of viewInteractions(view)) {
      const shown = savedValues(raw, i);
      if (i.type === "order")
        for (const [at, c] of (raw[i.response] ?? []).entries()) expect(shown.position(c)).toBe(String(at + 1));
      if (i.type === "match") expect(shown.pairWith("s1")).toBe("t2");
      if (i.type === "gapMatch") expect(shown.wordIn("g2")).toBe("w2");
    }
  });
});
