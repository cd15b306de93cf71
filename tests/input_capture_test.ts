/**
 * What a hook really reads on stdin (SPEC §5), for each of the 14 events: a
 * trusted hook saves its stdin, and the capture is checked three ways —
 * against the generated JSON Schema (`src/generated/schemas.ts`), field for
 * field against the table below (written by hand from SPEC §5, which follows
 * Codex's published `*.command.input.schema.json`), and value for value
 * against the event that was sent. The generated schemas themselves are also
 * compared with the table, so a drift of either side fails here.
 */

import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import { INPUT_SCHEMAS } from "../src/generated/schemas.ts";
import { type JsonSchema, validateJson } from "../src/schema/validate.ts";
import {
  cmd,
  dispatch,
  event,
  EVENT_NAMES,
  type EventName,
  group,
  type Json,
  makeHome,
  sessionId,
  shHook,
  trustAll,
  writeHooksJson,
} from "./helpers/cli.ts";

/** A field's wire type. */
type FieldType =
  | "string"
  | "string|null"
  | "boolean"
  | "object"
  | "any"
  | { const: string }
  | { enum: readonly string[] };

/** `permission_mode` values (SPEC §5). */
const PERMISSION_MODES = ["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"] as const;
const PERMISSION_MODE: FieldType = { enum: PERMISSION_MODES };

/** Required fields every event carries; `model` is added for all but SessionEnd. */
function commonFields(name: EventName): Record<string, FieldType> {
  return {
    session_id: "string",
    transcript_path: "string|null",
    cwd: "string",
    hook_event_name: { const: name },
    ...(name === "SessionEnd" ? {} : { model: "string" }),
  };
}

/** The required fields beyond the common ones (SPEC §5's table). */
const EVENT_FIELDS: Record<EventName, Record<string, FieldType>> = {
  SessionStart: { permission_mode: PERMISSION_MODE, source: { enum: ["startup", "resume", "clear", "compact"] } },
  SessionEnd: { reason: "string" },
  UserPromptSubmit: { turn_id: "string", permission_mode: PERMISSION_MODE, prompt: "string" },
  PreToolUse: {
    turn_id: "string",
    permission_mode: PERMISSION_MODE,
    tool_name: "string",
    tool_use_id: "string",
    tool_input: "object",
  },
  PermissionRequest: { turn_id: "string", permission_mode: PERMISSION_MODE, tool_name: "string", tool_input: "object" },
  PostToolUse: {
    turn_id: "string",
    permission_mode: PERMISSION_MODE,
    tool_name: "string",
    tool_use_id: "string",
    tool_input: "object",
    tool_response: "any",
  },
  PostToolUseFailure: {
    turn_id: "string",
    permission_mode: PERMISSION_MODE,
    tool_name: "string",
    tool_use_id: "string",
    tool_input: "object",
    error: "string",
  },
  PreCompact: { turn_id: "string", trigger: { enum: ["manual", "auto"] } },
  PostCompact: { turn_id: "string", trigger: { enum: ["manual", "auto"] } },
  SubagentStart: { turn_id: "string", permission_mode: PERMISSION_MODE, agent_id: "string", agent_type: "string" },
  SubagentStop: {
    turn_id: "string",
    permission_mode: PERMISSION_MODE,
    agent_id: "string",
    agent_type: "string",
    agent_transcript_path: "string|null",
    stop_hook_active: "boolean",
    last_assistant_message: "string|null",
  },
  Stop: {
    turn_id: "string",
    permission_mode: PERMISSION_MODE,
    stop_hook_active: "boolean",
    last_assistant_message: "string|null",
  },
  Interrupt: { turn_id: "string", permission_mode: PERMISSION_MODE },
  Notification: { message: "string", notification_type: "string" },
};

/** Optional on every event: present when the event is raised inside a subagent. */
const OPTIONAL_FIELDS: Record<string, FieldType> = { agent_id: "string", agent_type: "string" };

function required(name: EventName): Record<string, FieldType> {
  return { ...commonFields(name), ...EVENT_FIELDS[name] };
}

