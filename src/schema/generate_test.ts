/**
 * The zod schemas are the single source of truth: the generated module and
 * the published JSON files must equal what zod produces today, and the
 * run-time validator must agree with zod on what it accepts.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { generatedModuleText, publishedFiles } from "./generate.ts";
import { zodSchemas } from "./build.ts";
import * as GENERATED from "../generated/schemas.ts";
import {
  CLAUDE_OUTPUT_SCHEMAS,
  CONFIG_SCHEMA,
  INPUT_SCHEMAS,
  OUTPUT_SCHEMAS,
  RESULT_SCHEMA,
} from "../generated/schemas.ts";
import {
  ANNOTATION_KEYWORDS,
  type JsonSchema,
  type SchemaIssue,
  VALIDATED_KEYWORDS,
  validateJson,
} from "./validate.ts";
import { hooksFileSchema } from "./hooks_file.ts";
import * as z from "zod";
import { EVENT_NAMES, type EventName } from "../events/names.ts";

const root = new URL("../../", import.meta.url);

Deno.test("src/generated/schemas.ts is up to date (run: deno task schema:gen)", async () => {
  assertEquals(await Deno.readTextFile(new URL("src/generated/schemas.ts", root)), generatedModuleText());
});

Deno.test("schemas/*.json are up to date (run: deno task schema:gen)", async () => {
  for (const [rel, text] of publishedFiles()) {
    assertEquals(await Deno.readTextFile(new URL(rel, root)), text, rel);
  }
});

const base = { session_id: "s", transcript_path: null, cwd: "/", model: "m", turn_id: "t", permission_mode: "default" };

function samples(event: EventName): unknown[] {
  const input = { ...base, hook_event_name: event };
  return [
    input,
    { ...input, tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "u", tool_response: { ok: true } },
    { ...input, tool_name: 3 },
    { ...input, source: "startup", trigger: "auto", reason: "other", prompt: "p" },
    { ...input, permission_mode: "yolo" },
    {
      ...input,
      agent_id: "a",
      agent_type: "t",
      agent_transcript_path: null,
      stop_hook_active: false,
      last_assistant_message: null,
    },
    { ...input, extra: 1 },
    { ...input, transcript_path: 5 },
    null,
    [],
    "text",
  ];
}

const outputs: unknown[] = [
  {},
  { continue: false, stopReason: "x" },
  { systemMessage: 1 },
  { decision: "block", reason: "r" },
  { decision: "approve" },
  { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "r" } },
  { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "maybe" } },
  { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "m" } } },
  { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "c" } },
  { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "c", extra: 1 } },
  { suppressOutput: true },
  { unknown: true },
];

Deno.test("the run-time validator agrees with zod on inputs and outputs of every event", () => {
  let compared = 0;
  for (const e of EVENT_NAMES) {
    const z = zodSchemas(e);
    for (const s of samples(e)) {
      assertEquals(
        validateJson(INPUT_SCHEMAS[e], s) === null,
        z.input.safeParse(s).success,
        `${e} input ${JSON.stringify(s)}`,
      );
      compared++;
    }
    for (const o of outputs) {
      assertEquals(
        validateJson(OUTPUT_SCHEMAS[e], o) === null,
        z.output.safeParse(o).success,
        `${e} output ${JSON.stringify(o)}`,
      );
      compared++;
    }
  }
  assert(compared > 200);
});

Deno.test("every input and output schema is strict at the top level", () => {
  for (const e of EVENT_NAMES) {
    assertEquals(INPUT_SCHEMAS[e].additionalProperties, false, e);
    assertEquals(OUTPUT_SCHEMAS[e].additionalProperties, false, e);
  }
});

/** Every generated schema, named by where it lives in src/generated/schemas.ts. */
function generatedSchemas(): [string, JsonSchema][] {
  return [
    ...Object.entries(INPUT_SCHEMAS).map(([e, s]): [string, JsonSchema] => [`INPUT_SCHEMAS.${e}`, s]),
    ...Object.entries(OUTPUT_SCHEMAS).map(([e, s]): [string, JsonSchema] => [`OUTPUT_SCHEMAS.${e}`, s]),
    ...Object.entries(CLAUDE_OUTPUT_SCHEMAS).map(([e, s]): [string, JsonSchema] => [`CLAUDE_OUTPUT_SCHEMAS.${e}`, s]),
    ["CONFIG_SCHEMA", CONFIG_SCHEMA],
    ["RESULT_SCHEMA", RESULT_SCHEMA],
  ];
}

