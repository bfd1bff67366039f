import { describe, expect, it } from "vitest";
import { parseFilter } from "./filter-expression";
import { FILTER_FIELDS, FILTER_LIMITS, type FilterNode } from "./filter-expression/fields";
import { andAll, formatFilter } from "./filter-expression/format";
import { normaliseIsoDateTime } from "./filter-expression/values";

const U1 = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b";
const U2 = "0e9d8c7b-6a59-4847-b635-241302f1e0d9";

function tree(input: string): FilterNode | null {
  const result = parseFilter(input);
  if (!result.ok) throw new Error(`expected ok for ${JSON.stringify(input)}, got: ${result.error}`);
  return result.tree;
}

const nameContains = (v: string): FilterNode => ({
  kind: "cmp",
  field: "objective.name",
  op: "contains",
  value: v,
});
const mandatory: FilterNode = {
  kind: "cmp",
  field: "isMandatory",
  op: "eq",
  value: true,
};
const selfEnrolled: FilterNode = {
  kind: "cmp",
  field: "isSelfEnrolled",
  op: "eq",
  value: true,
};
const retake: FilterNode = {
  kind: "cmp",
  field: "retake",
  op: "eq",
  value: false,
};

describe("parseFilter: valid shapes", () => {
  const cases: [string, string, FilterNode | null][] = [
    ["empty input", "", null],
    ["whitespace only", "  \t\r\n ", null],
    [
      "string eq",
      "objective.name eq 'Python 101'",
      { kind: "cmp", field: "objective.name", op: "eq", value: "Python 101" },
    ],
    ["string ne", "objective.code ne 'PY-1'", { kind: "cmp", field: "objective.code", op: "ne", value: "PY-1" }],
    ["contains", "objective.name contains 'python'", nameContains("python")],
    [
      "startswith",
      "objective.code startswith 'PY'",
      { kind: "cmp", field: "objective.code", op: "startswith", value: "PY" },
    ],
    ["empty string", "objective.name eq ''", { kind: "cmp", field: "objective.name", op: "eq", value: "" }],
    ["integer", "objective.state eq 2", { kind: "cmp", field: "objective.state", op: "eq", value: 2 }],
    [
      "integer lower bound",
      "objective.presentationMode eq 0",
      { kind: "cmp", field: "objective.presentationMode", op: "eq", value: 0 },
    ],
    [
      "negative -0 normalised",
      "objective.presentationMode eq -0",
      { kind: "cmp", field: "objective.presentationMode", op: "eq", value: 0 },
    ],
    [
      "activity state (int32)",
      "objective.activity.state ne -5",
      { kind: "cmp", field: "objective.activity.state", op: "ne", value: -5 },
    ],
    ["integer in", "objective.state in (1, 2,3)", { kind: "in", field: "objective.state", values: [1, 2, 3] }],
    ["single-value in", "objective.state in (4)", { kind: "in", field: "objective.state", values: [4] }],
    [
      "workflow lt",
      "lastObjectiveWorkflow.state lt 6",
      { kind: "cmp", field: "lastObjectiveWorkflow.state", op: "lt", value: 6 },
    ],
    [
      "workflow ge",
      "lastObjectiveWorkflow.state ge 1",
      { kind: "cmp", field: "lastObjectiveWorkflow.state", op: "ge", value: 1 },
    ],
    [
      "workflow is null",
      "lastObjectiveWorkflow.state is null",
      { kind: "null", field: "lastObjectiveWorkflow.state", negated: false },
    ],
    ["boolean true", "isMandatory eq true", mandatory],
    ["boolean false ne", "retake ne false", { kind: "cmp", field: "retake", op: "ne", value: false }],
    ["uuid eq (lower-cased)", `termId eq '${U1.toUpperCase()}'`, { kind: "cmp", field: "termId", op: "eq", value: U1 }],
    ["uuid in", `showcaseId in ('${U1}', '${U2}')`, { kind: "in", field: "showcaseId", values: [U1, U2] }],
    ["uuid is null", "termId is null", { kind: "null", field: "termId", negated: false }],
    ["uuid is not null", "showcaseId is not null", { kind: "null", field: "showcaseId", negated: true }],
    ["eq null is is null", "termId eq null", { kind: "null", field: "termId", negated: false }],
    ["ne null is is not null", "dueDate ne null", { kind: "null", field: "dueDate", negated: true }],
    ["presence is null", "lastObjectiveRecord is null", { kind: "null", field: "lastObjectiveRecord", negated: false }],
    [
      "presence is not null",
      "lastObjectiveRecord is not null",
      { kind: "null", field: "lastObjectiveRecord", negated: true },
    ],
    [
      "date with Z",
      "dueDate lt '2024-05-01T10:00:00Z'",
      {
        kind: "cmp",
        field: "dueDate",
        op: "lt",
        value: "2024-05-01T10:00:00.000Z",
      },
    ],
    [
      "date with offset",
      "availabilityDate ge '2024-05-01T12:30+02:00'",
      {
        kind: "cmp",
        field: "availabilityDate",
        op: "ge",
        value: "2024-05-01T10:30:00.000Z",
      },
    ],
    [
      "date only",
      "availabilityEndDate le '2024-02-29'",
      {
        kind: "cmp",
        field: "availabilityEndDate",
        op: "le",
        value: "2024-02-29T00:00:00.000Z",
      },
    ],
    [
      "date fraction truncated",
      "dueDate gt '2024-01-01T00:00:00.123456Z'",
      {
        kind: "cmp",
        field: "dueDate",
        op: "gt",
        value: "2024-01-01T00:00:00.123Z",
      },
    ],
    [
      "enum eq",
      "gradeRevealPolicy eq 'afterFinish'",
      {
        kind: "cmp",
        field: "gradeRevealPolicy",
        op: "eq",
        value: "afterFinish",
      },
    ],
    [
      "enum in",
      "gradeRevealPolicy in ('none','never')",
      { kind: "in", field: "gradeRevealPolicy", values: ["none", "never"] },
    ],
    [
      "and chain flattened",
      "isMandatory eq true and isSelfEnrolled eq true and retake eq false",
      { kind: "and", children: [mandatory, selfEnrolled, retake] },
    ],
    [
      "or chain flattened",
      "isMandatory eq true or isSelfEnrolled eq true or retake eq false",
      { kind: "or", children: [mandatory, selfEnrolled, retake] },
    ],
    ["not", "not isMandatory eq true", { kind: "not", child: mandatory }],
    ["not not", "not not isMandatory eq true", { kind: "not", child: { kind: "not", child: mandatory } }],
    ["redundant parens", "((isMandatory eq true))", mandatory],
    [
      "no spaces around parens",
      "(isMandatory eq true)and(retake eq false)",
      { kind: "and", children: [mandatory, retake] },
    ],
    [
      "spec example",
      `objective.name contains 'python' and (isMandatory eq true or isSelfEnrolled eq true) and termId in ('${U1}', '${U2}')`,
      {
        kind: "and",
        children: [
          nameContains("python"),
          { kind: "or", children: [mandatory, selfEnrolled] },
          { kind: "in", field: "termId", values: [U1, U2] },
        ],
      },
    ],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(parseFilter(input)).toEqual({ ok: true, tree: expected });
  });
});

