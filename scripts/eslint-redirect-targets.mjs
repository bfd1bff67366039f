/**
 * ESLint rule `local/redirect-targets` (issue 29 item 4): a redirect's target is either fixed by the
 * code — a string, or a path whose first segment is written out (`/learn/courses/${id}`) — or it went
 * through the one redirect rule, `safeRedirect` / `safeRedirectWithin` of domain/redirect.ts. Anything
 * else built from input (a form field, a query parameter, a header) is reported: that is how
 * `/learn/browser-alert` let `/\t/evil.example` and a CR/LF into its Location with a check of its own.
 *
 * Checked: `redirect(…)`, `redirectDocument(…)`, `replace(…)`, `redirectWithToast(…)`, any `x.redirect(…)`
 * (Hono's `c.redirect`, Koa's `ctx.redirect`, `Response.redirect`), a `Location` header in an object
 * (`writeHead(303, { Location })`, `headers: { Location }`), and `.set/.append/.header/.setHeader("Location", …)`.
 * A target that is a constant of the same file is followed to its value, a call of a function of the same
 * file to what it returns. Functions of other files that build a fixed path (`viewPath`, `loginUrl`) or
 * check one (`safeTarget`) are named in the rule's `pathFunctions` option — and where such a function is
 * defined, the rule checks that every value it returns is fixed or checked, so the list cannot lie. A
 * target that is right for another reason (an operator's configured URL, a tool's registered endpoint)
 * says so with `// eslint-disable-next-line local/redirect-targets -- <the reason>`.
 */

const REDIRECT_FUNCTIONS = new Set(["redirect", "redirectDocument", "replace", "redirectWithToast"]);
const SAFE_FUNCTIONS = new Set(["safeRedirect", "safeRedirectWithin"]);
const HEADER_SETTERS = new Set(["set", "append", "header", "setHeader"]);

/** A path of this origin whose first segment is written in the code: nothing interpolated after it can name a host. */
const FIXED_PATH = /^\/[^/\\\s]/;

const unwrap = (node) =>
  node &&
  (node.type === "TSAsExpression" || node.type === "TSNonNullExpression" || node.type === "TSSatisfiesExpression")
    ? unwrap(node.expression)
    : node;

const nameOf = (key) => (key?.type === "Identifier" ? key.name : key?.type === "Literal" ? String(key.value) : null);

/** The definition an identifier names, looked up from its scope outwards. */
function definitionOf(identifier, scope) {
  for (let s = scope; s; s = s.upper) {
    const variable = s.set.get(identifier.name);
    if (variable) return variable.defs[0] ?? null;
  }
  return null;
}

/** The value of the const an identifier names (in this file), or null. */
function constantValue(identifier, scope) {
  const def = definitionOf(identifier, scope);
  if (def?.type === "Variable" && def.parent?.kind === "const" && def.node.id.type === "Identifier")
    return def.node.init;
  return null;
}

/** The function of this file an identifier names (a declaration, or a const arrow or function), or null. */
function functionOf(identifier, scope) {
  const def = definitionOf(identifier, scope);
  if (def?.type === "FunctionName") return def.node;
  const init = def?.type === "Variable" && def.parent?.kind === "const" ? unwrap(def.node.init) : null;
  return init && (init.type === "ArrowFunctionExpression" || init.type === "FunctionExpression") ? init : null;
}

/** Every value a function returns (an arrow's expression body, or its `return` statements, nested functions left out). */
function returnedValues(fn) {
  if (fn.body.type !== "BlockStatement") return [fn.body];
  const out = [];
  const visit = (node) => {
    if (!node || typeof node.type !== "string") return;
    if (node !== fn.body && /Function/.test(node.type)) return;
    if (node.type === "ReturnStatement") out.push(node.argument);
    for (const key of Object.keys(node)) {
      if (key === "parent") continue;
      const child = node[key];
      if (Array.isArray(child)) child.forEach(visit);
      else if (child && typeof child === "object") visit(child);
    }
  };
  visit(fn.body);
  return out;
}