/** Each keyword used anywhere in `schema` (following every subschema the validator follows) → the first place it is used. */
function keywordsOf(schema: JsonSchema, at: string, found: Map<string, string>): Map<string, string> {
  for (const [keyword, value] of Object.entries(schema)) {
    if (!found.has(keyword)) found.set(keyword, at);
    if (keyword === "properties") {
      for (const [name, sub] of Object.entries(value as Record<string, JsonSchema>)) {
        keywordsOf(sub, `${at}.properties.${name}`, found);
      }
    } else if (keyword === "anyOf" || keyword === "oneOf") {
      (value as JsonSchema[]).forEach((sub, i) => keywordsOf(sub, `${at}.${keyword}[${i}]`, found));
    } else if (keyword === "items" || keyword === "propertyNames" || keyword === "additionalProperties") {
      if (typeof value === "object" && value !== null) keywordsOf(value as JsonSchema, `${at}.${keyword}`, found);
    }
  }
  return found;
}

Deno.test("the generated schemas use only keywords the run-time validator enforces", () => {
  // A new export of the generated module must be added to generatedSchemas() above.
  assertEquals(Object.keys(GENERATED).sort(), [
    "CLAUDE_OUTPUT_SCHEMAS",
    "CONFIG_SCHEMA",
    "INPUT_SCHEMAS",
    "OUTPUT_SCHEMAS",
    "RESULT_SCHEMA",
  ]);
  const found = new Map<string, string>();
  for (const [name, schema] of generatedSchemas()) keywordsOf(schema, name, found);
  const known = new Set([...VALIDATED_KEYWORDS, ...ANNOTATION_KEYWORDS]);
  assertEquals([...found].filter(([k]) => !known.has(k)).map(([k, at]) => `${k} (first at ${at})`), []);
  // The walk really reaches the nested schemas (a tool_input record, the handler alternatives of hooks.json).
  assert(found.has("propertyNames") && found.has("oneOf") && found.has("minLength"), [...found.keys()].join(" "));
});

/** One keyword's behaviour: the issue `validateJson(schema, value)` must report (null: accepted). */
type KeywordCase = { keyword: string; schema: JsonSchema; value: unknown; issue: SchemaIssue | null };