/** Does `value` have wire type `t`? */
function hasType(value: unknown, t: FieldType): boolean {
  if (t === "any") return true;
  if (t === "string") return typeof value === "string";
  if (t === "string|null") return value === null || typeof value === "string";
  if (t === "boolean") return typeof value === "boolean";
  if (t === "object") return value !== null && typeof value === "object" && !Array.isArray(value);
  if ("const" in t) return value === t.const;
  return typeof value === "string" && t.enum.includes(value);
}

/** Does the generated schema node declare exactly type `t`? */
function assertSchemaType(node: JsonSchema, t: FieldType, where: string): void {
  if (t === "any") {
    assertEquals(node.type, undefined, `${where}: any value`);
    return;
  }
  if (t === "string|null") {
    assertEquals([node.type].flat().sort(), ["null", "string"], where);
    return;
  }
  if (t === "string" || t === "boolean" || t === "object") {
    assertEquals(node.type, t, where);
    return;
  }
  assertEquals(node.type, "string", where);
  if ("const" in t) assertEquals(node.const, t.const, where);
  else assertEquals(node.enum, [...t.enum], where);
}

/** The input each event is sent with: distinctive values, so a capture can be compared value for value. */
function inputFor(name: EventName, cwd: string): Json {
  const overrides: Partial<Record<EventName, Json>> = {
    SessionStart: { source: "resume", permission_mode: "plan", transcript_path: undefined },
    UserPromptSubmit: { prompt: "capture me", permission_mode: "acceptEdits" },
    PreToolUse: {
      tool_name: "shell_command",
      tool_input: { command: "echo hi", timeout_ms: 10 },
      agent_id: "agent-7",
      agent_type: "worker",
    },
    PermissionRequest: { tool_name: "exec_command", tool_input: { cmd: ["ls", "-l"], description: "list" } },
    PostToolUse: { tool_name: "mcp__fs__read", tool_input: { path: "/x" }, tool_response: ["any", { json: 1 }] },
    PostToolUseFailure: { tool_name: "shell_command", tool_input: { command: "false" }, error: "exit status 1" },
    PreCompact: { trigger: "auto" },
    Notification: { message: "idle for 60 s", notification_type: "idle_prompt" },
    PostCompact: { trigger: "manual" },
    SubagentStop: { agent_transcript_path: "/t/agent.jsonl", last_assistant_message: null },
    Stop: { stop_hook_active: true, permission_mode: "bypassPermissions" },
    Interrupt: { permission_mode: "dontAsk" },
    SessionEnd: { transcript_path: "/t/session.jsonl" },
  };
  return event(name, { session_id: sessionId("cap"), cwd, ...overrides[name] });
}

/** What the hook should see: the sent input, in the compatibility form for tool events, transcript filled. */
function expectedCapture(name: EventName, sent: Json, home: string): Json {
  const want: Json = { ...sent };
  // shell_command keeps `command`
  if (name === "PreToolUse" || name === "PostToolUseFailure") want.tool_name = "Bash";
  if (name === "PermissionRequest") {
    want.tool_name = "Bash";
    want.tool_input = { command: "ls -l", description: "list" };
  }
  if (!Object.hasOwn(sent, "transcript_path") || sent.transcript_path === null) {
    // §5 (r2): a missing or null transcript_path is filled with §11's path (checked by shape: the date comes from
    // the clock), and that file exists before the hook runs.
    // Raised inside a subagent (not a Subagent* event itself), it is the subagent's own transcript (§11).
    const own = typeof sent.agent_id === "string" && !name.startsWith("Subagent") ? `+agent-${sent.agent_id}` : "";
    want.transcript_path = {
      startsWith: join(home, "sessions") + "/",
      endsWith: `session-${sent.session_id}${own}.jsonl`,
    };
  }
  return want;
}

Deno.test("§5 generated input schemas match the SPEC §5 table (Codex's published shape)", () => {
  for (const name of EVENT_NAMES) {
    const schema = INPUT_SCHEMAS[name] as JsonSchema;
    assert(schema, `${name}: schema exists`);
    assertEquals(schema.type, "object", name);
    assertEquals(schema.additionalProperties, false, `${name}: additionalProperties false at top level`);
    const req = required(name);
    assertEquals([...(schema.required ?? [])].sort(), Object.keys(req).sort(), `${name}: required fields`);
    const declared = { ...req, ...OPTIONAL_FIELDS };
    assertEquals(Object.keys(schema.properties ?? {}).sort(), Object.keys(declared).sort(), `${name}: properties`);
    for (const [field, t] of Object.entries(declared)) {
      assertSchemaType(schema.properties![field], t, `${name}.${field}`);
    }
  }
});

