/**
 * Building and writing filter trees: `andAll` combines conditions (the API adds its standing
 * conditions to the client's filter), `formatFilter` writes a tree back as an expression that
 * parses to the same tree (the app builds its filters this way).
 */
import {
  FILTER_FIELDS,
  fieldAllows,
  isFilterField,
  type FieldOp,
  type FilterField,
  type FilterNode,
  type FilterValue,
} from "./fields";
import { validateValue, type RawValue } from "./values";

/**
 * Combines trees with "and", skipping nulls. Top-level "and" nodes are flattened into the result;
 * one remaining tree is returned as is, none gives null. Inputs are not mutated.
 */
export function andAll(...nodes: (FilterNode | null)[]): FilterNode | null {
  const children: FilterNode[] = [];
  for (const node of nodes) {
    if (node == null) continue;
    if (node.kind === "and") children.push(...node.children);
    else children.push(node);
  }
  if (children.length === 0) return null;
  if (children.length === 1) return children[0];
  return { kind: "and", children };
}

function formatValue(field: FilterField, value: FilterValue): string {
  const raw: RawValue =
    typeof value === "string"
      ? { kind: "string", value }
      : typeof value === "number"
        ? { kind: "number", value, raw: String(value) }
        : { kind: "boolean", value };
  const checked = validateValue(field, raw);
  if (!checked.ok) throw new RangeError(`formatFilter: ${checked.error}`);
  if (typeof value === "string") return `'${value.split("'").join("''")}'`;
  return String(value);
}

function checkField(field: string, op: FieldOp | null): FilterField {
  if (!isFilterField(field)) throw new RangeError(`formatFilter: unknown field '${field}'`);
  if (op !== null && !fieldAllows(field, op)) {
    throw new RangeError(`formatFilter: operator '${op}' is not allowed for field '${field}'`);
  }
  return field;
}

/** Strips and/or wrappers with a single child, which mean the same as that child. */
function unwrapSingle(node: FilterNode): FilterNode {
  let current = node;
  while ((current.kind === "and" || current.kind === "or") && current.children.length === 1)
    current = current.children[0];
  return current;
}

/**
 * Serialises a tree to the text syntax so that `parseFilter(formatFilter(t))` gives back `t` for
 * any tree parseFilter can produce (and/or nodes with at least two children, valid values already
 * normalised). Uses the minimum of parentheses. Throws a RangeError for trees that could never be
 * valid (unknown field, disallowed operator, invalid value, empty and/or) so the caller learns about
 * the bug before the server rejects the request.
 */
export function formatFilter(node: FilterNode): string {
  switch (node.kind) {
    case "and":
    case "or": {
      if (node.children.length === 0) throw new RangeError(`formatFilter: '${node.kind}' needs at least one child`);
      if (node.children.length === 1) return formatFilter(node.children[0]);
      return node.children
        .map((child) => {
          const inner = unwrapSingle(child);
          const text = formatFilter(inner);
          // "and" binds tighter than "or", so only an "or" inside an "and" needs parentheses for
          // precedence; a same-kind child gets them too so the parser keeps it a separate node.
          const needsParens = inner.kind === node.kind || (inner.kind === "or" && node.kind === "and");
          return needsParens ? `(${text})` : text;
        })
        .join(` ${node.kind} `);
    }
    case "not": {
      const inner = unwrapSingle(node.child);
      const text = formatFilter(inner);
      return inner.kind === "and" || inner.kind === "or" ? `not (${text})` : `not ${text}`;
    }
    case "cmp": {
      const field = checkField(node.field, node.op);
      return `${field} ${node.op} ${formatValue(field, node.value)}`;
    }
    case "in": {
      const field = checkField(node.field, "in");
      if (node.values.length === 0) throw new RangeError("formatFilter: 'in' needs at least one value");
      return `${field} in (${node.values.map((v) => formatValue(field, v)).join(", ")})`;
    }
    case "null": {
      const field = checkField(node.field, null);
      if (!FILTER_FIELDS[field].nullable) throw new RangeError(`formatFilter: field '${field}' cannot be null`);
      return `${field} is ${node.negated ? "not " : ""}null`;
    }
    default:
      throw new RangeError("formatFilter: unknown node kind");
  }
}
