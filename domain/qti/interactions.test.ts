import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { mimeTypesOf, parseItem } from "./item";
import { QtiError } from "./xml";
import { correctResponses, itemMaxScore, scoreItem } from "./processing";
import { ResponseError, toResponses } from "./responses";
import { itemView } from "./view";
import { associationSlots, responsesFromForm, savedValues, viewInteractions } from "./form";
import { inside, parseCoords, type Shape } from "./geometry";

/** Decision 056: hot text, associate, the graphic interactions and point responses. */
const NS = `xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0"`;
const MATCH_CORRECT = `<qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>`;
const MAP_RESPONSE = `<qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response.xml"/>`;
const MAP_POINT = `<qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/map_response_point.xml"/>`;
const SCORE = `<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>`;
const IMG = `<img src="https://example.org/net.png" alt="A small office network" width="400" height="300"/>`;

export const hottextItem = `<qti-assessment-item ${NS} identifier="hot" title="Hot text">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="identifier">
    <qti-correct-response><qti-value>h2</qti-value><qti-value>h4</qti-value></qti-correct-response>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <qti-hottext-interaction response-identifier="RESPONSE" max-choices="2">
      <qti-prompt>Select the two signs of phishing.</qti-prompt>
      <p>Dear <qti-hottext identifier="h1">colleague</qti-hottext>, your mailbox is
        <qti-hottext identifier="h2">full: click within 24 hours</qti-hottext> or it is closed. Sent from
        <qti-hottext identifier="h3">IT</qti-hottext> at <qti-hottext identifier="h4">it-help@examp1e.net</qti-hottext>.</p>
    </qti-hottext-interaction>
  </qti-item-body>
  ${MATCH_CORRECT}
</qti-assessment-item>`;

const associateItem = `<qti-assessment-item ${NS} identifier="assoc" title="Associate">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="pair">
    <qti-correct-response><qti-value>tcp http</qti-value><qti-value>udp dns</qti-value></qti-correct-response>
    <qti-mapping default-value="0" lower-bound="0"><qti-map-entry map-key="tcp http" mapped-value="1"/><qti-map-entry map-key="udp dns" mapped-value="1"/></qti-mapping>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <qti-associate-interaction response-identifier="RESPONSE" shuffle="true" max-associations="2">
      <qti-prompt>Pair each protocol with what usually runs on it.</qti-prompt>
      <qti-simple-associable-choice identifier="tcp" match-max="1">TCP</qti-simple-associable-choice>
      <qti-simple-associable-choice identifier="udp" match-max="1">UDP</qti-simple-associable-choice>
      <qti-simple-associable-choice identifier="http" match-max="1">HTTP</qti-simple-associable-choice>
      <qti-simple-associable-choice identifier="dns" match-max="1">DNS</qti-simple-associable-choice>
    </qti-associate-interaction>
  </qti-item-body>
  ${MAP_RESPONSE}
</qti-assessment-item>`;

export const hotspotItem = `<qti-assessment-item ${NS} identifier="spot" title="Hotspot">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>fw</qti-value></qti-correct-response>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <qti-hotspot-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-prompt>Which device filters the traffic from the internet?</qti-prompt>
      ${IMG}
      <qti-hotspot-choice identifier="router" shape="rect" coords="10,10,110,60" hotspot-label="Router"/>
      <qti-hotspot-choice identifier="fw" shape="circle" coords="200,150,40" hotspot-label="Firewall"/>
      <qti-hotspot-choice identifier="pc" shape="poly" coords="300,200,380,200,340,280"/>
    </qti-hotspot-interaction>
  </qti-item-body>
  ${MATCH_CORRECT}
</qti-assessment-item>`;