const KEYWORD_CASES: KeywordCase[] = [
  {
    keyword: "type",
    schema: { type: "string" },
    value: 3,
    issue: { path: "", message: "expected string, got integer 3" },
  },
  { keyword: "type", schema: { type: ["string", "null"] }, value: null, issue: null },
  { keyword: "type", schema: { type: "number" }, value: 2, issue: null },
  {
    keyword: "const",
    schema: { const: "a" },
    value: "b",
    issue: { path: "", message: 'expected "a", got string "b"' },
  },
  {
    keyword: "enum",
    schema: { enum: ["a", "b"] },
    value: "c",
    issue: { path: "", message: 'expected one of "a", "b", got string "c"' },
  },
  { keyword: "minimum", schema: { minimum: 1 }, value: 0, issue: { path: "", message: "must be ≥ 1" } },
  { keyword: "maximum", schema: { maximum: 3 }, value: 4, issue: { path: "", message: "must be ≤ 3" } },
  { keyword: "minLength", schema: { minLength: 1 }, value: "", issue: { path: "", message: "must not be empty" } },
  {
    keyword: "minLength",
    schema: { minLength: 3 },
    value: "ab",
    issue: { path: "", message: "must have at least 3 characters" },
  },
  {
    keyword: "items",
    schema: { items: { type: "string" } },
    value: ["a", 1],
    issue: { path: "[1]", message: "expected string, got integer 1" },
  },
  {
    keyword: "properties",
    schema: { properties: { a: { type: "string" } } },
    value: { a: 1 },
    issue: { path: "a", message: "expected string, got integer 1" },
  },
  { keyword: "required", schema: { required: ["a"] }, value: {}, issue: { path: "a", message: "is required" } },
  {
    keyword: "additionalProperties",
    schema: { properties: { a: {} }, additionalProperties: false },
    value: { a: 1, b: 2 },
    issue: { path: "b", message: "is not an accepted field" },
  },
  {
    keyword: "additionalProperties",
    schema: { additionalProperties: { type: "string" } },
    value: { b: 2 },
    issue: { path: "b", message: "expected string, got integer 2" },
  },
  {
    keyword: "propertyNames",
    schema: { propertyNames: { minLength: 2 } },
    value: { ab: 1, c: 2 },
    issue: { path: "c", message: "is not an accepted field name: must have at least 2 characters" },
  },
  {
    keyword: "anyOf",
    schema: { anyOf: [{ type: "string" }, { type: "null" }] },
    value: 1,
    issue: { path: "", message: "expected string or null, got integer 1" },
  },
  {
    keyword: "anyOf",
    schema: { anyOf: [{ type: "string" }], minLength: 2 },
    value: "a",
    issue: { path: "", message: "must have at least 2 characters" },
  },
  {
    keyword: "oneOf",
    schema: { oneOf: [{ type: "string" }, { minLength: 1 }] },
    value: "ab",
    issue: { path: "", message: "matches 2 of the alternatives; expected exactly one" },
  },
  { keyword: "oneOf", schema: { oneOf: [{ type: "string" }, { type: "null" }] }, value: null, issue: null },
  {
    keyword: "oneOf",
    schema: {
      oneOf: [
        { properties: { type: { const: "a" } }, required: ["type", "x"] },
        { properties: { type: { const: "b" } }, required: ["type", "y"] },
      ],
    },
    value: { type: "b" },
    issue: { path: "y", message: "is required" },
  },
  {
    keyword: "oneOf",
    schema: { oneOf: [{ properties: { type: { const: "a" } } }, { properties: { type: { const: "b" } } }] },
    value: { type: "c" },
    issue: { path: "", message: "matches none of the 2 alternatives, got object" },
  },
];

Deno.test("the validator enforces every keyword it lists, each with its one sentence", () => {
  assertEquals(
    KEYWORD_CASES.map((c) => ({ keyword: c.keyword, schema: c.schema, issue: validateJson(c.schema, c.value) })),
    KEYWORD_CASES.map((c) => ({ keyword: c.keyword, schema: c.schema, issue: c.issue })),
  );
  // No keyword is listed without a case in which it rejects a value.
  const rejecting = new Set(KEYWORD_CASES.filter((c) => c.issue !== null).map((c) => c.keyword));
  assertEquals(VALIDATED_KEYWORDS.filter((k) => !rejecting.has(k)), []);
});

Deno.test("the validator agrees with zod on hooks.json handlers (the oneOf of command and mcp_tool)", () => {
  const zodConfig = hooksFileSchema(z);
  const file = (handler: unknown) => ({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [handler] }] } });
  const handlers: unknown[] = [
    { type: "command", command: "echo hi" },
    { type: "command", command: "echo hi", timeout: 5, async: true, unknownField: 1 },
    { type: "command", command: "" },
    { type: "command" },
    { type: "mcp_tool", server: "s", tool: "t", input: { a: "${tool_input.command}" } },
    { type: "mcp_tool", server: "s" },
    { type: "mcp_tool", server: "s", tool: "t", input: [] },
    { type: "prompt", prompt: "p" },
    { command: "echo hi" },
    "echo hi",
  ];
  assertEquals(
    handlers.map((h) => ({ handler: h, accepted: validateJson(CONFIG_SCHEMA, file(h)) === null })),
    handlers.map((h) => ({ handler: h, accepted: zodConfig.safeParse(file(h)).success })),
  );
});
