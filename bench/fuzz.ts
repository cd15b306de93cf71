/**
 * Fuzzing the engine's parsers of untrusted input (SPEC §15 "Reliability") with fast-check:
 *
 * - `event`: the stdin event parser (`parseEventText` + `validateEvent` + `hookInputFor`);
 * - `toml`: `parseTomlText` of config.toml / requirements.toml text, then `collectHandlers` of its hooks;
 * - `jsonc`: `parseJsoncText` of hooks.json / plugin manifest text, then `collectHandlers`;
 * - `handlers`: `collectHandlers` of arbitrary JSON values shaped like a hooks table;
 * - `completion`: the hook-output parser `readCompletion` for every event;
 * - `tools`: tool-name aliasing and normalization (`toolMatchSubjects`, `toCompatTool`,
 *   `fromCompatInput`) with the model's tool names, `Object.prototype`'s own names included.
 *
 * The property, for every target: no exception escapes, and every rejection is one clear line (a
 * non-empty string without line breaks, of bounded length). `tests/fuzz_test.ts` runs a small sample
 * of each target from a fixed seed (CI is deterministic, SPEC §15); `deno task fuzz [RUNS] [--seed S]`
 * runs RUNS (default 100,000) per target from random seeds (or S) and prints counts, times and seeds.
 * @module
 */
import fc from "fast-check";
import { hookInputFor, parseEventText, validateEvent } from "../src/engine/input.ts";
import { parseJsoncText, parseTomlText } from "../src/config/files.ts";
import { collectHandlers } from "../src/config/handlers.ts";
import { readCompletion } from "../src/output/protocol.ts";
import { EVENTS } from "../src/events/registry.ts";
import { OUTPUT_SCHEMAS } from "../src/generated/schemas.ts";
import { EVENT_NAMES, type EventName } from "../src/events/names.ts";
import type { RawCompletion } from "../src/runner/types.ts";
import type { JsonSchema } from "../src/schema/validate.ts";
import { fromCompatInput, toCompatTool, toolMatchSubjects } from "../src/matching/tool_names.ts";

/** Longest acceptable one-line error (a reason shown to users and hosts must stay readable). */
export const MAX_ERROR_LENGTH = 2000;

/** Throws unless `text` is one clear line. */
export function assertOneLine(text: unknown, what: string): void {
  if (typeof text !== "string" || text.trim() === "") throw new Error(`${what}: empty or not a string`);
  if (/[\r\n\u2028\u2029]/.test(text)) throw new Error(`${what} spans lines: ${JSON.stringify(text.slice(0, 300))}`);
  if (text.length > MAX_ERROR_LENGTH) throw new Error(`${what} is ${text.length} characters long`);
}

// ---------------------------------------------------------------------------------------------
// Generators

const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((b) => new TextDecoder().decode(b)),
);

/** A valid §5 event of each kind, the base that mutations start from. */
function baseEvent(name: EventName): Record<string, unknown> {
  const turn = { turn_id: "t", permission_mode: "default" };
  const tool = { ...turn, tool_name: "exec_command", tool_input: { cmd: "ls" } };
  const extra: Record<string, Record<string, unknown>> = {
    SessionStart: { permission_mode: "default", source: "startup" },
    SessionEnd: { reason: "other" },
    UserPromptSubmit: { ...turn, prompt: "p" },
    PreToolUse: { ...tool, tool_use_id: "u" },
    PermissionRequest: tool,
    PostToolUse: { ...tool, tool_use_id: "u", tool_response: {} },
    PreCompact: { turn_id: "t", trigger: "manual" },
    PostCompact: { turn_id: "t", trigger: "auto" },
    SubagentStart: { ...turn, agent_id: "a", agent_type: "x" },
    SubagentStop: {
      ...turn,
      agent_id: "a",
      agent_type: "x",
      agent_transcript_path: null,
      stop_hook_active: false,
      last_assistant_message: null,
    },
    Stop: { ...turn, stop_hook_active: false, last_assistant_message: "m" },
    Interrupt: turn,
  };
  const ev: Record<string, unknown> = {
    session_id: "s",
    transcript_path: null,
    cwd: "/tmp",
    hook_event_name: name,
    model: "m",
    ...extra[name],
  };
  if (name === "SessionEnd") delete ev.model;
  return ev;
}

