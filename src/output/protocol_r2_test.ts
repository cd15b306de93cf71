/**
 * SPEC revision 2 of the output protocol (§8, §7.2), and one fixed sentence per handler failure:
 * mixed PreToolUse/PostToolUse fields, text followed by JSON on stdout, async output read for its
 * informational fields only, and the exact text of every failure reason the protocol produces.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { EVENTS } from "../events/registry.ts";
import { EVENT_NAMES, type EventName } from "../events/names.ts";
import { OUTPUT_SCHEMAS } from "../generated/schemas.ts";
import { endsWithJsonObject, readCompletion, type ReadOptions } from "./protocol.ts";
import { type RawCompletion, rawCompletion } from "../runner/types.ts";
import type { HandlerOutcome } from "../events/types.ts";

function raw(stdout: string, over: Partial<RawCompletion> = {}): RawCompletion {
  return rawCompletion({ stdout, exitCode: 0, durationMs: 1, timeoutSec: 600, ...over });
}

function read(event: EventName, stdout: unknown, over: Partial<RawCompletion> = {}, opts: ReadOptions = {}) {
  const text = typeof stdout === "string" ? stdout : JSON.stringify(stdout);
  return readCompletion(EVENTS[event], OUTPUT_SCHEMAS[event], raw(text, over), opts);
}

/** The failure reason, or a marker that makes the comparison fail with the outcome shown. */
function reason(o: HandlerOutcome): string {
  return o.status === "failed" ? o.reason : `not failed: ${JSON.stringify(o)}`;
}

const hso = (event: string, fields: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: event, ...fields },
});

Deno.test("§8 r2 PreToolUse: a deny in an output always denies and drops the allow or rewrite beside it", () => {
  const denyAndAllow = read("PreToolUse", {
    ...hso("PreToolUse", { permissionDecision: "allow", updatedInput: { command: "echo safe" } }),
    decision: "block",
    reason: "legacy deny",
  });
  assertEquals(denyAndAllow, { status: "blocked", effect: { blockReason: "legacy deny" } });
  // The legacy block also wins over an allow that lacks its rewrite (no "allow needs updatedInput" failure).
  assertEquals(
    read("PreToolUse", { ...hso("PreToolUse", { permissionDecision: "allow" }), decision: "block", reason: "no" }),
    { status: "blocked", effect: { blockReason: "no" } },
  );
  assertEquals(
    read(
      "PreToolUse",
      hso("PreToolUse", { permissionDecision: "deny", permissionDecisionReason: "r", updatedInput: {} }),
    ),
    { status: "blocked", effect: { blockReason: "r" } },
  );
});

Deno.test("§8 r2 PreToolUse: inconsistent fields fail the handler, each with its own sentence", () => {
  assertEquals(
    reason(read("PreToolUse", hso("PreToolUse", { permissionDecisionReason: "why" }))),
    "PreToolUse hook returned a permissionDecisionReason without a permissionDecision",
  );
  assertEquals(
    reason(read("PreToolUse", { reason: "why" })),
    `PreToolUse hook returned a reason without decision "block" — nothing was blocked`,
  );
  assertEquals(
    reason(read("PreToolUse", hso("PreToolUse", { updatedInput: { command: "x" } }))),
    `updatedInput needs permissionDecision "allow" — the tool input was not changed`,
  );
});

Deno.test("§8 r2 PostToolUse: a reason without decision block or continue:false fails", () => {
  assertEquals(
    reason(read("PostToolUse", { reason: "lost feedback" })),
    `PostToolUse hook returned a reason without decision "block" or continue: false — the reason was not delivered`,
  );
  assertEquals(read("PostToolUse", { continue: false, reason: "stop" }).status, "blocked");
  assertEquals(read("PostToolUse", { decision: "block", reason: "bad" }).status, "blocked");
});

Deno.test("§8 r2: text followed by a JSON object on stdout fails loudly, on every event (mind dialect)", () => {
  const lastLine = 'Welcome back!\n{"decision":"block","reason":"rm -rf is not allowed"}\n';
  const spanning = 'profile: nvm loaded\n{\n  "hookSpecificOutput": {"hookEventName": "PreToolUse"}\n}';
  for (const e of EVENT_NAMES) {
    assertEquals(reason(read(e, lastLine)), "JSON after other output on stdout", e);
    assertEquals(reason(read(e, spanning)), "JSON after other output on stdout", e);
  }
  // Text that merely ends with a brace is text.
  assertEquals(read("SessionStart", "use {braces}\nlike {this}"), {
    status: "completed",
    effect: { additionalContext: "use {braces}\nlike {this}" },
  });
  // The Claude dialect reads such stdout as Claude Code does: plain text (ignored on PreToolUse).
  assertEquals(read("PreToolUse", lastLine, {}, { dialect: "claude" }), { status: "completed", effect: {} });
});

Deno.test("endsWithJsonObject: bounded, and only objects starting at a line start", () => {
  assertEquals(endsWithJsonObject('a\n{"x":1}'), true);
  assertEquals(endsWithJsonObject('a {"x":1}'), false);
  assertEquals(endsWithJsonObject("a\n[1]"), false);
  assertEquals(endsWithJsonObject("a\n{not json}"), false);
  // A flood of lines starting with "{" costs a bounded number of parse attempts.
  const flood = "text\n" + '{"a":\n'.repeat(200_000) + "}";
  const t0 = performance.now();
  assertEquals(endsWithJsonObject(flood), false);
  const ms = performance.now() - t0;
  if (ms > 2000) throw new Error(`endsWithJsonObject took ${ms} ms on a flood`);
});

