import { afterEach, describe, expect, it, vi } from "vitest";
import { testAppConfig } from "../tests/fixtures/app-config";
import { RouterContextProvider, type EntryContext } from "react-router";
import { appLoadContext } from "~/services/config.server";

// The document's routes are not what this test is about: a one-paragraph page stands for them.
vi.mock("react-router", async (original) => ({
  ...(await original<typeof import("react-router")>()),
  ServerRouter: ({ url }: { url: string }) => <p>{`The page at ${url}`}</p>,
}));
vi.mock("./services/i18n.server", () => ({
  getInstance: () => ({ language: "en", dir: () => "ltr", t: (key: string) => key }),
}));

const { default: handleRequest } = await import("./entry.server");

function context() {
  const config = testAppConfig();
  const provider = new RouterContextProvider();
  provider.set(appLoadContext, { config, lmsTransport: () => new Response(), sessions: null as never });
  return provider;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a document's render is let go once it is sent (issue 27: memory under load)", () => {
  it("leaves no timer behind that would hold the request, its data and React's state for seconds", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const pages = await Promise.all(
      ["/learn", "/learn/courses", "/learn/catalog"].map(async (path) => {
        const response = await handleRequest(
          new Request(`http://localhost:3000${path}`),
          200,
          new Headers(),
          {} as EntryContext,
          context(),
        );
        return response.text();
      }),
    );
    expect(pages[1]).toContain("The page at http://localhost:3000/learn/courses");
    // The body's stream closes a tick after its last byte was read.
    await new Promise((resolve) => setImmediate(resolve));
    expect(vi.getTimerCount()).toBe(0);
  });

  it("arms the cut-off while the page renders, and clears it once the page is sent", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const answer = handleRequest(
      new Request("http://localhost:3000/learn"),
      200,
      new Headers(),
      {} as EntryContext,
      context(),
    );
    expect(vi.getTimerCount()).toBe(1);
    await (await answer).text();
    await new Promise((resolve) => setImmediate(resolve));
    expect(vi.getTimerCount()).toBe(0);
  });
});