const pointItem = `<qti-assessment-item ${NS} identifier="point" title="Select point">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="point">
    <qti-correct-response><qti-value>200 150</qti-value></qti-correct-response>
    <qti-area-mapping default-value="0">
      <qti-area-map-entry shape="circle" coords="200,150,40" mapped-value="2"/>
      <qti-area-map-entry shape="rect" coords="0,0,120,70" mapped-value="0.5"/>
    </qti-area-mapping>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <qti-select-point-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-prompt>Click the firewall.</qti-prompt>${IMG}
    </qti-select-point-interaction>
  </qti-item-body>
  ${MAP_POINT}
</qti-assessment-item>`;

const orderItem = `<qti-assessment-item ${NS} identifier="gorder" title="Graphic order">
  <qti-response-declaration identifier="RESPONSE" cardinality="ordered" base-type="identifier">
    <qti-correct-response><qti-value>pc</qti-value><qti-value>fw</qti-value><qti-value>router</qti-value></qti-correct-response>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <qti-graphic-order-interaction response-identifier="RESPONSE">
      <qti-prompt>Order the hops of a request from the PC to the internet.</qti-prompt>${IMG}
      <qti-hotspot-choice identifier="router" shape="rect" coords="10,10,110,60" hotspot-label="Router"/>
      <qti-hotspot-choice identifier="fw" shape="ellipse" coords="200,150,40,20" hotspot-label="Firewall"/>
      <qti-hotspot-choice identifier="pc" shape="poly" coords="300,200,380,200,340,280" hotspot-label="PC"/>
    </qti-graphic-order-interaction>
  </qti-item-body>
  ${MATCH_CORRECT}
</qti-assessment-item>`;

const graphicAssociateItem = `<qti-assessment-item ${NS} identifier="gassoc" title="Graphic associate">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="pair">
    <qti-correct-response><qti-value>pc fw</qti-value></qti-correct-response>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <qti-graphic-associate-interaction response-identifier="RESPONSE" max-associations="2">
      <qti-prompt>Join the devices that a cable links directly.</qti-prompt>${IMG}
      <qti-associable-hotspot identifier="router" shape="rect" coords="10,10,110,60" match-max="1" hotspot-label="Router"/>
      <qti-associable-hotspot identifier="fw" shape="circle" coords="200,150,40" match-max="2" hotspot-label="Firewall"/>
      <qti-associable-hotspot identifier="pc" shape="circle" coords="340,240,30" match-max="1" hotspot-label="PC"/>
    </qti-graphic-associate-interaction>
  </qti-item-body>
  ${MATCH_CORRECT}
</qti-assessment-item>`;

const graphicGapItem = `<qti-assessment-item ${NS} identifier="ggap" title="Graphic gap match">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="directedPair">
    <qti-correct-response><qti-value>lock fw</qti-value><qti-value>globe router</qti-value></qti-correct-response>
    <qti-mapping default-value="0"><qti-map-entry map-key="lock fw" mapped-value="1"/><qti-map-entry map-key="globe router" mapped-value="1"/></qti-mapping>
  </qti-response-declaration>
  ${SCORE}
  <qti-item-body>
    <qti-graphic-gap-match-interaction response-identifier="RESPONSE">
      <qti-prompt>Put each label on its device.</qti-prompt>${IMG}
      <qti-gap-img identifier="lock" match-max="1"><img src="https://example.org/lock.png" alt="Padlock" width="20" height="20"/></qti-gap-img>
      <qti-gap-text identifier="globe" match-max="1">Internet</qti-gap-text>
      <qti-associable-hotspot identifier="router" shape="rect" coords="10,10,110,60" match-max="1" hotspot-label="Router"/>
      <qti-associable-hotspot identifier="fw" shape="circle" coords="200,150,40" match-max="1"/>
    </qti-graphic-gap-match-interaction>
  </qti-item-body>
  ${MAP_RESPONSE}
</qti-assessment-item>`;

/** Gap match with pictures among its words (the one above puts them on an image's areas). */
const gapImagesItem = readFileSync("tests/fixtures/qti-interactions/items/gap-match-images.xml", "utf8");