const eventName = fc.constantFrom(...EVENT_NAMES);
const fieldName = fc.oneof(
  fc.constantFrom(
    "session_id",
    "cwd",
    "hook_event_name",
    "tool_name",
    "tool_input",
    "transcript_path",
    "permission_mode",
    "prompt",
    "__proto__",
    "constructor",
    "turn_id",
    "source",
    "trigger",
  ),
  fc.string({ maxLength: 12 }),
);

/** Valid events with fields replaced, removed or added. */
const mutatedEvent = fc.tuple(
  eventName,
  fc.array(fc.tuple(fieldName, fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined })), { maxLength: 4 }),
).map(([name, edits]) => {
  const ev = baseEvent(name);
  for (const [k, v] of edits) {
    if (v === undefined) delete ev[k];
    else Object.defineProperty(ev, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return JSON.stringify(ev);
});

/** Text for the stdin event parser. */
export const eventText: fc.Arbitrary<string> = fc.oneof(
  anyText,
  fc.json({ maxDepth: 4 }),
  mutatedEvent,
  mutatedEvent.map((t) => t.slice(0, Math.max(1, t.length - 3))),
  fc.tuple(mutatedEvent, anyText).map(([t, junk]) => t + junk),
);

const tomlLine = fc.oneof(
  fc.constantFrom(
    "[hooks]",
    "[[hooks.PreToolUse]]",
    "[[hooks.PreToolUse.hooks]]",
    "[[hooks.Stop]]",
    '[hooks.state."k"]',
    "[features]",
    "hooks = false",
    'matcher = "Bash"',
    "matcher = '('",
    'type = "command"',
    'type = "mcp_tool"',
    'command = "echo hi"',
    "command = ''",
    "timeout = 5",
    "timeout = -1",
    "timeout = 1e400",
    "async = true",
    "hooks = [",
    'hooks = [{ type = "command", command = "x" }]',
    "]",
    "{",
    "}",
    '"""',
    "'''",
    "a.b.c = 1",
    "x = [1, [2, [3]]]",
    "d = 1979-05-27T07:32:00Z",
    "n = nan",
    'k = "\\u0000"',
    '"quoted\\nkey" = 1',
    "= 1",
    "[[hooks.PreToolUse]",
  ),
  anyText,
);

/** config.toml-like text. */
export const tomlText: fc.Arbitrary<string> = fc.oneof(
  fc.array(tomlLine, { maxLength: 12 }).map((l) => l.join("\n")),
  anyText,
);

const jsoncPiece = fc.oneof(
  fc.constantFrom(
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    '"hooks"',
    '"PreToolUse"',
    '"matcher"',
    '"command"',
    '"type"',
    "// comment\n",
    "/* block */",
    "/* unterminated",
    "null",
    "true",
    "1e999",
    "-0",
    '"\\ud800"',
    '"\\u0000"',
  ),
  fc.json({ maxDepth: 2 }),
  anyText,
);

/** hooks.json-like text (JSONC). */
export const jsoncText: fc.Arbitrary<string> = fc.oneof(
  fc.array(jsoncPiece, { maxLength: 20 }).map((p) => p.join("")),
  fc.json({ maxDepth: 5 }),
  anyText,
);

const handlerLike = fc.oneof(
  fc.record(
    {
      type: fc.oneof(fc.constantFrom("command", "mcp_tool", "prompt", "agent"), fc.jsonValue({ maxDepth: 1 })),
      command: fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })),
      timeout: fc.oneof(fc.integer(), fc.double(), fc.jsonValue({ maxDepth: 1 })),
      async: fc.jsonValue({ maxDepth: 1 }),
      server: fc.string({ maxLength: 8 }),
      tool: fc.string({ maxLength: 8 }),
      input: fc.jsonValue({ maxDepth: 2 }),
      additionalContextLimit: fc.oneof(fc.integer(), fc.jsonValue({ maxDepth: 1 })),
      statusMessage: fc.jsonValue({ maxDepth: 1 }),
      commandWindows: fc.jsonValue({ maxDepth: 1 }),
      command_windows: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const groupLike = fc.oneof(
  fc.record(
    {
      matcher: fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom("(", "*", "Edit|Write", "[", "a{2,1}"),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      hooks: fc.oneof(fc.array(handlerLike, { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Values for `collectHandlers` (the `hooks` table of any layer). */
export const hooksValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.dictionary(
    fc.oneof(eventName, fc.string({ maxLength: 10 })),
    fc.oneof(fc.array(groupLike, { maxLength: 3 }), groupLike),
    {
      maxKeys: 4,
    },
  ),
  fc.jsonValue({ maxDepth: 4 }),
);

const outputLike = fc.oneof(
  fc.record(
    {
      continue: fc.jsonValue({ maxDepth: 1 }),
      stopReason: fc.jsonValue({ maxDepth: 1 }),
      systemMessage: fc.jsonValue({ maxDepth: 1 }),
      suppressOutput: fc.jsonValue({ maxDepth: 1 }),
      decision: fc.oneof(fc.constantFrom("block", "approve", "deny", "allow"), fc.jsonValue({ maxDepth: 1 })),
      reason: fc.jsonValue({ maxDepth: 1 }),
      hookSpecificOutput: fc.oneof(
        fc.record({
          hookEventName: fc.oneof(eventName, fc.string({ maxLength: 5 })),
          permissionDecision: fc.constantFrom("allow", "deny", "ask", "x"),
          permissionDecisionReason: fc.jsonValue({ maxDepth: 1 }),
          updatedInput: fc.jsonValue({ maxDepth: 2 }),
          additionalContext: fc.jsonValue({ maxDepth: 1 }),
          decision: fc.jsonValue({ maxDepth: 2 }),
        }, { requiredKeys: [] }),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    },
    { requiredKeys: [] },
  ).map((o) => JSON.stringify(o)),
  fc.json({ maxDepth: 3 }),
  anyText,
  anyText.map((t) => "{" + t),
  anyText.map((t) => "[" + t),
);

/** A hook's raw completion: exit, signal, timeout, spawn errors, any stdout and stderr. */
export const completion: fc.Arbitrary<{ event: EventName; raw: RawCompletion }> = fc.record({
  event: eventName,
  raw: fc.record({
    stdout: outputLike,
    stderr: anyText,
    exitCode: fc.oneof(fc.constantFrom(0, 0, 0, 2, 1, null), fc.integer({ min: -300, max: 300 })),
    signal: fc.option(fc.constantFrom("SIGKILL", "SIGTERM", "SIGSEGV"), { nil: null }),
    timedOut: fc.boolean(),
    spawnError: fc.option(anyText, { nil: null, freq: 8 }),
    stdoutTruncated: fc.boolean(),
    stderrTruncated: fc.boolean(),
    invalidUtf8: fc.boolean(),
    durationMs: fc.nat(),
    timeoutSec: fc.integer({ min: 1, max: 600 }),
  }),
});

/** Tool names as a model may send them: real tools, Object.prototype's names, anything. */
export const toolCall: fc.Arbitrary<
  { name: string; input: Record<string, unknown>; updated: Record<string, unknown> }
> = fc
  .record({
    name: fc.oneof(
      fc.constantFrom("exec_command", "shell_command", "write_stdin", "apply_patch", "Bash", "Edit", "spawn_agent"),
      fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype)),
      fc.string({ maxLength: 20 }),
    ),
    input: fc.dictionary(
      fc.oneof(fc.constantFrom("cmd", "command", "input", "chars", "__proto__", "constructor"), fc.string()),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 4 },
    ),
    updated: fc.dictionary(
      fc.oneof(fc.constantFrom("command", "toString"), fc.string()),
      fc.jsonValue({ maxDepth: 1 }),
      {
        maxKeys: 3,
      },
    ),
  });

// ---------------------------------------------------------------------------------------------
// Properties

async function fill(sid: string): Promise<string> {
  return await Promise.resolve(`/home/x/.mind/sessions/session-${sid.length}.jsonl`);
}

function checkHandlers(hooks: unknown): void {
  const r = collectHandlers(hooks, {
    layer: "project",
    keyPath: "/p/.mind/hooks.json",
    reservedKeys: new Set(["state"]),
  });
  for (const w of r.warnings) assertOneLine(w.message, `warning ${w.code}`);
  for (const h of r.handlers) {
    if (typeof h.key !== "string" || !h.key.startsWith("project:/p/.mind/hooks.json:")) {
      throw new Error(`bad key ${JSON.stringify(h.key)}`);
    }
  }
}

/** One fuzz target: its generator and its property. */
export type Target = { name: string; arb: fc.Arbitrary<unknown>; check: (v: unknown) => Promise<void> | void };

/** The six targets. */
export const TARGETS: Target[] = [
  {
    name: "event",
    arb: eventText,
    check: async (v) => {
      const p = parseEventText(v as string);
      if (!p.ok) return assertOneLine(p.error, "stdin error");
      const r = await validateEvent(p.value, fill);
      if (!r.ok) return assertOneLine(r.error, "event error");
      hookInputFor(r.value.event, r.value.input);
      for (const w of r.value.warnings) assertOneLine(w.message, "input warning");
    },
  },
  {
    name: "toml",
    arb: tomlText,
    check: (v) => {
      const r = parseTomlText(v as string, "/h/config.toml");
      if (!r.ok) return assertOneLine(r.error.message, "TOML warning");
      checkHandlers(r.value.hooks);
    },
  },
  {
    name: "jsonc",
    arb: jsoncText,
    check: async (v) => {
      const r = await parseJsoncText(v as string, "/p/.mind/hooks.json");
      if (!r.ok) return assertOneLine(r.error.message, "JSON warning");
      checkHandlers(r.value.data.hooks);
    },
  },
  { name: "handlers", arb: hooksValue, check: (v) => checkHandlers(v) },
  {
    name: "completion",
    arb: completion,
    check: (v) => {
      const { event, raw } = v as { event: EventName; raw: RawCompletion };
      const out = readCompletion(EVENTS[event], OUTPUT_SCHEMAS[event] as JsonSchema, raw);
      if (out.status === "failed") {
        assertOneLine(out.reason, "failure reason");
        if (out.systemMessage !== undefined) assertOneLine(out.systemMessage, "systemMessage hint");
      } else if (out.status !== "completed" && out.status !== "blocked") {
        throw new Error(`unknown status ${JSON.stringify(out)}`);
      }
    },
  },
  {
    name: "tools",
    arb: toolCall,
    check: (v) => {
      const { name, input, updated } = v as {
        name: string;
        input: Record<string, unknown>;
        updated: Record<string, unknown>;
      };
      const subjects = toolMatchSubjects(name);
      if (subjects[0] !== name || subjects.some((x) => typeof x !== "string")) throw new Error(`subjects ${subjects}`);
      const compat = toCompatTool(name, input);
      const shellOrPatch = ["exec_command", "shell_command", "write_stdin", "apply_patch"].includes(name);
      if (!shellOrPatch && compat.tool_name !== name) throw new Error(`${name} became ${compat.tool_name}`);
      if (typeof fromCompatInput(name, input, updated) !== "object") throw new Error("fromCompatInput");
    },
  },
];

/**
 * Runs `runs` generated inputs of one target from `seed`; returns the elapsed milliseconds. A
 * failure is thrown with the target and the seed first in its message, so that it can be replayed
 * (`deno task fuzz RUNS --seed SEED`).
 */
export async function fuzzTarget(t: Target, runs: number, seed: number): Promise<number> {
  const started = performance.now();
  try {
    await fc.assert(fc.asyncProperty(t.arb, async (v) => await t.check(v)), { numRuns: runs, seed });
  } catch (e) {
    throw new Error(`fuzz ${t.name} failed with seed ${seed}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return performance.now() - started;
}

/** A fresh random seed (a 32-bit integer, as fast-check takes). */
export function randomSeed(): number {
  return crypto.getRandomValues(new Int32Array(1))[0];
}

if (import.meta.main) {
  // `deno task fuzz [RUNS] [--seed SEED]`: random seeds unless one is given, each printed.
  const at = Deno.args.indexOf("--seed");
  const given = at >= 0 ? Number(Deno.args[at + 1]) : undefined;
  if (given !== undefined && !Number.isInteger(given)) throw new Error("--seed takes an integer");
  const rest = Deno.args.filter((_, i) => at < 0 || (i !== at && i !== at + 1));
  const runs = Number(rest[0] ?? 100_000);
  let total = 0;
  for (const t of TARGETS) {
    const seed = given ?? randomSeed();
    const ms = await fuzzTarget(t, runs, seed);
    total += ms;
    console.log(
      `${t.name.padEnd(11)} ${runs.toLocaleString("en-US")} inputs  ${(ms / 1000).toFixed(1)} s  ${
        Math.round(runs / (ms / 1000)).toLocaleString("en-US")
      }/s  seed ${seed}  no failure`,
    );
  }
  console.log(`total       ${(runs * TARGETS.length).toLocaleString("en-US")} inputs  ${(total / 1000).toFixed(1)} s`);
  // The command reader (SPEC §3.5 r3), with a random seed it prints first.
  (await import("./fuzz_reader.ts")).fuzzReader(Math.min(runs, 50_000));
}
