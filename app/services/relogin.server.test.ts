import { describe, expect, it } from "vitest";
import { reloginFramePage } from "./relogin.server";

/** The re-login frame page (spec 8) echoed request text into its HTML. */
const config = { appUrl: "https://learn.example", production: true };
const page = (query: string) =>
  reloginFramePage(new Request(`https://learn.example/oidc/login?${query}`), "en-US", config).text();

describe("the re-login frame page holds nothing of the request but the safe target", () => {
  const hostile = [
    [
      "a script-ending redirectUrl",
      `redirectUrl=${encodeURIComponent("/learn/</script><img src=x onerror=alert(1)>")}`,
    ],
    ["an attribute-ending redirectUrl", `redirectUrl=${encodeURIComponent('/learn/"><b id=injected>')}`],
    ["another site", `redirectUrl=${encodeURIComponent("https://evil.example/<b>")}`],
    ["a protocol-relative target", `redirectUrl=${encodeURIComponent("/.//evil.example")}`],
    ["a hostile provider", `provider=${encodeURIComponent('"><b id=injected>')}`],
    ["any other parameter", `x=${encodeURIComponent("<b id=injected>")}&redirectUrl=/learn`],
    ["a line separator", `redirectUrl=${encodeURIComponent("/learn/\u2028alert(1)//")}`],
  ];
  it.each(hostile)("%s", async (_name, query) => {
    const html = await page(query);
    // No markup of the request's: what the rule keeps of a path is percent-encoded text.
    expect(html).not.toMatch(/<b\b|<img|\sid=injected|evil\.example|\u2028/);
    expect(html.match(/<[a-z]/gi)?.length).toBe(9);
    // One script element only, ours.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });

  it("keeps a same-origin target and a provider name, in the link and the message", async () => {
    const html = await page(`redirectUrl=${encodeURIComponent("/learn/courses?keyword=a&page=2")}&provider=azure_ad`);
    expect(html).toContain(
      `href="/oidc/login?redirectUrl=%2Flearn%2Fcourses%3Fkeyword%3Da%26page%3D2&#38;provider=azure_ad"`,
    );
    expect(html).toContain(
      `{"type":"re-login","redirectUrl":"/learn/courses?keyword=a&page=2"}`.replace("&", "\\u0026"),
    );
  });

  it("falls back to /learn for anything the redirect rule refuses", async () => {
    const html = await page(`redirectUrl=${encodeURIComponent("javascript:alert(1)")}`);
    expect(html).toContain(`"redirectUrl":"/learn"`);
    expect(html).not.toContain("javascript");
  });
});
