import { describe, expect, it } from "vitest";
import { DisplayMode } from "./vocabulary";
import {
  customFrameSize,
  customParameters,
  documentTarget,
  formActionSources,
  framePolicy,
  framePolicyProblems,
  launchClaims,
  LTI_CLAIM,
  membershipRoles,
  nrpsRoleFilter,
  personalClaims,
  personalParameters,
  sameOriginPath,
  scoreOutcome,
} from "./lti";

const facts = {
  issuer: "https://lms.example",
  clientId: "c1",
  deploymentId: "d1",
  userId: "u1",
  nonce: "n1",
  targetLinkUri: "https://tool.example/launch",
  resourceLink: { id: "p1", title: "Lab" },
  context: { id: "o1", title: "Course", label: "C-1" },
  displayMode: DisplayMode.EmbeddedCustom,
  size: { width: 800, height: 600 },
  returnUrl: "https://lms.example/learn/courses/o1/workflow/w1/view",
  locale: "de",
  custom: {},
  lineItems: { lineItems: "https://lms.example/li", lineItem: "https://lms.example/li/p1" },
  membershipsUrl: "https://lms.example/m",
  platform: { guid: "lms.example", name: "Learner app" },
  person: {},
};

describe("LTI 1.3 launch claims (LTI Core 1.3 §5.3–5.4; spec 3 display modes)", () => {
  it("names every required claim by its URI", () => {
    const c = launchClaims(facts);
    expect(c).toMatchObject({ iss: "https://lms.example", aud: "c1", sub: "u1", nonce: "n1" });
    expect(c[LTI_CLAIM.messageType]).toBe("LtiResourceLinkRequest");
    expect(c[LTI_CLAIM.version]).toBe("1.3.0");
    expect(c[LTI_CLAIM.deploymentId]).toBe("d1");
    expect(c[LTI_CLAIM.targetLinkUri]).toBe("https://tool.example/launch");
    expect(c[LTI_CLAIM.resourceLink]).toEqual({ id: "p1", title: "Lab" });
    expect(c["https://purl.imsglobal.org/spec/lti/claim/roles"]).toEqual([
      "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",
    ]);
    expect(c[LTI_CLAIM.launchPresentation]).toEqual({
      document_target: "iframe",
      return_url: facts.returnUrl,
      locale: "de",
      width: 800,
      height: 600,
    });
    expect(c["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"]).toMatchObject({
      lineitem: "https://lms.example/li/p1",
    });
  });

  it("grants every AGS scope it serves; a link the tool does not grade has the container but no line item", () => {
    expect(launchClaims(facts)[LTI_CLAIM.ags]).toEqual({
      scope: [
        "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
        "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
        "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
        "https://purl.imsglobal.org/spec/lti-ags/scope/score",
      ],
      lineitems: "https://lms.example/li",
      lineitem: "https://lms.example/li/p1",
    });
    const ungraded = launchClaims({ ...facts, lineItems: { lineItems: "https://lms.example/li", lineItem: null } });
    expect(ungraded[LTI_CLAIM.ags]).toEqual({
      scope: expect.any(Array),
      lineitems: "https://lms.example/li",
    });
  });

  it.each([
    [DisplayMode.Fullscreen, "window"],
    [DisplayMode.EmbeddedAuto, "iframe"],
    [DisplayMode.EmbeddedCustom, "iframe"],
  ] as const)("display mode %s opens in a %s", (mode, target) => {
    expect(documentTarget(mode)).toBe(target);
  });
});

describe("a tool's Score (AGS 2.0 §3.4; issue 14 item 4)", () => {
  it.each([
    // given, max, activity, grading, activity max → score, finishes
    [8, 10, "Completed", "FullyGraded", 100, 80, true],
    [8, 10, "InProgress", "Pending", 100, null, false],
    [3, 4, "Submitted", "FullyGraded", 10, 7.5, true],
    [12, 10, "Completed", "FullyGraded", 10, 10, true],
    [null, null, "Completed", "NotReady", 10, null, true],
    [5, 10, "Completed", "FullyGraded", null, null, true],
  ] as const)("%s/%s %s %s on a %s-point activity → %s, finishes %s", (g, m, a, gr, max, score, finishes) => {
    expect(scoreOutcome({ scoreGiven: g, scoreMaximum: m, activityProgress: a, gradingProgress: gr }, max)).toEqual({
      score,
      finishes,
    });
  });
});

describe("the bridge's do_navigation (issue 14 item 6)", () => {
  it.each([
    ["/learn/courses", "/learn/courses"],
    ["https://evil.example/", null],
    ["//evil.example/x", null],
    ["/\\evil.example", null],
    ["javascript:alert(1)", null],
  ])("%s → %s", (target, out) => {
    expect(sameOriginPath(target)).toBe(out);
  });
});