describe("parseFilter: precedence", () => {
  const cases: [string, string, FilterNode][] = [
    [
      "and binds tighter than or (left)",
      "isMandatory eq true and isSelfEnrolled eq true or retake eq false",
      {
        kind: "or",
        children: [{ kind: "and", children: [mandatory, selfEnrolled] }, retake],
      },
    ],
    [
      "and binds tighter than or (right)",
      "isMandatory eq true or isSelfEnrolled eq true and retake eq false",
      {
        kind: "or",
        children: [mandatory, { kind: "and", children: [selfEnrolled, retake] }],
      },
    ],
    [
      "parentheses override",
      "isMandatory eq true and (isSelfEnrolled eq true or retake eq false)",
      {
        kind: "and",
        children: [mandatory, { kind: "or", children: [selfEnrolled, retake] }],
      },
    ],
    [
      "not binds tighter than and",
      "not isMandatory eq true and retake eq false",
      { kind: "and", children: [{ kind: "not", child: mandatory }, retake] },
    ],
    [
      "not applied to a group",
      "not (isMandatory eq true or retake eq false)",
      { kind: "not", child: { kind: "or", children: [mandatory, retake] } },
    ],
    [
      "parenthesised group stays a node",
      "(isMandatory eq true and isSelfEnrolled eq true) and retake eq false",
      {
        kind: "and",
        children: [{ kind: "and", children: [mandatory, selfEnrolled] }, retake],
      },
    ],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(tree(input)).toEqual(expected);
  });
});

