/**
 * The `${a.b}` expansion of an mcp_tool handler's `input` against the hook input (SPEC §7.3), shared
 * by the one-shot runner (src/runner/mcp.ts) and the `serve` pool (src/runner/mcp_pool.ts).
 * @module
 */

const WHOLE = /^\$\{([^{}]*)\}$/;
const ANY = /\$\{([^{}]*)\}/g;
const MISSING = Symbol("missing");

/** The value at a dot path (`a.b.0`) of `input`, or MISSING. */
function lookup(input: unknown, path: string): unknown {
  let cur: unknown = input;
  for (const seg of path.trim().split(".")) {
    if (seg === "") return MISSING;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg) || Number(seg) >= cur.length) return MISSING;
      cur = cur[Number(seg)];
    } else if (cur !== null && typeof cur === "object" && Object.hasOwn(cur, seg)) {
      cur = (cur as Record<string, unknown>)[seg];
    } else {
      return MISSING;
    }
  }
  return cur === undefined ? MISSING : cur;
}

/** A value as text inside a larger string: strings as they are, objects and arrays as JSON. */
function asText(v: unknown): string {
  if (v === MISSING || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/**
 * Expands `${field.nested}` placeholders in a handler's `input` template against the hook input
 * (SPEC §7.3). A placeholder that is the whole string keeps the JSON type of the value (a missing
 * path gives `null`); inside a larger string the value is rendered as text (objects and arrays as
 * JSON, a missing path or null as `""`). Objects and arrays expand recursively; keys are never
 * expanded. Numeric segments index arrays (`${tool_input.args.0}`).
 */
export function expandPlaceholders(template: unknown, input: Record<string, unknown>): unknown {
  if (typeof template === "string") {
    const whole = WHOLE.exec(template);
    if (whole) {
      const v = lookup(input, whole[1]);
      return v === MISSING ? null : structuredClone(v);
    }
    return template.includes("${") ? template.replace(ANY, (_, path: string) => asText(lookup(input, path))) : template;
  }
  if (Array.isArray(template)) return template.map((t) => expandPlaceholders(t, input));
  if (template !== null && typeof template === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(template)) out[k] = expandPlaceholders(v, input);
    return out;
  }
  return template;
}

// ---------------------------------------------------------------------------------------------