const insideRules = `<qti-assessment-item ${NS} identifier="inside" title="Inside">
  <qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="point">
    <qti-area-mapping default-value="0"><qti-area-map-entry shape="ellipse" coords="300,200,50,25" mapped-value="1"/></qti-area-mapping>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float" normal-maximum="2"/>
  <qti-item-body>
    <qti-select-point-interaction response-identifier="RESPONSE" max-choices="2"><qti-prompt>Click both servers.</qti-prompt>${IMG}</qti-select-point-interaction>
  </qti-item-body>
  <qti-response-processing>
    <qti-response-condition><qti-response-if><qti-inside shape="rect" coords="0,0,100,100"><qti-variable identifier="RESPONSE"/></qti-inside>
      <qti-set-outcome-value identifier="SCORE"><qti-sum><qti-variable identifier="SCORE"/><qti-base-value base-type="float">1</qti-base-value></qti-sum></qti-set-outcome-value></qti-response-if></qti-response-condition>
    <qti-response-condition><qti-response-if><qti-inside shape="ellipse" coords="300,200,50,25"><qti-variable identifier="RESPONSE"/></qti-inside>
      <qti-set-outcome-value identifier="SCORE"><qti-sum><qti-variable identifier="SCORE"/><qti-map-response-point identifier="RESPONSE"/></qti-sum></qti-set-outcome-value></qti-response-if></qti-response-condition>
  </qti-response-processing>
</qti-assessment-item>`;

const qti22Hotspot = `<?xml version="1.0"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p2" identifier="hotspot22" title="UK airports" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody>
    <hotspotInteraction responseIdentifier="RESPONSE" maxChoices="1"><prompt>Where is Edinburgh?</prompt>
      <object type="image/png" width="206" height="280" data="images/uk.png">UK Map</object>
      <hotspotChoice shape="circle" coords="77,115,8" identifier="A" hotspotLabel="North"/>
      <hotspotChoice shape="circle" coords="118,184,8" identifier="B"/>
    </hotspotInteraction>
  </itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p2/rptemplates/match_correct"/>
</assessmentItem>`;

const score = (xml: string, raw: Record<string, string[]>) => {
  const item = parseItem(xml);
  return scoreItem(item, toResponses(item, raw));
};

