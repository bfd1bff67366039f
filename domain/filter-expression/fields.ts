/**
 * The fields a filter expression may name (spec 7.2's whitelist), the type and operators each allows,
 * the limits of an expression, and the tree a filter parses to (domain/filter-expression.ts).
 */

export type CompareOp = "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "contains" | "startswith";
/** Operators a field may allow: the comparison operators plus the `in` list. */
export type FieldOp = CompareOp | "in";
export type FilterValue = string | number | boolean;

export type FieldSpec =
  | {
      readonly type: "string";
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "integer";
      readonly min: number;
      readonly max: number;
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "boolean";
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "uuid";
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "datetime";
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  | {
      readonly type: "enum";
      readonly values: readonly string[];
      readonly ops: readonly FieldOp[];
      readonly nullable: boolean;
    }
  /** Only `is null` / `is not null`. */
  | {
      readonly type: "presence";
      readonly ops: readonly FieldOp[];
      readonly nullable: true;
    };

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const STRING_OPS = ["eq", "ne", "contains", "startswith"] as const;
const SET_OPS = ["eq", "ne", "in"] as const;
const ORDER_OPS = ["eq", "ne", "lt", "le", "gt", "ge"] as const;

/**
 * The whitelist: every field a client may filter on, its value type and the operators it allows.
 * `nullable: true` means `is null` / `is not null` (and `eq null` / `ne null`) are allowed.
 */
export const FILTER_FIELDS = {
  "objective.name": { type: "string", ops: STRING_OPS, nullable: false },
  "objective.code": { type: "string", ops: STRING_OPS, nullable: false },
  "objective.state": {
    type: "integer",
    min: 1,
    max: 4,
    ops: SET_OPS,
    nullable: false,
  },
  "objective.activity.state": {
    type: "integer",
    min: INT32_MIN,
    max: INT32_MAX,
    ops: SET_OPS,
    nullable: false,
  },
  "objective.presentationMode": {
    type: "integer",
    min: 0,
    max: 3,
    ops: SET_OPS,
    nullable: false,
  },
  isMandatory: { type: "boolean", ops: ["eq", "ne"], nullable: false },
  isSelfEnrolled: { type: "boolean", ops: ["eq", "ne"], nullable: false },
  retake: { type: "boolean", ops: ["eq", "ne"], nullable: false },
  termId: { type: "uuid", ops: SET_OPS, nullable: true },
  showcaseId: { type: "uuid", ops: SET_OPS, nullable: true },
  dueDate: { type: "datetime", ops: ORDER_OPS, nullable: true },
  availabilityDate: { type: "datetime", ops: ORDER_OPS, nullable: true },
  availabilityEndDate: { type: "datetime", ops: ORDER_OPS, nullable: true },
  /** null means the learner has no workflow yet. */
  "lastObjectiveWorkflow.state": {
    type: "integer",
    min: 1,
    max: 6,
    ops: ["eq", "ne", "in", "lt", "le", "gt", "ge"],
    nullable: true,
  },
  lastObjectiveRecord: { type: "presence", ops: [], nullable: true },
  gradeRevealPolicy: {
    type: "enum",
    values: ["none", "never", "afterFinish", "afterDate"],
    ops: SET_OPS,
    nullable: false,
  },
} as const satisfies Record<string, FieldSpec>;

export type FilterField = keyof typeof FILTER_FIELDS;

export type FilterNode =
  // "and" and "or" are separate members (rather than kind: "and" | "or") so that if-chains narrow.
  | { kind: "and"; children: FilterNode[] }
  | { kind: "or"; children: FilterNode[] }
  | { kind: "not"; child: FilterNode }
  | { kind: "cmp"; field: FilterField; op: CompareOp; value: FilterValue }
  | { kind: "in"; field: FilterField; values: FilterValue[] }
  | { kind: "null"; field: FilterField; negated: boolean };

export type ParseFilterResult = { ok: true; tree: FilterNode | null } | { ok: false; error: string; position: number };

/** Hostile-input limits. */
export const FILTER_LIMITS = {
  maxInputLength: 2000,
  maxComparisons: 50,
  maxDepth: 10,
  maxInListValues: 100,
  maxStringLength: 200,
} as const;

export const COMPARE_OPS: readonly CompareOp[] = ["eq", "ne", "lt", "le", "gt", "ge", "contains", "startswith"];

export function isFilterField(name: string): name is FilterField {
  return Object.prototype.hasOwnProperty.call(FILTER_FIELDS, name);
}

export function fieldAllows(field: FilterField, op: FieldOp): boolean {
  return (FILTER_FIELDS[field].ops as readonly FieldOp[]).includes(op);
}