describe("a tool's frame (issue 14 item 5; HTML iframe sandbox and allow)", () => {
  it.each([
    [{ sandbox: "allow-scripts allow-same-origin", allow: "fullscreen; camera 'self'" }, []],
    [{ sandbox: "allow-everything" }, ['sandbox: "allow-everything" is not an iframe sandbox token']],
    [{ allow: "camera; <script>" }, ['allow: "<script>" is not a Permissions Policy directive']],
    [{ allow: "microphone https://tool.example" }, []],
    [{}, []],
  ])("%o → %o", (policy, problems) => {
    expect(framePolicyProblems(policy)).toEqual(problems);
  });
  it("gives a tool without a policy full screen and the clipboard, and no sandbox", () => {
    expect(framePolicy(null)).toEqual({ allow: "fullscreen; clipboard-write", sandbox: null });
    expect(framePolicy({})).toEqual({ allow: "fullscreen; clipboard-write", sandbox: null });
  });
  it("keeps scripts and forms in a sandbox (the launch posts a form into the frame)", () => {
    expect(framePolicy({ sandbox: "allow-popups", allow: "camera" })).toEqual({
      allow: "camera",
      sandbox: "allow-scripts allow-forms allow-popups",
    });
    expect(framePolicy({ sandbox: "" }).sandbox).toBe("allow-scripts allow-forms");
  });
  it.each([
    [
      { width: 800, height: 600 },
      { width: 800, height: 600 },
    ],
    [{ width: null, height: 600 }, null],
    [{ width: 50, height: 600 }, null],
    [{ width: 800, height: 99999 }, null],
  ])("EmbeddedCustom's size from the activity's preferred %o → %o", (preferred, size) => {
    expect(customFrameSize(preferred)).toEqual(size);
  });
});

describe("a launch page's form-action (issue 32 item 1)", () => {
  it("names each address by scheme, host, port and path — never the query — once each", () => {
    expect(
      formActionSources([
        "http://127.0.0.1:4000/login?iss=x&login_hint=y",
        "https://lms.example/learn/lti/authorize",
        "https://lms.example/learn/lti/authorize",
      ]),
    ).toBe("http://127.0.0.1:4000/login https://lms.example/learn/lti/authorize");
  });

  it("keeps a path's ; and , from ending the directive, and leaves out what is not an http(s) URL", () => {
    expect(
      formActionSources(["https://tool.example/a;b,c", "javascript:alert(1)", "not a url", "https://u:p@x.example/"]),
    ).toBe("https://tool.example/a%3Bb%2Cc");
    expect(formActionSources([])).toBe("'none'");
  });
});

describe("custom parameters and NRPS roles (issue 32 items 2 and 3)", () => {
  const facts = {
    userId: "u1",
    context: { id: "c1", title: "Course", label: "C-1" },
    resourceLink: { id: "r1", title: "Lab" },
  };
  it("replaces the substitution variables it knows and sends any other value as written", () => {
    expect(
      customParameters(
        {
          who: "$User.id",
          course: "$Context.label",
          link: "$ResourceLink.id",
          other: "$Person.name.full",
          plain: "x",
          n: 3,
        },
        facts,
      ),
    ).toEqual({ who: "u1", course: "C-1", link: "r1", other: "$Person.name.full", plain: "x" });
    expect(customParameters(undefined, facts)).toEqual({});
  });

  it("maps a member to context roles, and a role filter by URI or short name", () => {
    expect(membershipRoles({ learner: true, instructor: true })).toEqual([
      "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
      "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",
    ]);
    expect(nrpsRoleFilter("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner")).toBe("Learner");
    expect(nrpsRoleFilter("Instructor")).toBe("Instructor");
    expect(nrpsRoleFilter("Mentor")).toBeNull();
  });
});

describe("what a tool learns of the person, by its privacy level (issue 52 item 6)", () => {
  const ada = { firstName: "Ada", middleName: "King", lastName: "Lovelace", email: "ada@example.com" };
  it.each([
    [undefined, {}],
    ["anonymous", {}],
    ["name", { name: "Ada King Lovelace", given_name: "Ada", middle_name: "King", family_name: "Lovelace" }],
    ["email", { email: "ada@example.com" }],
    [
      "public",
      {
        name: "Ada King Lovelace",
        given_name: "Ada",
        middle_name: "King",
        family_name: "Lovelace",
        email: "ada@example.com",
      },
    ],
  ] as const)("%s → %j", (privacy, claims) => {
    expect(personalClaims(privacy, ada)).toEqual(claims);
  });

  it("LTI 1.1 carries the same as lis_person_* parameters; anonymous carries none", () => {
    expect(personalParameters("public", { ...ada, middleName: null })).toEqual({
      lis_person_name_full: "Ada Lovelace",
      lis_person_name_given: "Ada",
      lis_person_name_family: "Lovelace",
      lis_person_contact_email_primary: "ada@example.com",
    });
    expect(personalParameters("anonymous", ada)).toEqual({});
    expect(personalParameters("email", ada)).toEqual({ lis_person_contact_email_primary: "ada@example.com" });
  });

  it("the launch's id_token holds the person's claims beside sub, never in place of it", () => {
    const c = launchClaims({ ...facts, person: personalClaims("name", ada) });
    expect(c).toMatchObject({ sub: "u1", given_name: "Ada", family_name: "Lovelace" });
    expect(c).not.toHaveProperty("email");
    expect(launchClaims(facts)).not.toHaveProperty("name");
  });
});