describe("scored by their response processing", () => {
  it.each([
    ["hot text, both right", hottextItem, { RESPONSE: ["h4", "h2"] }, 1, 1],
    ["hot text, one wrong", hottextItem, { RESPONSE: ["h2", "h3"] }, 0, 1],
    ["associate, both pairs (either way round)", associateItem, { RESPONSE: ["http tcp", "udp dns"] }, 2, 2],
    ["associate, one pair of two", associateItem, { RESPONSE: ["tcp http"] }, 1, 2],
    ["associate, wrong", associateItem, { RESPONSE: ["tcp dns"] }, 0, 2],
    ["hotspot, right", hotspotItem, { RESPONSE: ["fw"] }, 1, 1],
    ["hotspot, wrong", hotspotItem, { RESPONSE: ["router"] }, 0, 1],
    ["select point, in the circle", pointItem, { RESPONSE: ["215 170"] }, 2, 2],
    ["select point, in the lesser area", pointItem, { RESPONSE: ["100 20"] }, 0.5, 2],
    ["select point, outside every area", pointItem, { RESPONSE: ["390 10"] }, 0, 2],
    ["select point, no answer", pointItem, {}, 0, 2],
    ["graphic order, right", orderItem, { RESPONSE: ["pc", "fw", "router"] }, 1, 1],
    ["graphic order, two swapped", orderItem, { RESPONSE: ["fw", "pc", "router"] }, 0, 1],
    ["graphic associate, right", graphicAssociateItem, { RESPONSE: ["fw pc"] }, 1, 1],
    ["graphic associate, an extra pair", graphicAssociateItem, { RESPONSE: ["fw pc", "router fw"] }, 0, 1],
    ["graphic gap match, both", graphicGapItem, { RESPONSE: ["lock fw", "globe router"] }, 2, 2],
    ["graphic gap match, swapped", graphicGapItem, { RESPONSE: ["lock router", "globe fw"] }, 0, 2],
    ["gap match with pictures, both", gapImagesItem, { RESPONSE: ["stop g1", "yield g2"] }, 2, 2],
    ["gap match with pictures, one placed and a word", gapImagesItem, { RESPONSE: ["stop g1", "none g2"] }, 1, 2],
    ["qti-inside + map-response-point: a point in each region", insideRules, { RESPONSE: ["50 50", "320 205"] }, 2, 2],
    ["qti-inside: one point in the first region only", insideRules, { RESPONSE: ["50 50", "200 20"] }, 1, 2],
    ["qti-inside: in the second only", insideRules, { RESPONSE: ["300 200"] }, 1, 2],
    ["qti-inside: none", insideRules, { RESPONSE: ["200 20"] }, 0, 2],
    ["QTI 2.2 hotspot, right", qti22Hotspot, { RESPONSE: ["A"] }, 1, 1],
  ])("%s", (_, xml, raw, expected, max) => {
    const outcome = score(xml, raw as Record<string, string[]>);
    expect(outcome.score).toBe(expected);
    expect(outcome.maxScore).toBe(max);
  });

  it.each([hottextItem, associateItem, hotspotItem, pointItem, orderItem, graphicAssociateItem, graphicGapItem])(
    "the correct responses score the maximum and count as correct",
    (xml) => {
      const item = parseItem(xml);
      const outcome = scoreItem(item, correctResponses(item));
      expect(outcome.score).toBe(itemMaxScore(item));
      expect(outcome.correct).toBe(true);
    },
  );

  it("a point in the right area is correct, though not the exact pixel of the correct response", () => {
    expect(score(pointItem, { RESPONSE: ["190 160"] }).correct).toBe(true);
    expect(score(pointItem, { RESPONSE: ["100 20"] }).correct).toBe(false);
  });

  it("QTI 2.2: the object's image, the hotspot labels", () => {
    const [i] = viewInteractions(itemView(parseItem(qti22Hotspot), "s"));
    expect(i).toMatchObject({
      type: "hotspot",
      image: { src: "images/uk.png", width: 206, height: 280, alt: "UK Map" },
      hotspots: [
        { identifier: "A", shape: "circle", coords: [77, 115, 8], label: "North" },
        { identifier: "B", label: null },
      ],
    });
  });
});

describe("shapes", () => {
  it.each<[Shape, string, number, number, boolean]>([
    ["rect", "10,10,110,60", 10, 10, true],
    ["rect", "10,10,110,60", 60, 61, false],
    ["circle", "200,150,40", 240, 150, true],
    ["circle", "200,150,40", 229, 179, false],
    ["ellipse", "300,200,50,25", 349, 200, true],
    ["ellipse", "300,200,50,25", 300, 226, false],
    ["poly", "300,200,380,200,340,280", 340, 220, true],
    ["poly", "300,200,380,200,340,280", 300, 280, false],
    ["poly", "300,200,380,200,340,280", 340, 200, true],
    ["default", "", 9999, -5, true],
  ])("%s %s holds (%d, %d): %s", (shape, coords, x, y, expected) => {
    expect(inside(shape, parseCoords(shape, coords)!, x, y)).toBe(expected);
  });
  it.each<[Shape, string]>([
    ["rect", "1,2,3"],
    ["circle", "1,2"],
    ["poly", "1,2,3,4"],
    ["ellipse", "a,b,c,d"],
  ])("%s with coords %s is refused at import", (shape, coords) => {
    expect(parseCoords(shape, coords)).toBeNull();
    expect(() =>
      parseItem(
        hotspotItem.replace(`coords="10,10,110,60"`, `coords="${coords}" `).replace(`shape="rect"`, `shape="${shape}"`),
        "i.xml",
      ),
    ).toThrow(/item "spot".*coords/);
  });
});