describe("parseFilter: case-insensitive keywords, case-sensitive fields", () => {
  const cases: [string, FilterNode][] = [
    ["isMandatory EQ TRUE", mandatory],
    ["isMandatory Eq True AND retake eQ FaLsE", { kind: "and", children: [mandatory, retake] }],
    [
      "NOT isMandatory eq true OR retake eq false",
      { kind: "or", children: [{ kind: "not", child: mandatory }, retake] },
    ],
    ["objective.name CONTAINS 'x'", nameContains("x")],
    ["objective.code StartsWith 'x'", { kind: "cmp", field: "objective.code", op: "startswith", value: "x" }],
    ["objective.state IN (1)", { kind: "in", field: "objective.state", values: [1] }],
    ["termId IS NOT NULL", { kind: "null", field: "termId", negated: true }],
    ["termId Is Null", { kind: "null", field: "termId", negated: false }],
    ["termId eq NULL", { kind: "null", field: "termId", negated: false }],
  ];
  it.each(cases)("%s", (input, expected) => {
    expect(tree(input)).toEqual(expected);
  });

  it.each(["IsMandatory eq true", "OBJECTIVE.NAME eq 'x'", "objective.Name eq 'x'"])("rejects %s", (input) => {
    const result = parseFilter(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^Unknown field/);
  });
});

describe("parseFilter: string escaping and content", () => {
  const cases: [string, string, string][] = [
    ["doubled quote", "objective.name eq 'O''Brien'", "O'Brien"],
    ["only a quote", "objective.name eq ''''", "'"],
    ["two quotes", "objective.name eq ''''''", "''"],
    ["keywords inside string", "objective.name eq 'a and b or not c'", "a and b or not c"],
    ["parens and commas inside string", "objective.name eq '(x, y)'", "(x, y)"],
    ["sql-ish text is just data", "objective.name eq 'x''; drop table users; --'", "x'; drop table users; --"],
    ["backslash is literal", "objective.name eq 'a\\b'", "a\\b"],
    ["unicode", "objective.name contains 'Grüße 日本語 🐍'", "Grüße 日本語 🐍"],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    const t = tree(input);
    expect(t && t.kind === "cmp" ? t.value : undefined).toBe(expected);
  });

  it("allows exactly the maximum string length, counting code points", () => {
    expect(parseFilter(`objective.name eq '${"a".repeat(200)}'`).ok).toBe(true);
    expect(parseFilter(`objective.name eq '${"🐍".repeat(200)}'`).ok).toBe(true);
    expect(parseFilter(`objective.name eq '${"''".repeat(200)}'`).ok).toBe(true);
  });
});

