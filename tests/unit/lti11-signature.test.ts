import { describe, expect, it } from "vitest";
import { hmacsign } from "oauth-sign";
import { signatureValid, signOAuth } from "../../api/lti/lti11";

/**
 * Issue 14 item 3: the LTI 1.1 launch's OAuth 1.0a HMAC-SHA1 signature. The published vector is OAuth
 * Core 1.0 Appendix A.5 (the "photos.example.net" example RFC 5849 §1.2 walks through).
 */
describe("OAuth 1.0a HMAC-SHA1 (OAuth Core 1.0 Appendix A.5 / RFC 5849 §1.2)", () => {
  it("the signer reproduces the published signature", () => {
    const signature = hmacsign(
      "GET",
      "http://photos.example.net/photos",
      {
        file: "vacation.jpg",
        size: "original",
        oauth_consumer_key: "dpf43f3p2l4k3l03",
        oauth_token: "nnch734d00sl2jdk",
        oauth_signature_method: "HMAC-SHA1",
        oauth_timestamp: "1191242096",
        oauth_nonce: "kllo9940pd9333jh",
        oauth_version: "1.0",
      },
      "kd94hf93k423kf44",
      "pfkkdhi9sl3r4s00",
    );
    expect(signature).toBe("tR3+Ty81lMeYAr/Fid0kMTYa/WM=");
  });
});

describe("LTI 1.1 launch signature", () => {
  const tool = { consumerKey: "quiz-key", secret: "s3cret" };
  const now = new Date("2026-11-23T12:00:00Z");
  const params = { lti_message_type: "basic-lti-launch-request", lti_version: "LTI-1p0", resource_link_id: "r1" };

  it("adds the OAuth parameters and a signature the tool can check with the shared secret", () => {
    const fields = signOAuth("https://quiz.example/lti", params, tool, now, "n1");
    expect(fields).toMatchObject({
      oauth_consumer_key: "quiz-key",
      oauth_signature_method: "HMAC-SHA1",
      oauth_timestamp: String(now.getTime() / 1000),
      oauth_nonce: "n1",
      oauth_version: "1.0",
    });
    const { oauth_signature, ...rest } = fields;
    expect(oauth_signature).toBe(hmacsign("POST", "https://quiz.example/lti", rest, "s3cret", ""));
    expect(signatureValid("https://quiz.example/lti", fields, "s3cret")).toBe(true);
  });

  it("signs a launch URL's own query parameters too (RFC 5849 §3.4.1.3.1)", () => {
    const fields = signOAuth("https://quiz.example/lti?course=7", params, tool, now, "n2");
    const { oauth_signature, ...rest } = fields;
    expect(oauth_signature).toBe(hmacsign("POST", "https://quiz.example/lti", { ...rest, course: "7" }, "s3cret", ""));
  });

  it("refuses a forged signature, a tampered parameter, another secret and another method", () => {
    const fields = signOAuth("https://quiz.example/lti", params, tool, now, "n3");
    expect(signatureValid("https://quiz.example/lti", { ...fields, oauth_signature: "AAAA" }, "s3cret")).toBe(false);
    expect(signatureValid("https://quiz.example/lti", { ...fields, resource_link_id: "r2" }, "s3cret")).toBe(false);
    expect(signatureValid("https://quiz.example/lti", fields, "other")).toBe(false);
    expect(
      signatureValid("https://quiz.example/lti", { ...fields, oauth_signature_method: "PLAINTEXT" }, "s3cret"),
    ).toBe(false);
  });
});