Deno.test("§5 each event's hook reads exactly its documented fields, with the sent values", async () => {
  await using home = await makeHome();
  const captures = join(home.path, "captures");
  await Deno.mkdir(captures);
  await writeHooksJson(
    home.path,
    Object.fromEntries(
      EVENT_NAMES.map((name) => [name, [group([cmd(shHook("capture_stdin.sh", [join(captures, `${name}.json`)]))])]]),
    ),
  );
  await trustAll(home.path);

  const sent = Object.fromEntries(EVENT_NAMES.map((name) => [name, inputFor(name, home.path)])) as Record<
    EventName,
    Json
  >;
  // Three at a time: enough to overlap process start-up on two cores without starving each other.
  for (let i = 0; i < EVENT_NAMES.length; i += 3) {
    await Promise.all(
      EVENT_NAMES.slice(i, i + 3).map(async (name) => {
        const r = await dispatch(home.path, sent[name]);
        assertEquals(r.runs.map((x) => x.status), ["completed"], `${name}: ${JSON.stringify(r.runs)}`);
        assertEquals(r.warnings, [], `${name}: no warnings`);
      }),
    );
  }

  for (const name of EVENT_NAMES) {
    const captured = JSON.parse(await Deno.readTextFile(join(captures, `${name}.json`))) as Json;

    // 1. The generated schema accepts it.
    const issue = validateJson(INPUT_SCHEMAS[name] as JsonSchema, captured);
    assertEquals(issue, null, `${name}: ${JSON.stringify(issue)}`);

    // 2. Field for field against the table: every required field with its type, nothing undocumented.
    const req = required(name);
    for (const [field, t] of Object.entries(req)) {
      assert(Object.hasOwn(captured, field), `${name}: ${field} missing`);
      assert(
        hasType(captured[field], t),
        `${name}.${field}: ${JSON.stringify(captured[field])} is not ${JSON.stringify(t)}`,
      );
    }
    for (const field of Object.keys(captured)) {
      assert(field in req || field in OPTIONAL_FIELDS, `${name}: undocumented field ${field}`);
      if (field in OPTIONAL_FIELDS) assert(hasType(captured[field], OPTIONAL_FIELDS[field]), `${name}.${field}`);
    }
    assertEquals(captured.hook_event_name, name);

    // 3. Value for value against what was sent.
    const want = expectedCapture(name, sent[name], home.path);
    assertEquals(Object.keys(captured).sort(), Object.keys(want).sort(), `${name}: field set`);
    for (const [field, value] of Object.entries(want)) {
      if (value && typeof value === "object" && "startsWith" in value) {
        const got = String(captured[field]);
        const { startsWith, endsWith } = value as { startsWith: string; endsWith: string };
        assert(got.startsWith(startsWith) && got.endsWith(endsWith), `${name}.${field}: ${got}`);
      } else {
        assertEquals(captured[field], value, `${name}.${field}`);
      }
    }

    // The hook ran with the engine's environment additions (no project here, so no MIND_PROJECT_DIR).
    const env = await Deno.readTextFile(join(captures, `${name}.json.env`));
    assertMatch(env, new RegExp(`^MIND_HOOK_EVENT=${name}$`, "m"));
    assertMatch(env, /^MIND_PROJECT_DIR=<unset>$/m);
    assertMatch(env, new RegExp(`^PWD=${home.path}$`, "m"));

    // 4. The schema is strict, as Codex's are: an extra or a missing field is refused.
    assert(validateJson(INPUT_SCHEMAS[name] as JsonSchema, { ...captured, surprise: 1 }), `${name}: extra field`);
    const { session_id: _dropped, ...withoutSession } = captured;
    assert(validateJson(INPUT_SCHEMAS[name] as JsonSchema, withoutSession), `${name}: missing session_id`);
  }
});