describe("parseFilter: errors", () => {
  const cases: [string, string, string, number][] = [
    ["unknown field", "password eq 'x'", "Unknown field 'password' at 0", 0],
    ["unknown field later", "isMandatory eq true and secret eq 1", "Unknown field 'secret' at 24", 24],
    ["prototype key as field", "__proto__ eq 1", "Unknown field '__proto__' at 0", 0],
    ["constructor as field", "constructor eq 1", "Unknown field 'constructor' at 0", 0],
    ["toString as field", "toString eq 1", "Unknown field 'toString' at 0", 0],
    [
      "operator not allowed",
      "isMandatory contains 'x'",
      "Operator 'contains' is not allowed for field 'isMandatory' at 12",
      12,
    ],
    ["lt on string", "objective.name lt 'x'", "Operator 'lt' is not allowed for field 'objective.name' at 15", 15],
    ["in on string", "objective.name in ('x')", "Operator 'in' is not allowed for field 'objective.name' at 15", 15],
    ["in on boolean", "retake in (true)", "Operator 'in' is not allowed for field 'retake' at 7", 7],
    [
      "is null on non-nullable",
      "isMandatory is null",
      "Operator 'is null' is not allowed for field 'isMandatory' at 12",
      12,
    ],
    [
      "is not null on non-nullable",
      "objective.state is not null",
      "Operator 'is not null' is not allowed for field 'objective.state' at 16",
      16,
    ],
    [
      "eq on presence field",
      "lastObjectiveRecord eq 1",
      "Operator 'eq' is not allowed for field 'lastObjectiveRecord' at 20",
      20,
    ],
    ["eq null on non-nullable", "isMandatory eq null", "Value null is not allowed for field 'isMandatory' at 15", 15],
    ["lt null", "dueDate lt null", "Value null can only be compared with 'eq' or 'ne' at 11", 11],
    ["null in in list", `termId in ('${U1}', null)`, "null is not allowed in an 'in' list (use 'is null') at 51", 51],
    ["unknown operator", "objective.name like 'x'", "Unknown operator 'like' at 15", 15],
    ["missing operator", "isMandatory", "Expected operator after field 'isMandatory' at 11", 11],
    ["symbol operator", "objective.state = 1", "Unexpected character '=' at 16", 16],
    [
      "missing value",
      "isMandatory eq",
      "Expected a value (a 'quoted string', number, true, false or null) but found end of input at 14",
      14,
    ],
    [
      "unquoted string",
      "gradeRevealPolicy eq none",
      "Expected a value (a 'quoted string', number, true, false or null) but found 'none' at 21",
      21,
    ],
    ["missing )", "(isMandatory eq true", "Expected ')' at 20", 20],
    ["missing ) in list", "objective.state in (1, 2", "Expected ')' at 24", 24],
    ["missing ( for in", "objective.state in 1", "Expected '(' at 19", 19],
    [
      "empty in list",
      "objective.state in ()",
      "Expected a value (a 'quoted string', number, true, false or null) but found ')' at 20",
      20,
    ],
    [
      "trailing comma in list",
      "objective.state in (1,)",
      "Expected a value (a 'quoted string', number, true, false or null) but found ')' at 22",
      22,
    ],
    ["extra )", "isMandatory eq true)", "Unexpected ')' at 19", 19],
    ["trailing garbage", "isMandatory eq true retake", "Expected 'and', 'or' or end of input at 20", 20],
    ["dangling and", "isMandatory eq true and", "Expected field name but found end of input at 23", 23],
    ["leading or", "or isMandatory eq true", "Unknown field 'or' at 0", 0],
    ["is without null", "termId is 'x'", "Expected 'null' at 10", 10],
    ["unterminated string", "objective.name eq 'abc", "Unterminated string at 18", 18],
    ["unterminated after escaped quote", "objective.name eq 'abc''", "Unterminated string at 18", 18],
    [
      "string too long",
      `objective.name eq '${"a".repeat(201)}'`,
      "String literal is too long (max 200 characters) at 18",
      18,
    ],
    ["invalid uuid", "termId eq 'abc'", "Value 'abc' is not a valid uuid for field 'termId' at 10", 10],
    ["uuid with braces", `termId eq '{${U1}}'`, `Value '{${U1}}' is not a valid uuid for field 'termId' at 10`, 10],
    ["uuid as number", "showcaseId eq 12", "Value 12 is not a valid uuid for field 'showcaseId' at 14", 14],
    [
      "uuid bad in list",
      `termId in ('${U1}', 'nope')`,
      "Value 'nope' is not a valid uuid for field 'termId' at 51",
      51,
    ],
    [
      "integer out of range high",
      "objective.state eq 5",
      "Value 5 is out of range 1..4 for field 'objective.state' at 19",
      19,
    ],
    [
      "integer out of range low",
      "lastObjectiveWorkflow.state ge 0",
      "Value 0 is out of range 1..6 for field 'lastObjectiveWorkflow.state' at 31",
      31,
    ],
    [
      "presentation mode out of range",
      "objective.presentationMode in (0, 4)",
      "Value 4 is out of range 0..3 for field 'objective.presentationMode' at 34",
      34,
    ],
    [
      "int32 overflow",
      "objective.activity.state eq 2147483648",
      "Value 2147483648 is out of range -2147483648..2147483647 for field 'objective.activity.state' at 28",
      28,
    ],
    [
      "huge integer",
      "objective.state eq 99999999999999999999",
      "Value 99999999999999999999 is not a valid integer for field 'objective.state' at 19",
      19,
    ],
    [
      "fractional integer",
      "objective.state eq 1.5",
      "Value 1.5 is not a valid integer for field 'objective.state' at 19",
      19,
    ],
    [
      "quoted integer",
      "objective.state eq '1'",
      "Value '1' is not a valid integer for field 'objective.state' at 19",
      19,
    ],
    [
      "boolean as string",
      "isMandatory eq 'true'",
      "Value 'true' is not a valid boolean (true or false) for field 'isMandatory' at 15",
      15,
    ],
    [
      "boolean as number",
      "isMandatory eq 1",
      "Value 1 is not a valid boolean (true or false) for field 'isMandatory' at 15",
      15,
    ],
    [
      "string as number",
      "objective.name eq 1",
      "Value 1 is not a valid string (quote it with '...') for field 'objective.name' at 18",
      18,
    ],
    [
      "enum case-sensitive",
      "gradeRevealPolicy eq 'AfterFinish'",
      "Value 'AfterFinish' is not a valid value (one of none, never, afterFinish, afterDate) for field 'gradeRevealPolicy' at 21",
      21,
    ],
    [
      "bad date",
      "dueDate lt 'yesterday'",
      "Value 'yesterday' is not a valid ISO-8601 date-time for field 'dueDate' at 11",
      11,
    ],
    [
      "impossible date",
      "dueDate lt '2023-02-29'",
      "Value '2023-02-29' is not a valid ISO-8601 date-time for field 'dueDate' at 11",
      11,
    ],
    [
      "date-time without offset",
      "dueDate lt '2024-01-01T10:00:00'",
      "Value '2024-01-01T10:00:00' is not a valid ISO-8601 date-time for field 'dueDate' at 11",
      11,
    ],
    ["invalid number", "objective.state eq 1abc", "Invalid number at 19", 19],
    ["double dot in field", "objective..name eq 'x'", "Unexpected character '.' at 9", 9],
    ["trailing dot in field", "objective. eq 'x'", "Unexpected character '.' at 9", 9],
    ["double-quoted string", 'objective.name eq "x"', "Unexpected character '\"' at 18", 18],
    ["number as field", "1 eq 1", "Expected field name but found '1' at 0", 0],
    ["string as field", "'x' eq 'x'", "Expected field name but found 'string' at 0", 0],
  ];
  it.each(cases)("%s", (_name, input, error, position) => {
    expect(parseFilter(input)).toEqual({ ok: false, error, position });
  });

  it("rejects input over the length limit", () => {
    const input = "isMandatory eq true" + " ".repeat(FILTER_LIMITS.maxInputLength);
    expect(parseFilter(input)).toEqual({
      ok: false,
      error: "Filter is too long (max 2000 characters) at 2000",
      position: 2000,
    });
  });

  it("accepts up to 50 comparisons and rejects the 51st", () => {
    const many = (n: number) => Array.from({ length: n }, () => "isMandatory eq true").join(" or ");
    expect(parseFilter(many(50)).ok).toBe(true);
    const result = parseFilter(many(51));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe(`Too many comparisons (max 50) at ${50 * "isMandatory eq true or ".length}`);
      expect(result.position).toBe(50 * "isMandatory eq true or ".length);
    }
  });

  it("accepts nesting depth 10 and rejects 11 (parentheses and not both count)", () => {
    const nested = (n: number) => "(".repeat(n) + "isMandatory eq true" + ")".repeat(n);
    expect(tree(nested(10))).toEqual(mandatory);
    expect(parseFilter(nested(11))).toEqual({
      ok: false,
      error: "Nesting is too deep (max 10) at 10",
      position: 10,
    });
    expect(parseFilter("not ".repeat(10) + "isMandatory eq true").ok).toBe(true);
    expect(parseFilter("not ".repeat(11) + "isMandatory eq true")).toEqual({
      ok: false,
      error: "Nesting is too deep (max 10) at 40",
      position: 40,
    });
    expect(parseFilter("not (".repeat(5) + "not isMandatory eq true" + ")".repeat(5)).ok).toBe(false);
  });

  it("accepts 100 values in an in list and rejects 101", () => {
    const list = (n: number) => `objective.activity.state in (${Array.from({ length: n }, (_, i) => i).join(",")})`;
    const ok = parseFilter(list(100));
    expect(ok.ok && ok.tree?.kind === "in" && ok.tree.values.length).toBe(100);
    const result = parseFilter(list(101));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^Too many values in 'in' list \(max 100\) at \d+$/);
  });

  it("reports the earliest error", () => {
    expect(parseFilter("password eq 'unterminated")).toMatchObject({
      ok: false,
      position: 0,
    });
    expect(parseFilter("isMandatory eq true and 'x")).toMatchObject({
      error: "Unterminated string at 24",
    });
  });
});