describe("what the learner sends is checked", () => {
  it.each([
    [hottextItem, { RESPONSE: ["h1", "h2", "h3"] }, "responseTooMany"],
    [hottextItem, { RESPONSE: ["h9"] }, "responseInvalid"],
    [associateItem, { RESPONSE: ["tcp tcp"] }, "responseInvalid"],
    [associateItem, { RESPONSE: ["tcp nope"] }, "responseInvalid"],
    [associateItem, { RESPONSE: ["tcp http", "http tcp"] }, "responseInvalid"],
    [associateItem, { RESPONSE: ["tcp http", "tcp dns"] }, "responseTooMany"],
    [associateItem, { RESPONSE: ["tcp"] }, "responseInvalid"],
    [hotspotItem, { RESPONSE: ["fw", "pc"] }, "responseTooMany"],
    [hotspotItem, { RESPONSE: ["nas"] }, "responseInvalid"],
    [pointItem, { RESPONSE: ["401 10"] }, "responseInvalid"],
    [pointItem, { RESPONSE: ["-1 10"] }, "responseInvalid"],
    [pointItem, { RESPONSE: ["12.5 10"] }, "responseInvalid"],
    [orderItem, { RESPONSE: ["pc", "pc"] }, "responseInvalid"],
    [graphicAssociateItem, { RESPONSE: ["pc router", "pc fw"] }, "responseTooMany"],
    [graphicGapItem, { RESPONSE: ["lock fw", "globe fw"] }, "responseTooMany"],
    [graphicGapItem, { RESPONSE: ["fw lock"] }, "responseInvalid"],
  ])("%#: %j is refused (%s)", (xml, raw, code) => {
    const item = parseItem(xml);
    let error: unknown = null;
    try {
      toResponses(item, raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as ResponseError).code).toBe(code);
  });
});

describe("the learner's view holds nothing that gives the answer away", () => {
  it.each([
    ["hot text", hottextItem, []],
    ["associate", associateItem, ["tcp http", "udp dns"]],
    ["hotspot", hotspotItem, []],
    ["select point", pointItem, ["200 150", "200,150,40", "0,0,120,70"]],
    ["graphic order", orderItem, ["pc fw"]],
    ["graphic associate", graphicAssociateItem, ["pc fw"]],
    ["graphic gap match", graphicGapItem, ["lock fw", "globe router"]],
    ["gap match with pictures", gapImagesItem, ["stop g1", "yield g2"]],
  ])("%s", (_, xml, secrets) => {
    const json = JSON.stringify(itemView(parseItem(xml), "seed-1"));
    expect(json).not.toMatch(/correct|mapping|mapped|areaMap/i);
    for (const s of secrets) expect(json).not.toContain(s);
  });
  it("a hotspot's areas are drawn, and none of them is marked as the right one", () => {
    const [i] = viewInteractions(itemView(parseItem(hotspotItem), "s"));
    if (i?.type !== "hotspot") throw new Error("not a hotspot");
    expect(i.hotspots.map((h) => Object.keys(h).sort())).toEqual(
      i.hotspots.map(() => ["coords", "identifier", "label", "matchMax", "shape"]),
    );
    expect(i.hotspots.map((h) => h.coords)).toEqual([
      [10, 10, 110, 60],
      [200, 150, 40],
      [300, 200, 380, 200, 340, 280],
    ]);
  });
});

