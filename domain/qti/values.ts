/** QTI's values (decision 055): a base type, a cardinality and a list (a single value is a list of one; NULL is empty). */
export type BaseType =
  | "identifier"
  | "string"
  | "integer"
  | "float"
  | "boolean"
  | "pair"
  | "directedPair"
  | "point"
  | "duration"
  | "file"
  | "uri";
export type Cardinality = "single" | "multiple" | "ordered" | "record";
export type Scalar = string | number | boolean;

export interface QtiValue {
  cardinality: Cardinality;
  baseType: BaseType | null;
  values: Scalar[];
}

export const BASE_TYPES: readonly BaseType[] = [
  "identifier",
  "string",
  "integer",
  "float",
  "boolean",
  "pair",
  "directedPair",
  "point",
  "duration",
  "file",
  "uri",
];

export const isNull = (v: QtiValue | null | undefined): boolean =>
  !v || v.values.length === 0 || (v.cardinality === "single" && v.baseType === "string" && v.values[0] === "");

export const single = (baseType: BaseType, value: Scalar): QtiValue => ({
  cardinality: "single",
  baseType,
  values: [value],
});
export const NULL: QtiValue = { cardinality: "single", baseType: null, values: [] };

/** A value written in a document (qti-value, qti-base-value, map keys) as its base type; null when it is not one. */
export function parseScalar(baseType: BaseType, text: string): Scalar | null {
  const t = baseType === "string" ? text : text.trim();
  switch (baseType) {
    case "integer": {
      if (!/^[+-]?\d+$/.test(t)) return null;
      return Number.parseInt(t, 10);
    }
    case "float": {
      const n = Number(t);
      return t === "" || !Number.isFinite(n) ? null : n;
    }
    case "duration": {
      const n = Number(t);
      return t === "" || !Number.isFinite(n) ? null : n;
    }
    case "boolean":
      if (t === "true" || t === "1") return true;
      if (t === "false" || t === "0") return false;
      return null;
    case "pair":
    case "directedPair": {
      const parts = t.split(/\s+/).filter(Boolean);
      if (parts.length !== 2) return null;
      return baseType === "pair" ? [...parts].sort().join(" ") : parts.join(" ");
    }
    case "point": {
      const parts = t.split(/\s+/).filter(Boolean);
      if (parts.length !== 2 || parts.some((p) => !/^[+-]?\d+$/.test(p))) return null;
      return parts.join(" ");
    }
    default:
      return t;
  }
}

const sameScalar = (a: Scalar, b: Scalar) => a === b;

/** qti-match: the same value (a multiple container as a multiset, an ordered one in order). */
export function valuesMatch(a: QtiValue, b: QtiValue): boolean {
  if (a.values.length !== b.values.length) return false;
  if (a.cardinality === "multiple" || b.cardinality === "multiple") {
    const rest = [...b.values];
    for (const v of a.values) {
      const at = rest.findIndex((w) => sameScalar(v, w));
      if (at < 0) return false;
      rest.splice(at, 1);
    }
    return true;
  }
  return a.values.every((v, i) => sameScalar(v, b.values[i]!));
}
