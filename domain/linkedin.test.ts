import { describe, expect, it } from "vitest";
import { linkedInAddToProfileUrl } from "./linkedin";

describe("'Add to LinkedIn profile' (issue 26: LinkedIn's Add to Profile link for certifications)", () => {
  const base = {
    name: "SQL Fundamentals — Certificate of Achievement",
    organization: "Learning Portal",
    issued: "2026-11-06T23:30:00.000Z",
    url: "https://learn.example/learn/certificate/LA-7K3Q-9XWM-4TZR-1B8D",
    number: "LA-7K3Q-9XWM-4TZR-1B8D",
  };

  it("fills name, organisation, issue month, the public URL and the number", () => {
    const url = new URL(linkedInAddToProfileUrl({ ...base, expires: null }));
    expect(url.origin + url.pathname).toBe("https://www.linkedin.com/profile/add");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: "CERTIFICATION_NAME",
      name: base.name,
      organizationName: "Learning Portal",
      issueYear: "2026",
      issueMonth: "11",
      certUrl: base.url,
      certId: base.number,
    });
  });

  it("adds the expiry month when the certificate expires; months are UTC", () => {
    const url = new URL(
      linkedInAddToProfileUrl({ ...base, issued: "2026-12-31T23:59:00.000Z", expires: "2027-12-31T23:59:00.000Z" }),
    );
    expect(url.searchParams.get("issueMonth")).toBe("12");
    expect(url.searchParams.get("expirationYear")).toBe("2027");
    expect(url.searchParams.get("expirationMonth")).toBe("12");
  });
});