describe("plain form controls and back (the page without JavaScript)", () => {
  it.each([
    ["hot text checkboxes", hottextItem, { "r::RESPONSE": ["h2", "h4"] }, { RESPONSE: ["h2", "h4"] }],
    [
      "associate: a pair of selects per slot, an empty slot left out",
      associateItem,
      {
        "r::RESPONSE::pair::1::a": ["tcp"],
        "r::RESPONSE::pair::1::b": ["http"],
        "r::RESPONSE::pair::2::a": [""],
        "r::RESPONSE::pair::2::b": [""],
      },
      { RESPONSE: ["tcp http"] },
    ],
    [
      "associate: half a pair is sent, to be refused",
      associateItem,
      { "r::RESPONSE::pair::1::a": ["tcp"], "r::RESPONSE::pair::1::b": [""] },
      { RESPONSE: ["tcp"] },
    ],
    ["hotspot radios", hotspotItem, { "r::RESPONSE": ["fw"] }, { RESPONSE: ["fw"] }],
    [
      "graphic order by positions",
      orderItem,
      { "r::RESPONSE::pos::router": ["3"], "r::RESPONSE::pos::fw": ["2"], "r::RESPONSE::pos::pc": ["1"] },
      { RESPONSE: ["pc", "fw", "router"] },
    ],
    [
      "gap match with pictures: a select per gap, the picture's identifier its value",
      gapImagesItem,
      { "r::RESPONSE::gap::g1": ["stop"], "r::RESPONSE::gap::g2": [""] },
      { RESPONSE: ["stop g1"] },
    ],
    [
      "graphic gap match: a select per hotspot",
      graphicGapItem,
      { "r::RESPONSE::spot::router": ["globe"], "r::RESPONSE::spot::fw": ["lock"] },
      { RESPONSE: ["globe router", "lock fw"] },
    ],
    [
      "select point typed as x and y",
      pointItem,
      { "r::RESPONSE::x::1": ["210"], "r::RESPONSE::y::1": [" 160 "] },
      { RESPONSE: ["210 160"] },
    ],
    [
      "select point clicked on the image: the click wins over the typed point",
      pointItem,
      {
        "r::RESPONSE::x::1": ["1"],
        "r::RESPONSE::y::1": ["1"],
        "r::RESPONSE::click.x": ["205"],
        "r::RESPONSE::click.y": ["148"],
      },
      { RESPONSE: ["205 148"] },
    ],
    [
      "select point: Enter in another field posts the image button at (0, 0), which is no click",
      pointItem,
      {
        "r::RESPONSE::x::1": ["210"],
        "r::RESPONSE::y::1": ["160"],
        "r::RESPONSE::click.x": ["0"],
        "r::RESPONSE::click.y": ["0"],
      },
      { RESPONSE: ["210 160"] },
    ],
    [
      "two points: a click is added after the typed one",
      insideRules,
      {
        "r::RESPONSE::x::1": ["50"],
        "r::RESPONSE::y::1": ["50"],
        "r::RESPONSE::click.x": ["320"],
        "r::RESPONSE::click.y": ["205"],
      },
      { RESPONSE: ["50 50", "320 205"] },
    ],
  ])("%s", (_, xml, posted, expected) => {
    const view = itemView(parseItem(xml), "seed");
    const raw = responsesFromForm(view, "r", (name) => (posted as Record<string, string[]>)[name] ?? []);
    expect(raw).toEqual(expected);
  });

  it("slots: as many pairs as max-associations allows, never more than the possible pairs", () => {
    const [a] = viewInteractions(itemView(parseItem(associateItem), "s"));
    const [g] = viewInteractions(
      itemView(parseItem(graphicAssociateItem.replace(`max-associations="2"`, `max-associations="0"`)), "s"),
    );
    if (a?.type !== "associate" || g?.type !== "graphicAssociate") throw new Error("wrong types");
    expect(associationSlots(a)).toBe(2);
    expect(associationSlots(g)).toBe(3);
  });

  it("what the page shows again on resume is what was saved", () => {
    const [a] = viewInteractions(itemView(parseItem(associateItem), "s"));
    const shown = savedValues({ RESPONSE: ["http tcp", "dns udp"] }, a!);
    expect([shown.pairAt(1), shown.pairAt(2), shown.pairAt(3)]).toEqual([
      ["http", "tcp"],
      ["dns", "udp"],
      ["", ""],
    ]);
  });
});

