import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createLiteI18n, I18nProvider } from "~/common/i18n";
import assessment from "../../../locales/en-US/assessment.json";
import qti from "../../../locales/en-US/qti.json";
import { parseItem } from "#domain/qti/item";
import { itemView } from "#domain/qti/view";
import type { RawResponses } from "#domain/qti/responses";
import { QtiItem } from "./qti-item";

/** Decision 056: each new interaction as the page without JavaScript shows it. */
const render = (file: string, saved: RawResponses | null = null, readOnly = false) => {
  const item = parseItem(readFileSync(`tests/fixtures/qti-interactions/items/${file}.xml`, "utf8"));
  const i18n = createLiteI18n("en-US", { ...assessment, ...qti });
  return renderToString(
    createElement(
      I18nProvider,
      { i18n },
      createElement(QtiItem, { view: itemView(item, "seed"), itemRef: "r", saved, number: 1, readOnly }),
    ),
  );
};

/** Every control with an id has a label for it; the others are inside their label. */
function unlabelled(html: string): string[] {
  const ids = [...html.matchAll(/<(?:select|input|textarea)[^>]*\bid="([^"]+)"/g)].map((m) => m[1]!);
  return ids.filter((id) => !html.includes(`for="${id}"`));
}

describe("the new interactions as plain form controls", () => {
  it("hot text: a checkbox inside the text at each hot text, its words the label", () => {
    const html = render("hottext", { RESPONSE: ["h2"] });
    expect(html).toMatch(
      /<label class="qti__hottext"><input type="checkbox" name="r::RESPONSE" checked="" value="h2"\/> <!-- -->full: click within 24 hours<\/label>/,
    );
    expect(html).toContain("Choose up to 2.");
  });

  it("associate: pairs of labelled selects, as many as max-associations", () => {
    const html = render("associate", { RESPONSE: ["http tcp"] });
    expect(html.match(/<select /g)).toHaveLength(4);
    expect(html).toContain("Pair 2: second");
    expect(html).toMatch(/name="r::RESPONSE::pair::1::a"[^>]*>.*?<option value="http" selected=""/);
    expect(unlabelled(html)).toEqual([]);
  });

  it("hotspot: the image with its areas drawn and numbered, and a radio per area named by its label", () => {
    const html = render("hotspot", { RESPONSE: ["fw"] });
    expect(html).toContain(`alt="A small office network`);
    expect(html).toMatch(/<svg class="qti__areas" viewBox="0 0 400 300" aria-hidden="true"/);
    expect(html).toMatch(/<g class="is-chosen"><circle cx="200" cy="150" r="40"><\/circle>/);
    expect(html).toContain(`<polygon points="300 200 380 200 340 280">`);
    for (const name of ["1. Router", "2. Firewall", "Area 3"]) expect(html).toContain(`<span>${name}</span>`);
    expect(html.match(/type="radio"/g)).toHaveLength(3);
  });

  it("select point: an image button that posts the click, and x/y fields as the keyboard's way", () => {
    const html = render("select-point", { RESPONSE: ["210 160"] });
    expect(html).toMatch(
      /<input type="image" src="[^"]+" alt="Click the point on the image: A small office network[^"]*" width="400" height="300" name="r::RESPONSE::click"/,
    );
    expect(html).toMatch(/min="0" max="400" step="1" name="r::RESPONSE::x::1" value="210"/);
    expect(html).toMatch(/min="0" max="300" step="1" name="r::RESPONSE::y::1" value="160"/);
    // The saved point is marked on the image.
    expect(html).toMatch(/<circle class="qti__point-mark" cx="210" cy="160"/);
    expect(unlabelled(html)).toEqual([]);
  });

  it("graphic order, associate and gap match: a select per area, each labelled by the area", () => {
    for (const file of ["graphic-order", "graphic-associate", "graphic-gap-match"]) {
      const html = render(file);
      expect(html, file).toContain("<svg");
      expect(unlabelled(html), file).toEqual([]);
    }
    expect(render("graphic-gap-match")).toMatch(/<label for="[^"]+">Area 2<\/label>/);
  });

  it("gap match with pictures: each picture shown beside its name, a labelled select per gap offering the names", () => {
    const html = render("gap-match-images", { RESPONSE: ["stop g1"] });
    // The pictures: no alternative text of their own, the name beside them says it (no second reading).
    expect(html).toMatch(
      /<li><img src="..\/images\/stop.svg" alt="" width="40" height="40"\/> <!-- -->Stop sign<\/li>/,
    );
    expect(html).toMatch(/<li><img src="..\/images\/yield.svg" alt=""[^>]*\/> <!-- -->Yield sign<\/li>/);
    expect(html).toMatch(/<li> <!-- -->no sign<\/li>/);
    expect(html.match(/<select /g)).toHaveLength(2);
    expect(html).toMatch(
      /name="r::RESPONSE::gap::g1"[^>]*aria-label="[^"]+"[^>]*>.*?<option value="stop" selected="">Stop sign<\/option>/,
    );
    expect(html).toMatch(
      /name="r::RESPONSE::gap::g2"[^>]*>(?:(?!<\/select>).)*<option value="yield">Yield sign<\/option>/,
    );
  });

  it("review: the controls are there but do not change", () => {
    const html = render("select-point", { RESPONSE: ["210 160"] }, true);
    expect(html).toMatch(/<input type="image"[^>]*disabled=""/);
  });
});

describe("an upload (decision 068)", () => {
  const FILE = {
    id: "0b7e5a4e-8a53-4a4b-9d2c-3f1e2d4c5b6a",
    name: "plan.pdf",
    size: 52,
    type: "application/pdf",
    url: "",
  };
  const show = (saved: RawResponses | null, readOnly = false, files?: Record<string, typeof FILE>) => {
    const item = parseItem(readFileSync("tests/fixtures/qti-upload/items/plan.xml", "utf8"));
    const i18n = createLiteI18n("en-US", { ...assessment, ...qti });
    return renderToString(
      createElement(
        I18nProvider,
        { i18n },
        createElement(QtiItem, { view: itemView(item, "seed"), itemRef: "plan", saved, files, number: 1, readOnly }),
      ),
    );
  };

  it("a labelled file input in its upload's part, accepting the item's types", () => {
    const html = show(null);
    const input = /<input id="plan::RESPONSE-file"[^>]*>/.exec(html)?.[0] ?? "";
    expect(input).toContain(`type="file"`);
    expect(input).toContain(`name="file::plan::RESPONSE"`);
    expect(input).toContain(`accept="application/pdf,image/png"`);
    expect(html).toContain("Choose a file to send");
    expect(html).toContain("Accepted types: application/pdf, image/png");
    expect(unlabelled(html)).toEqual([]);
  });

  it("the file sent before, with its link, and a choice to replace it", () => {
    const html = show({ RESPONSE: [FILE.id] }, false, { RESPONSE: FILE });
    expect(html).toContain(`href="/learn/assessment-files/${FILE.id}" download="plan.pdf">plan.pdf</a>`);
    expect(html).toContain("Choose another file to replace it");
  });

  it("in review: the file's link, or that none was sent; no input", () => {
    expect(show({ RESPONSE: [FILE.id] }, true, { RESPONSE: FILE })).toContain("plan.pdf</a>");
    const none = show(null, true);
    expect(none).toContain("No file was sent.");
    expect(none).not.toContain('type="file"');
  });
});
