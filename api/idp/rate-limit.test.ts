import { describe, expect, it } from "vitest";
import { LoginRateLimiter } from "./rate-limit";

describe("sign-in rate limit", () => {
  it("blocks an e-mail after 5 failures from one address, for the rest of the window", () => {
    let now = 0;
    const l = new LoginRateLimiter(() => now);
    for (let i = 0; i < 5; i++) {
      expect(l.blockedFor("1.1.1.1", "a@x")).toBe(0);
      l.fail("1.1.1.1", "a@x");
    }
    expect(l.blockedFor("1.1.1.1", "A@X")).toBe(LoginRateLimiter.WINDOW_MS);
    expect(l.blockedFor("2.2.2.2", "a@x")).toBe(0);
    now += LoginRateLimiter.WINDOW_MS;
    expect(l.blockedFor("1.1.1.1", "a@x")).toBe(0);
  });

  it("a success clears the e-mail's failures; many e-mails from one address are limited too", () => {
    const l = new LoginRateLimiter(() => 1000);
    for (let i = 0; i < 4; i++) l.fail("ip", "a@x");
    l.succeed("ip", "a@x");
    expect(l.blockedFor("ip", "a@x")).toBe(0);
    for (let i = 0; i < LoginRateLimiter.MAX_PER_IP; i++) l.fail("ip", `u${i}@x`);
    expect(l.blockedFor("ip", "fresh@x")).toBeGreaterThan(0);
  });
});