function isFixed(node, scope, seen) {
  node = unwrap(node);
  if (!node || seen.has(node)) return false;
  seen.add(node);
  switch (node.type) {
    case "Literal":
      return typeof node.value === "string";
    case "TemplateLiteral":
      return (
        node.expressions.length === 0 ||
        FIXED_PATH.test(node.quasis[0].value.cooked ?? "") ||
        // `${back}#message-…` where `back` is itself a fixed path
        (node.quasis[0].value.cooked === "" && startsFixed(node.expressions[0], scope, seen))
      );
    case "BinaryExpression":
      return node.operator === "+" && startsFixed(node.left, scope, seen);
    case "ConditionalExpression":
      return isFixed(node.consequent, scope, seen) && isFixed(node.alternate, scope, seen);
    case "LogicalExpression":
      return isFixed(node.left, scope, seen) && isFixed(node.right, scope, seen);
    case "CallExpression": {
      const callee = unwrap(node.callee);
      const name =
        callee.type === "Identifier"
          ? callee.name
          : callee.type === "MemberExpression"
            ? nameOf(callee.property)
            : null;
      if (SAFE_FUNCTIONS.has(name) || pathFunctions.has(name)) return true;
      // A function of this file whose every answer is fixed (or checked).
      const fn = callee.type === "Identifier" ? functionOf(callee, scope) : null;
      if (!fn || seen.has(fn)) return false;
      seen.add(fn);
      const values = returnedValues(fn);
      const inner = context.sourceCode.getScope(fn);
      return values.length > 0 && values.every((value) => isFixed(value, inner, seen));
    }
    case "Identifier": {
      const value = constantValue(node, scope);
      return value ? isFixed(value, scope, seen) : false;
    }
    default:
      return false;
  }
}

/** The left side of a `+`: a fixed path (so that what is appended cannot change the host). */
function startsFixed(node, scope, seen) {
  node = unwrap(node);
  if (node.type === "Literal") return typeof node.value === "string" && FIXED_PATH.test(node.value);
  if (node.type === "TemplateLiteral")
    return (
      FIXED_PATH.test(node.quasis[0].value.cooked ?? "") ||
      (node.quasis[0].value.cooked === "" &&
        node.expressions.length > 0 &&
        startsFixed(node.expressions[0], scope, seen))
    );
  if (node.type === "BinaryExpression") return node.operator === "+" && startsFixed(node.left, scope, seen);
  if (node.type === "Identifier") {
    const value = constantValue(node, scope);
    return value ? startsFixed(value, scope, seen) : false;
  }
  return false;
}

/** The file being linted (set for each file by `create`): scopes of functions are looked up in it. */
let context = null;
/** Functions of other files known to return a fixed or checked path (the rule's option). */
let pathFunctions = new Set();

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Redirect targets built from input go through domain/redirect.ts (safeRedirect)" },
    messages: {
      notFixed:
        "{{name}} is listed in the rule's pathFunctions (its callers trust it), but this answer is neither a fixed path nor checked by safeRedirect.",
      unchecked:
        "A redirect target built from input: pass it through safeRedirect/safeRedirectWithin (domain/redirect.ts), " +
        "or say why it is safe with an eslint-disable-next-line comment.",
    },
    schema: [
      {
        type: "object",
        properties: { pathFunctions: { type: "array", items: { type: "string" } } },
        additionalProperties: false,
      },
    ],
  },
  create(current) {
    context = current;
    pathFunctions = new Set(current.options[0]?.pathFunctions ?? []);
    /** Where a listed function is defined: every value it returns must be fixed or checked. */
    const checkListed = (fn, name) => {
      if (!name || !pathFunctions.has(name)) return;
      const scope = current.sourceCode.getScope(fn);
      const others = new Set(pathFunctions);
      others.delete(name);
      const saved = pathFunctions;
      pathFunctions = others;
      try {
        for (const value of returnedValues(fn))
          if (!isFixed(value, scope, new Set()))
            current.report({ node: value ?? fn, messageId: "notFixed", data: { name } });
      } finally {
        pathFunctions = saved;
      }
    };
    const check = (target, at) => {
      if (!target || target.type === "SpreadElement") return;
      if (!isFixed(target, current.sourceCode.getScope(at), new Set()))
        current.report({ node: target, messageId: "unchecked" });
    };
    return {
      FunctionDeclaration(node) {
        checkListed(node, node.id?.name);
      },
      VariableDeclarator(node) {
        const init = unwrap(node.init);
        if (
          init &&
          (init.type === "ArrowFunctionExpression" || init.type === "FunctionExpression") &&
          node.id.type === "Identifier"
        )
          checkListed(init, node.id.name);
      },
      CallExpression(node) {
        const callee = unwrap(node.callee);
        if (callee.type === "Identifier" && REDIRECT_FUNCTIONS.has(callee.name)) return check(node.arguments[0], node);
        if (callee.type !== "MemberExpression") return;
        const method = nameOf(callee.property);
        if (method === "redirect") return check(node.arguments[0], node);
        const header = unwrap(node.arguments[0]);
        if (
          HEADER_SETTERS.has(method) &&
          header?.type === "Literal" &&
          typeof header.value === "string" &&
          header.value.toLowerCase() === "location"
        )
          check(node.arguments[1], node);
      },
      Property(node) {
        const key = nameOf(node.key);
        if (key === "Location") return check(node.value, node);
        // A lower-case `location` only where an object is a response's headers.
        const owner = node.parent?.parent;
        if (key === "location" && owner?.type === "Property" && nameOf(owner.key) === "headers")
          check(node.value, node);
      },
    };
  },
};

export default { rules: { "redirect-targets": rule } };