Deno.test("§7.2 r2: an async handler's output is read for systemMessage and additionalContext only", () => {
  const async = { async: true };
  // Control fields are ignored, not a failure.
  assertEquals(
    read(
      "PreToolUse",
      {
        ...hso("PreToolUse", { permissionDecision: "ask", additionalContext: "ctx" }),
        decision: "approve",
        continue: false,
        systemMessage: "note",
      },
      {},
      async,
    ),
    { status: "completed", effect: { systemMessage: "note", additionalContext: "ctx" } },
  );
  assertEquals(read("Stop", { decision: "block", reason: "again" }, {}, async), { status: "completed", effect: {} });
  // Context only where the event delivers it.
  assertEquals(read("PreCompact", hso("PreCompact", { additionalContext: "x" }), {}, async), {
    status: "completed",
    effect: {},
  });
  // Failures stay failures.
  assertEquals(reason(read("PostToolUse", "", { exitCode: 2, stderr: "blocked" }, async)), "exit 2");
  assertEquals(reason(read("PostToolUse", "", { exitCode: 3 }, async)), "exit 3");
  assertEquals(reason(read("PostToolUse", "{oops", {}, async)), "invalid JSON: does not parse (line 1, column 2)");
  assertEquals(
    reason(read("PostToolUse", "", { timedOut: true, exitCode: null, timeoutSec: 5 }, async)),
    "timeout after 5s",
  );
  assertEquals(reason(read("PreToolUse", 'hi\n{"a":1}', {}, async)), "JSON after other output on stdout");
  assertEquals(read("UserPromptSubmit", "plain context\n", {}, async), {
    status: "completed",
    effect: { additionalContext: "plain context" },
  });
});

Deno.test("every handler failure has one fixed sentence (exact text)", () => {
  const table: [EventName, unknown, Partial<RawCompletion>, string][] = [
    [
      "PreToolUse",
      "",
      { spawnError: "No such file or directory (os error 2)", exitCode: null },
      "spawn failed: No such file or directory (os error 2)",
    ],
    ["PreToolUse", "", { timedOut: true, exitCode: null, timeoutSec: 7 }, "timeout after 7s"],
    ["PreToolUse", "", { exitCode: null, signal: "SIGSEGV" }, "killed by signal SIGSEGV"],
    ["PreToolUse", "", { exitCode: 2, stderr: " \n" }, "exit 2 without a reason on stderr — nothing was blocked"],
    ["SessionStart", "", { exitCode: 2, stderr: "why" }, "exit 2"],
    ["PreToolUse", "", { exitCode: 1 }, "exit 1"],
    ["PreToolUse", "{", { stdoutTruncated: true }, "invalid JSON: output exceeded the 1 MiB capture limit"],
    ["PreToolUse", "[1]", {}, "invalid JSON: expected a JSON object"],
    ["PreToolUse", '{"a":', {}, "invalid JSON: does not parse (unexpected end of input)"],
    ["PreToolUse", "[".repeat(70) + "]".repeat(70), {}, "invalid JSON: nests deeper than 64 levels"],
    ["Stop", "keep going", {}, "Stop hooks must answer JSON or nothing; got plain text"],
    ["PreToolUse", "x\n{}", {}, "JSON after other output on stdout"],
    ["PreToolUse", { bogus: 1 }, {}, "invalid PreToolUse output: bogus: is not an accepted field"],
    [
      "PreToolUse",
      hso("Stop", {}),
      {},
      `invalid PreToolUse output: hookSpecificOutput.hookEventName: expected "PreToolUse", got string "Stop"`,
    ],
    ["PreToolUse", { continue: false }, {}, "PreToolUse hook returned unsupported continue: false"],
    ["PermissionRequest", { stopReason: "x" }, {}, "PermissionRequest hook returned unsupported stopReason"],
    ["PreToolUse", { suppressOutput: true }, {}, "PreToolUse hook returned unsupported suppressOutput: true"],
    ["PreToolUse", { decision: "approve" }, {}, `PreToolUse hook returned unsupported decision "approve"`],
    [
      "PreToolUse",
      hso("PreToolUse", { permissionDecision: "deny" }),
      {},
      `permissionDecision "deny" needs a permissionDecisionReason — the tool call was not blocked`,
    ],
    [
      "PreToolUse",
      { decision: "block" },
      {},
      `PreToolUse hook returned decision "block" without a reason — the tool call was not blocked`,
    ],
    [
      "PreToolUse",
      hso("PreToolUse", { permissionDecision: "ask" }),
      {},
      `PreToolUse hook returned unsupported permissionDecision "ask"`,
    ],
    [
      "PreToolUse",
      hso("PreToolUse", { permissionDecision: "allow" }),
      {},
      `permissionDecision "allow" is supported only together with updatedInput — nothing was changed`,
    ],
    [
      "PermissionRequest",
      hso("PermissionRequest", { decision: { behavior: "allow", updatedInput: {} } }),
      {},
      "PermissionRequest hook returned reserved field updatedInput",
    ],
    [
      "PermissionRequest",
      hso("PermissionRequest", { decision: { behavior: "deny", interrupt: true } }),
      {},
      "PermissionRequest hook returned reserved interrupt: true",
    ],
    [
      "PostToolUse",
      { decision: "block" },
      {},
      `PostToolUse hook returned decision "block" without a reason — the result was not rejected`,
    ],
    [
      "UserPromptSubmit",
      { decision: "block", reason: "" },
      {},
      `UserPromptSubmit hook returned decision "block" without a reason — nothing was blocked`,
    ],
  ];
  for (const [event, stdout, over, expected] of table) {
    assertEquals(reason(read(event, stdout, over)), expected, `${event} ${JSON.stringify(stdout).slice(0, 60)}`);
  }
});