/** Decision 068: an upload interaction, a file the learner sends and a person scores. */
const uploadItem = (decl = `cardinality="single" base-type="file"`, type = ` type="application/pdf image/png"`) =>
  `<qti-assessment-item ${NS} identifier="plan" title="Network plan">
  <qti-response-declaration identifier="RESPONSE" ${decl}/>
  ${SCORE}
  <qti-item-body>
    <qti-upload-interaction response-identifier="RESPONSE"${type}>
      <qti-prompt>Send the plan of your office network.</qti-prompt>
    </qti-upload-interaction>
  </qti-item-body>
</qti-assessment-item>`;
const FILE_ID = "0b7e5a4e-8a53-4a4b-9d2c-3f1e2d4c5b6a";

describe("an upload interaction (decision 068)", () => {
  it("is delivered: its response, prompt and MIME types; a person scores it", () => {
    const item = parseItem(uploadItem());
    const [i] = viewInteractions(itemView(item, "s"));
    expect(i).toMatchObject({ type: "upload", response: "RESPONSE", types: ["application/pdf", "image/png"] });
    expect(JSON.stringify(i)).toContain("Send the plan of your office network.");
    expect(item.needsPerson).toBe(true);
  });

  it.each([
    [undefined, []],
    ["", []],
    ["application/pdf", ["application/pdf"]],
    ["application/pdf, IMAGE/PNG application/pdf", ["application/pdf", "image/png"]],
    ["pdf image/*", ["image/*"]],
    ["text/plain;charset=utf-8", []],
  ])("type=%j is the MIME list %j", (attr, list) => {
    expect(mimeTypesOf(attr)).toEqual(list);
  });

  it.each([
    [`cardinality="single" base-type="string"`, /base-type="file" cardinality="single"/],
    [`cardinality="multiple" base-type="file"`, /base-type="file" cardinality="single"/],
  ])("a response declared %s is refused with the item named", (decl, why) => {
    let error: unknown = null;
    try {
      parseItem(uploadItem(decl));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QtiError);
    expect((error as QtiError).code).toBe("qtiInvalid");
    expect((error as Error).message).toMatch(/item "plan"/);
    expect((error as Error).message).toMatch(why);
  });

  it.each([
    [{ RESPONSE: [FILE_ID] }, null],
    [{ RESPONSE: [] }, null],
    [{ RESPONSE: ["plan.pdf"] }, "responseInvalid"],
    [{ RESPONSE: ["../../etc/passwd"] }, "responseInvalid"],
    [{ RESPONSE: [FILE_ID, "1b7e5a4e-8a53-4a4b-9d2c-3f1e2d4c5b6a"] }, "responseTooMany"],
  ])("%j: %s", (raw, code) => {
    const item = parseItem(uploadItem());
    let error: unknown = null;
    try {
      toResponses(item, raw);
    } catch (e) {
      error = e;
    }
    if (code === null) expect(error).toBeNull();
    else expect((error as ResponseError).code).toBe(code);
  });

  it("answered once a file is stored for it; scored by a person, never by the server", () => {
    const item = parseItem(uploadItem());
    expect(scoreItem(item, toResponses(item, { RESPONSE: [FILE_ID] })).responded).toBe(true);
    expect(scoreItem(item, toResponses(item, { RESPONSE: [] })).responded).toBe(false);
  });

  it("the form gives no value for it: the file is sent apart and an empty input keeps the one stored", () => {
    const view = itemView(parseItem(uploadItem(undefined, "")), "s");
    const form = responsesFromForm(view, "plan", () => ["C:\\fakepath\\plan.pdf"]);
    expect(form).toEqual({});
  });
});
