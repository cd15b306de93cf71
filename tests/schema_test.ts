/**
 * The zod schemas are the single source of truth: the generated module and
 * the published JSON files must equal what zod produces today, and the
 * run-time validator must agree with zod on what it accepts.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { generatedModuleText, publishedFiles } from "../src/schema/generate.ts";
import { zodSchemas } from "../src/schema/build.ts";
import { INPUT_SCHEMAS, OUTPUT_SCHEMAS } from "../src/generated/schemas.ts";
import { validateJson } from "../src/schema/validate.ts";
import { EVENT_NAMES, type EventName } from "../src/events/names.ts";

const root = new URL("../", import.meta.url);

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
