/**
 * A small interpreter for the subset of JSON Schema that `z.toJSONSchema`
 * emits for our wire shapes.
 *
 * Why not zod at run time: importing zod costs ~25 ms, more than the whole
 * budget of a no-match dispatch (SPEC §15). The zod schemas stay the single
 * source of truth; `deno task schema:gen` compiles them to JSON Schemas in
 * `src/generated/schemas.ts`, and this validator checks values against those.
 * A test keeps the generated file equal to what zod produces today.
 * @module
 */

/** A JSON Schema node (the subset we generate). */
export type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  [other: string]: unknown;
};

/**
 * Every keyword {@link validateJson} (and {@link validateAll}) enforces. A generated schema may use no other keyword except
 * the {@link ANNOTATION_KEYWORDS} (src/schema/generate_test.ts), so a constraint zod emits can never be
 * silently skipped at run time.
 */
export const VALIDATED_KEYWORDS: readonly string[] = [
  "type",
  "const",
  "enum",
  "minimum",
  "maximum",
  "minLength",
  "items",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "anyOf",
  "oneOf",
];

/** Keywords that describe a schema without constraining values. */
export const ANNOTATION_KEYWORDS: readonly string[] = ["$schema", "title", "description"];

/** The first problem found, as a path and a human sentence. */
export type SchemaIssue = { path: string; message: string };

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") {
    return Number.isInteger(value) ? "integer" : "number";
  }
  return typeof value;
}

function typeMatches(expected: string, actual: string): boolean {
  return expected === actual || (expected === "number" && actual === "integer");
}

function describe(value: unknown): string {
  const t = typeOf(value);
  if (t === "string") {
    return `string ${JSON.stringify(String(value).slice(0, 40))}`;
  }
  if (t === "integer" || t === "number" || t === "boolean") {
    return `${t} ${String(value)}`;
  }
  return t;
}

function join(path: string, key: string | number): string {
  return typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

/** True when `value` is an object whose fields equal every constant property of `option` (it has at least one). */
function namesAlternative(option: JsonSchema, value: unknown): boolean {
  if (typeOf(value) !== "object") return false;
  const constants = Object.entries(option.properties ?? {}).filter(([, p]) => p.const !== undefined);
  return constants.length > 0 && constants.every(([k, p]) => (value as Record<string, unknown>)[k] === p.const);
}

/**
 * Validates `value` against `schema`; returns null when it conforms, else the
 * first issue (depth-first, properties in schema order).
 */
export function validateJson(
  schema: JsonSchema,
  value: unknown,
  path = "",
): SchemaIssue | null {
  const out: SchemaIssue[] = [];
  check(schema, value, path, out, 1);
  return out[0] ?? null;
}

/**
 * The issues of `value` against `schema` (depth-first, properties in schema order), at most `max`,
 * so that one error can name every missing or mistyped field at once; empty when it conforms.
 * Alternatives (`anyOf`, `oneOf`) are still told apart by their first issue.
 */
export function validateAll(schema: JsonSchema, value: unknown, max = 100, path = ""): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  check(schema, value, path, out, Math.max(1, max));
  return out;
}

/** Adds the issues of `value` to `out`, until it holds `max` (a stranger's value may hold millions). */
function check(schema: JsonSchema, value: unknown, path: string, out: SchemaIssue[], max: number): void {
  const issue = (message: string, at = path) => out.length < max && out.push({ path: at, message });
  const done = () => out.length >= max;
  // Alternatives first; a value that satisfies one still has to satisfy the node's other keywords.
  if (schema.anyOf && !schema.anyOf.some((option) => validateJson(option, value, path) === null)) {
    const expected = schema.anyOf.map((o) => o.type ?? (o.const !== undefined ? JSON.stringify(o.const) : "value"))
      .join(" or ");
    return void issue(`expected ${expected}, got ${describe(value)}`);
  }
  if (schema.oneOf) {
    const issues = schema.oneOf.map((option) => validateJson(option, value, path));
    const matched = issues.filter((i) => i === null).length;
    if (matched > 1) return void issue(`matches ${matched} of the alternatives; expected exactly one`);
    if (matched === 0) {
      // Told against the alternative the value names by its constant fields (`type: "mcp_tool"`), if any.
      const named = schema.oneOf.findIndex((option) => namesAlternative(option, value));
      if (named >= 0) return void (out.length < max && out.push(issues[named]!));
      return void issue(`matches none of the ${schema.oneOf.length} alternatives, got ${describe(value)}`);
    }
  }
  const actual = typeOf(value);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => typeMatches(t, actual))) {
      return void issue(`expected ${types.join(" or ")}, got ${describe(value)}`);
    }
  }
  if (schema.const !== undefined && value !== schema.const) {
    return void issue(`expected ${JSON.stringify(schema.const)}, got ${describe(value)}`);
  }
  if (schema.enum && !schema.enum.includes(value)) {
    return void issue(
      `expected one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}, got ${describe(value)}`,
    );
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return void issue(`must be ≥ ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) return void issue(`must be ≤ ${schema.maximum}`);
  }
  if (typeof value === "string" && schema.minLength !== undefined && value.length < schema.minLength) {
    return void issue(
      schema.minLength === 1 ? "must not be empty" : `must have at least ${schema.minLength} characters`,
    );
  }
  if (actual === "array" && schema.items) {
    const arr = value as unknown[];
    for (let i = 0; i < arr.length && !done(); i++) check(schema.items, arr[i], join(path, i), out, max);
  }
  if (actual === "object" && schema.propertyNames) {
    for (const key of Object.keys(value as object)) {
      const bad = validateJson(schema.propertyNames, key, path);
      if (bad) issue(`is not an accepted field name: ${bad.message}`, join(path, key));
      if (done()) return;
    }
  }
  if (actual === "object" && (schema.properties || schema.required || schema.additionalProperties !== undefined)) {
    const obj = value as Record<string, unknown>;
    const props = schema.properties ?? {};
    for (const key of schema.required ?? []) {
      if (!Object.hasOwn(obj, key)) issue("is required", join(path, key));
      if (done()) return;
    }
    for (const [key, sub] of Object.entries(props)) {
      if (Object.hasOwn(obj, key)) check(sub, obj[key], join(path, key), out, max);
      if (done()) return;
    }
    const extra = schema.additionalProperties;
    if (extra !== undefined && extra !== true) {
      for (const key of Object.keys(obj)) {
        if (Object.hasOwn(props, key)) continue;
        if (extra === false) issue("is not an accepted field", join(path, key));
        else check(extra, obj[key], join(path, key), out, max);
        if (done()) return;
      }
    }
  }
}

/** Renders an issue as one line: `tool_name: expected string, got integer 3`. */
export function formatIssue(issue: SchemaIssue): string {
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
}