describe("parseFilter: hostile input never throws", () => {
  const hostile: [string, unknown][] = [
    ["sql injection after value", "objective.name eq 'x'; drop table users; --'"],
    ["classic 1=1", "1=1"],
    ["or 1=1", "objective.name eq 'x' or 1=1"],
    ["quote breakout", "objective.name eq 'x' or 'a'='a'"],
    ["comment", "isMandatory eq true -- comment"],
    ["block comment", "isMandatory eq true /* x */"],
    ["semicolon", ";"],
    ["union select", "objective.name eq 'x' union select * from users"],
    ["unbalanced open", "((((isMandatory eq true)"],
    ["unbalanced close", "isMandatory eq true))))"],
    ["only parens", "()"],
    ["only close", ")"],
    ["unicode field", "objéctive.name eq 'x'"],
    ["fullwidth letters", "ｉｓＭａｎｄａｔｏｒｙ eq true"],
    ["lone surrogate in string", "objective.name eq '\ud800'"],
    ["rtl override", "objective.name eq '\u202e'"],
    ["non-breaking space", "isMandatory\u00a0eq true"],
    ["null byte in string", "objective.name eq 'a\u0000b'"],
    ["null byte outside", "isMandatory eq true\u0000"],
    ["escape sequence", "objective.name eq '\x1b[31m'"],
    ["10,000 chars", "a".repeat(10_000)],
    ["10,000-char string literal", `objective.name eq '${"x".repeat(10_000)}'`],
    ["1,000 nested parens", "(".repeat(1000) + "isMandatory eq true" + ")".repeat(1000)],
    ["1,000 open parens within limit", "(".repeat(1000)],
    ["1,000 nots", "not ".repeat(499)],
    ["many ors", "isMandatory eq true or ".repeat(90) + "isMandatory eq true"],
    ["many quotes", "'".repeat(1999)],
    ["many commas", "objective.state in (" + ",".repeat(1900) + ")"],
    ["long in list", "objective.activity.state in (" + "1,".repeat(600) + "1)"],
    ["dash dash", "objective.state eq --1"],
    ["exponent", "objective.state eq 1e3"],
    ["hex", "objective.state eq 0x10"],
    ["infinity", "objective.state eq Infinity"],
    ["NaN", "objective.state eq NaN"],
    ["not a string: null", null],
    ["not a string: number", 42],
    ["not a string: object", { toString: () => "isMandatory eq true" }],
    ["not a string: undefined", undefined],
  ];
  it.each(hostile)("%s", (_name, input) => {
    let result: ReturnType<typeof parseFilter> | undefined;
    expect(() => {
      result = parseFilter(input as string);
    }).not.toThrow();
    expect(result).toBeDefined();
    if (result!.ok) {
      // A "safe tree": every leaf names a whitelisted field.
      const fields: string[] = [];
      const walk = (n: FilterNode) => {
        if (n.kind === "and" || n.kind === "or") n.children.forEach(walk);
        else if (n.kind === "not") walk(n.child);
        else fields.push(n.field);
      };
      if (result!.tree) walk(result!.tree);
      for (const field of fields) expect(Object.keys(FILTER_FIELDS)).toContain(field);
    } else {
      expect(typeof result!.error).toBe("string");
      expect(result!.error.length).toBeLessThan(300);
      expect(result!.position).toBeGreaterThanOrEqual(0);
    }
  });

  it.each([
    "objective.name eq 'x'; drop table users; --'",
    "1=1",
    "(".repeat(1000) + "isMandatory eq true" + ")".repeat(1000),
    "a".repeat(10_000),
    "objective.name eq 'a\u0000b'",
    "isMandatory eq true\u0000",
    "((((isMandatory eq true)",
    "isMandatory eq true))))",
  ])("rejects %j", (input) => {
    expect(parseFilter(input).ok).toBe(false);
  });

  it("does not echo control characters in error messages", () => {
    const result = parseFilter("isMandatory eq true\u0000");
    expect(result).toEqual({
      ok: false,
      error: "Unexpected character U+0000 at 19",
      position: 19,
    });
  });

  it("is fast on pathological input", () => {
    const start = performance.now();
    for (const input of [
      "'".repeat(1999),
      "(".repeat(1999),
      "a.".repeat(999) + "a",
      "1".repeat(2000),
      "' '".repeat(666),
    ]) {
      parseFilter(input);
    }
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe("normaliseIsoDateTime", () => {
  const cases: [string, string | null][] = [
    ["2024-05-01T10:00:00Z", "2024-05-01T10:00:00.000Z"],
    ["2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.500Z"],
    ["2024-05-01t10:00z", "2024-05-01T10:00:00.000Z"],
    ["2024-05-01T00:30:00-01:30", "2024-05-01T02:00:00.000Z"],
    ["2024-01-01T00:00:00+01:00", "2023-12-31T23:00:00.000Z"],
    ["0001-01-01", "0001-01-01T00:00:00.000Z"],
    ["2000-02-29", "2000-02-29T00:00:00.000Z"],
    ["1900-02-29", null],
    ["2024-13-01", null],
    ["2024-04-31", null],
    ["2024-05-01T24:00:00Z", null],
    ["2024-05-01T10:60Z", null],
    ["2024-05-01T10:00:60Z", null],
    ["2024-05-01T10:00:00.Z", null],
    ["2024-05-01T10:00:00.1234567890Z", null],
    ["2024-05-01T10:00:00+0100", null],
    ["2024-05-01 10:00:00Z", null],
    ["9999-12-31T23:00:00-02:00", null],
    ["24-05-01", null],
    ["", null],
  ];
  it.each(cases)("%s", (input, expected) => {
    expect(normaliseIsoDateTime(input)).toBe(expected);
  });
});

describe("andAll", () => {
  it("skips nulls and returns null for nothing", () => {
    expect(andAll()).toBeNull();
    expect(andAll(null, null)).toBeNull();
  });
  it("returns a single tree as is", () => {
    expect(andAll(null, mandatory, null)).toBe(mandatory);
  });
  it("combines trees and flattens top-level ands", () => {
    const client = tree("isMandatory eq true and isSelfEnrolled eq true")!;
    const standing: FilterNode = {
      kind: "null",
      field: "termId",
      negated: true,
    };
    const or = tree("retake eq false or isMandatory eq true")!;
    expect(andAll(client, null, standing, or)).toEqual({
      kind: "and",
      children: [mandatory, selfEnrolled, standing, or],
    });
    // inputs are not mutated
    expect(client).toEqual({
      kind: "and",
      children: [mandatory, selfEnrolled],
    });
  });
  it("produces a tree that formats and parses back", () => {
    const combined = andAll(tree("isMandatory eq true or retake eq false"), tree("termId is not null"))!;
    expect(formatFilter(combined)).toBe("(isMandatory eq true or retake eq false) and termId is not null");
    expect(tree(formatFilter(combined))).toEqual(combined);
  });
});

describe("formatFilter", () => {
  const roundTrip: [string, FilterNode][] = [
    [
      "string with quotes",
      {
        kind: "cmp",
        field: "objective.name",
        op: "eq",
        value: "it's a 'test'",
      },
    ],
    ["string of quotes", { kind: "cmp", field: "objective.name", op: "contains", value: "''" }],
    [
      "sql-ish string",
      {
        kind: "cmp",
        field: "objective.code",
        op: "startswith",
        value: "x'; drop table users; --",
      },
    ],
    [
      "unicode string",
      {
        kind: "cmp",
        field: "objective.name",
        op: "eq",
        value: "日本語 🐍 Grüße",
      },
    ],
    ["empty string", { kind: "cmp", field: "objective.name", op: "ne", value: "" }],
    ["keyword-like string", { kind: "cmp", field: "objective.name", op: "eq", value: "and or not (" }],
    ["integer", { kind: "cmp", field: "objective.state", op: "ne", value: 3 }],
    [
      "negative integer",
      {
        kind: "cmp",
        field: "objective.activity.state",
        op: "eq",
        value: -2147483648,
      },
    ],
    ["boolean", { kind: "cmp", field: "retake", op: "eq", value: false }],
    [
      "date",
      {
        kind: "cmp",
        field: "dueDate",
        op: "ge",
        value: "2024-05-01T10:00:00.000Z",
      },
    ],
    ["uuid in", { kind: "in", field: "termId", values: [U1, U2] }],
    ["enum in", { kind: "in", field: "gradeRevealPolicy", values: ["afterDate"] }],
    ["null", { kind: "null", field: "showcaseId", negated: false }],
    ["not null", { kind: "null", field: "lastObjectiveRecord", negated: true }],
    ["not", { kind: "not", child: mandatory }],
    ["not not", { kind: "not", child: { kind: "not", child: mandatory } }],
    ["not of and", { kind: "not", child: { kind: "and", children: [mandatory, retake] } }],
    [
      "and of ors",
      {
        kind: "and",
        children: [
          { kind: "or", children: [mandatory, retake] },
          { kind: "or", children: [selfEnrolled, retake] },
        ],
      },
    ],
    [
      "or of ands",
      {
        kind: "or",
        children: [{ kind: "and", children: [mandatory, retake] }, selfEnrolled],
      },
    ],
    [
      "nested and in and",
      {
        kind: "and",
        children: [{ kind: "and", children: [mandatory, retake] }, selfEnrolled],
      },
    ],
    [
      "nested or in or",
      {
        kind: "or",
        children: [mandatory, { kind: "or", children: [retake, selfEnrolled] }],
      },
    ],
    [
      "deep mix",
      {
        kind: "or",
        children: [
          {
            kind: "and",
            children: [
              {
                kind: "not",
                child: {
                  kind: "or",
                  children: [mandatory, { kind: "null", field: "termId", negated: false }],
                },
              },
              nameContains("py"),
            ],
          },
          { kind: "in", field: "lastObjectiveWorkflow.state", values: [1, 6] },
          {
            kind: "not",
            child: { kind: "null", field: "dueDate", negated: true },
          },
        ],
      },
    ],
  ];
  it.each(roundTrip)("round-trips %s", (_name, t) => {
    const text = formatFilter(t);
    expect(parseFilter(text)).toEqual({ ok: true, tree: t });
  });

  it.each([
    "objective.name contains 'python' and (isMandatory eq true or isSelfEnrolled eq true) and termId in ('6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b')",
    "not (isMandatory eq true and retake eq false) or objective.state in (1, 2)",
    "(isMandatory eq true or retake eq false) or isSelfEnrolled eq true",
    "objective.name eq 'O''Brien'",
  ])("formats parsed text canonically: %s", (input) => {
    const t = tree(input)!;
    expect(formatFilter(t)).toBe(input);
  });

  it("uses minimal parentheses", () => {
    expect(
      formatFilter({
        kind: "or",
        children: [{ kind: "and", children: [mandatory, retake] }, selfEnrolled],
      }),
    ).toBe("isMandatory eq true and retake eq false or isSelfEnrolled eq true");
    expect(
      formatFilter({
        kind: "and",
        children: [{ kind: "or", children: [mandatory, retake] }, selfEnrolled],
      }),
    ).toBe("(isMandatory eq true or retake eq false) and isSelfEnrolled eq true");
  });

  it("treats single-child and/or as its child", () => {
    const t: FilterNode = {
      kind: "and",
      children: [
        {
          kind: "and",
          children: [{ kind: "or", children: [mandatory, retake] }],
        },
        selfEnrolled,
      ],
    };
    expect(formatFilter(t)).toBe("(isMandatory eq true or retake eq false) and isSelfEnrolled eq true");
  });

  it.each<[string, FilterNode]>([
    ["empty and", { kind: "and", children: [] }],
    ["unknown field", { kind: "cmp", field: "password" as never, op: "eq", value: "x" }],
    ["disallowed operator", { kind: "cmp", field: "isMandatory", op: "contains", value: true }],
    ["invalid uuid", { kind: "cmp", field: "termId", op: "eq", value: "nope" }],
    ["non-finite number", { kind: "cmp", field: "objective.state", op: "eq", value: Number.NaN }],
    ["out-of-range number", { kind: "in", field: "objective.state", values: [9] }],
    ["empty in", { kind: "in", field: "objective.state", values: [] }],
    ["null on non-nullable", { kind: "null", field: "retake", negated: false }],
  ])("throws a RangeError for an invalid tree: %s", (_name, t) => {
    expect(() => formatFilter(t)).toThrow(RangeError);
  });
});
