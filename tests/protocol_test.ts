/**
 * The output protocol (SPEC §8) as a table: for each of the 12 events, what a
 * handler may answer and what fails it; then aggregation (SPEC §9).
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { EVENTS } from "../src/events/registry.ts";
import { EVENT_NAMES, type EventName } from "../src/events/names.ts";
import { OUTPUT_SCHEMAS } from "../src/generated/schemas.ts";
import { readCompletion } from "../src/output/protocol.ts";
import type { RawCompletion } from "../src/runner/types.ts";
import type { AggregationItem, HandlerEffect, HandlerOutcome } from "../src/events/types.ts";

function raw(stdout: string, exitCode: number | null = 0, stderr = ""): RawCompletion {
  return {
    stdout,
    stderr,
    exitCode,
    signal: exitCode === null ? "SIGKILL" : null,
    timedOut: false,
    spawnError: null,
    stdoutTruncated: false,
    stderrTruncated: false,
    invalidUtf8: false,
    durationMs: 1,
    timeoutSec: 600,
  };
}

function read(event: EventName, stdout: unknown, exitCode = 0, stderr = ""): HandlerOutcome {
  const text = typeof stdout === "string" ? stdout : JSON.stringify(stdout);
  return readCompletion(EVENTS[event], OUTPUT_SCHEMAS[event], raw(text, exitCode, stderr));
}

function ok(event: EventName, stdout: unknown): HandlerEffect {
  const o = read(event, stdout);
  assert(
    o.status !== "failed",
    `${event} should accept ${JSON.stringify(stdout)}: ${o.status === "failed" ? o.reason : ""}`,
  );
  return o.effect;
}

function failed(event: EventName, stdout: unknown, exitCode = 0, stderr = ""): string {
  const o = read(event, stdout, exitCode, stderr);
  assert(o.status === "failed", `${event} should reject ${JSON.stringify(stdout)} (exit ${exitCode})`);
  return o.reason;
}

const hso = (event: string, fields: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: event, ...fields },
});

Deno.test("every event: empty stdout completes; non-zero exit fails; signal and timeout fail", () => {
  for (const e of EVENT_NAMES) {
    assertEquals(read(e, "").status, "completed", e);
    assertEquals(failed(e, "", 1), "exit 1");
    assertEquals(readCompletion(EVENTS[e], OUTPUT_SCHEMAS[e], raw("", null)).status, "failed");
    const t = { ...raw(""), timedOut: true, timeoutSec: 3 };
    const o = readCompletion(EVENTS[e], OUTPUT_SCHEMAS[e], t);
    assertEquals(o.status === "failed" && o.reason, "timeout after 3s");
  }
});

Deno.test("exit 2 blocks only on the six blocking events, and only with a reason on stderr", () => {
  const blocking = new Set([
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
  ]);
  for (const e of EVENT_NAMES) {
    const o = read(e, "", 2, "no way\n");
    if (blocking.has(e)) {
      assertEquals(o.status, "blocked", e);
      assertEquals(o.status === "blocked" && o.effect.blockReason, "no way");
      assert(failed(e, "", 2, "  ").includes("without a reason"));
    } else {
      assertEquals(o.status === "failed" && o.reason, "exit 2", e);
    }
  }
});

Deno.test("JSON-looking stdout that does not parse is a failure, never text", () => {
  for (const e of EVENT_NAMES) {
    assert(failed(e, "{ not json").startsWith("invalid JSON"), e);
    assert(failed(e, "[1, 2]").startsWith("invalid JSON"), e);
  }
});

Deno.test("plain stdout: context for SessionStart/UserPromptSubmit/SubagentStart, ignored elsewhere, invalid for Stop/SubagentStop/Interrupt", () => {
  for (const e of ["SessionStart", "UserPromptSubmit", "SubagentStart"] as const) {
    assertEquals(ok(e, "hello\n").additionalContext, "hello");
  }
  for (
    const e of ["PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "SessionEnd"] as const
  ) {
    assertEquals(ok(e, "hello"), {});
  }
  for (const e of ["Stop", "SubagentStop", "Interrupt"] as const) assert(failed(e, "hello").includes("JSON"));
});

Deno.test("PreToolUse accept/reject table", () => {
  assertEquals(
    ok("PreToolUse", hso("PreToolUse", { permissionDecision: "deny", permissionDecisionReason: "no" })).blockReason,
    "no",
  );
  assertEquals(ok("PreToolUse", { decision: "block", reason: "legacy" }).blockReason, "legacy");
  const allow = ok(
    "PreToolUse",
    hso("PreToolUse", { permissionDecision: "allow", updatedInput: { command: "echo hi" } }),
  );
  assertEquals(allow.updatedInput, { command: "echo hi" });
  assertEquals(ok("PreToolUse", hso("PreToolUse", { additionalContext: "ctx" })).additionalContext, "ctx");
  assertEquals(ok("PreToolUse", { systemMessage: "warn" }).systemMessage, "warn");
  assert(
    failed("PreToolUse", hso("PreToolUse", { permissionDecision: "deny" })).includes(
      "needs a permissionDecisionReason",
    ),
  );
  assert(
    failed("PreToolUse", hso("PreToolUse", { permissionDecision: "deny", permissionDecisionReason: " " })).includes(
      "permissionDecisionReason",
    ),
  );
  assert(failed("PreToolUse", hso("PreToolUse", { permissionDecision: "allow" })).includes("updatedInput"));
  assert(failed("PreToolUse", hso("PreToolUse", { updatedInput: { command: "x" } })).includes("allow"));
  assert(failed("PreToolUse", hso("PreToolUse", { permissionDecision: "ask" })).includes("ask"));
  assert(failed("PreToolUse", { decision: "approve" }).includes("approve"));
  assert(failed("PreToolUse", { continue: false }).includes("continue"));
  assert(failed("PreToolUse", { stopReason: "x" }).includes("stopReason"));
  assert(failed("PreToolUse", { suppressOutput: true }).includes("suppressOutput"));
  assertEquals(ok("PreToolUse", { suppressOutput: false }), {});
  assert(failed("PreToolUse", { decision: "block" }).includes("reason"));
  assert(failed("PreToolUse", hso("PostToolUse", {})).includes("hookEventName"));
  assert(failed("PreToolUse", { bogus: 1 }).includes("bogus"));
});

Deno.test("PermissionRequest accept/reject table", () => {
  const decision = (d: Record<string, unknown>) => hso("PermissionRequest", { decision: d });
  assertEquals(ok("PermissionRequest", decision({ behavior: "allow" })).allow, true);
  assertEquals(ok("PermissionRequest", decision({ behavior: "deny", message: "policy" })).blockReason, "policy");
  assertEquals(ok("PermissionRequest", decision({ behavior: "deny" })).blockReason, "Blocked by hook.");
  assertEquals(ok("PermissionRequest", decision({ behavior: "deny", message: "" })).blockReason, "Blocked by hook.");
  assert(failed("PermissionRequest", decision({ behavior: "allow", updatedInput: {} })).includes("updatedInput"));
  assert(
    failed("PermissionRequest", decision({ behavior: "allow", updatedPermissions: [] })).includes("updatedPermissions"),
  );
  assert(failed("PermissionRequest", decision({ behavior: "deny", interrupt: true })).includes("interrupt"));
  assertEquals(
    ok("PermissionRequest", decision({ behavior: "deny", interrupt: false })).blockReason,
    "Blocked by hook.",
  );
  assert(failed("PermissionRequest", decision({ behavior: "ask" })).includes("behavior"));
  assert(failed("PermissionRequest", { continue: false }).includes("continue"));
  assert(failed("PermissionRequest", { stopReason: "s" }).includes("stopReason"));
  assert(failed("PermissionRequest", { suppressOutput: true }).includes("suppressOutput"));
});

Deno.test("PostToolUse accept/reject table", () => {
  assertEquals(ok("PostToolUse", { decision: "block", reason: "bad result" }).blockReason, "bad result");
  const stop = ok("PostToolUse", { continue: false, reason: "stop now" });
  assertEquals([stop.stop, stop.stopFeedback], [true, "stop now"]);
  assertEquals(ok("PostToolUse", { continue: false, stopReason: "sr" }).stopFeedback, "sr");
  assert((ok("PostToolUse", { continue: false }).stopFeedback ?? "").length > 0);
  assertEquals(ok("PostToolUse", hso("PostToolUse", { additionalContext: "c" })).additionalContext, "c");
  assert(failed("PostToolUse", { decision: "block" }).includes("reason"));
  assert(failed("PostToolUse", hso("PostToolUse", { updatedMCPToolOutput: "x" })).includes("updatedMCPToolOutput"));
  assert(failed("PostToolUse", { suppressOutput: true }).includes("suppressOutput"));
  assert(failed("PostToolUse", { toolResult: "replaced" }).includes("toolResult"));
});

Deno.test("UserPromptSubmit, SessionStart, SubagentStart, compaction, SessionEnd, Interrupt tables", () => {
  assertEquals(ok("UserPromptSubmit", { decision: "block", reason: "nope" }).blockReason, "nope");
  assert(failed("UserPromptSubmit", { decision: "block", reason: "" }).includes("reason"));
  assertEquals(ok("UserPromptSubmit", hso("UserPromptSubmit", { additionalContext: "a" })).additionalContext, "a");
  const ss = ok("SessionStart", {
    continue: false,
    stopReason: "maintenance",
    ...hso("SessionStart", { additionalContext: "kept" }),
  });
  assertEquals([ss.stop, ss.stopReason, ss.additionalContext], [true, "maintenance", "kept"]);
  assert(failed("SessionStart", { decision: "block", reason: "x" }).includes("decision"));
  assertEquals(ok("SubagentStart", { continue: false }).stop, undefined);
  assertEquals(ok("SubagentStart", hso("SubagentStart", { additionalContext: "sub" })).additionalContext, "sub");
  assertEquals(ok("PreCompact", { continue: false }).stop, true);
  assertEquals(ok("PostCompact", { continue: false, stopReason: "r" }).stopReason, "r");
  assert(failed("PostCompact", hso("PostCompact", { additionalContext: "x" })).includes("hookSpecificOutput"));
  assertEquals(ok("SessionEnd", { systemMessage: "bye" }).systemMessage, "bye");
  assertEquals(ok("Interrupt", { systemMessage: "int" }).systemMessage, "int");
  assert(failed("Interrupt", { continue: false }).includes("continue"));
});

Deno.test("Stop and SubagentStop: JSON only; block needs a reason", () => {
  for (const e of ["Stop", "SubagentStop"] as const) {
    assertEquals(ok(e, { decision: "block", reason: "keep going" }).blockReason, "keep going");
    assertEquals(ok(e, { continue: false, stopReason: "done" }).stop, true);
    assert(failed(e, { decision: "block" }).includes("reason"));
    assert(failed(e, hso(e, {})).includes("hookSpecificOutput"));
  }
});

function items(...effects: HandlerEffect[]): AggregationItem[] {
  return effects.map((effect, i) => ({ order: i, completedSeq: i + 1, effect }));
}

Deno.test("aggregation: PreToolUse first deny in configuration order; last completer's updatedInput wins whole", () => {
  const agg = EVENTS.PreToolUse.aggregate;
  const denied = agg(
    items({ additionalContext: "c" }, { blockReason: "first" }, { blockReason: "second" }, {
      allow: true,
      updatedInput: { command: "x" },
    }),
  );
  assertEquals([denied.decision, denied.reason, denied.updatedInput], ["deny", "first", null]);
  const rewrites: AggregationItem[] = [
    { order: 0, completedSeq: 2, effect: { allow: true, updatedInput: { command: "a", extra: 1 } } },
    { order: 1, completedSeq: 1, effect: { allow: true, updatedInput: { command: "b" } } },
  ];
  const allowed = agg(rewrites);
  assertEquals([allowed.decision, allowed.updatedInput], ["allow", { command: "a", extra: 1 }]);
  assertEquals(agg([]).decision, null);
});

Deno.test("aggregation: PermissionRequest deny wins over allow", () => {
  const agg = EVENTS.PermissionRequest.aggregate;
  assertEquals(agg(items({ allow: true }, { blockReason: "no" })).decision, "deny");
  assertEquals(agg(items({ allow: true })).decision, "allow");
  assertEquals(agg(items({})).decision, null);
});

Deno.test("aggregation: PostToolUse merges block and stop feedback in order", () => {
  const r = EVENTS.PostToolUse.aggregate(
    items({ stop: true, stopFeedback: "s1" }, { blockReason: "b1" }, { blockReason: "b2" }),
  );
  assertEquals([r.decision, r.reason, r.continue], ["block", "s1\n\nb1\n\nb2", false]);
  const s = EVENTS.PostToolUse.aggregate(items({ stop: true, stopFeedback: "only", stopReason: "sr" }));
  assertEquals([s.decision, s.reason, s.continue, s.stopReason], ["stop", "only", false, "sr"]);
});

Deno.test("aggregation: Stop — continue:false wins; blocks join into one continuation prompt", () => {
  const agg = EVENTS.Stop.aggregate;
  const stop = agg(items({ blockReason: "a" }, { stop: true, stopReason: "enough" }));
  assertEquals([stop.decision, stop.continue, stop.stopReason, stop.continuationPrompt], [
    "stop",
    false,
    "enough",
    null,
  ]);
  const block = agg(items({ blockReason: "fix tests" }, {}, { blockReason: "update docs" }));
  assertEquals([block.decision, block.continuationPrompt], ["block", "fix tests\n\nupdate docs"]);
});

Deno.test("aggregation: SessionStart/PreCompact/PostCompact stop; UserPromptSubmit block", () => {
  for (const e of ["SessionStart", "PreCompact", "PostCompact"] as const) {
    const r = EVENTS[e].aggregate(items({}, { stop: true, stopReason: "x" }));
    assertEquals([r.decision, r.continue, r.stopReason], ["stop", false, "x"]);
  }
  const u = EVENTS.UserPromptSubmit.aggregate(items({ additionalContext: "c" }, { blockReason: "secret" }));
  assertEquals([u.decision, u.reason], ["block", "secret"]);
});

Deno.test("PreToolUse: a deny that also carries updatedInput still denies", () => {
  const e = ok(
    "PreToolUse",
    hso("PreToolUse", { permissionDecision: "deny", permissionDecisionReason: "no", updatedInput: { command: "x" } }),
  );
  assertEquals([e.blockReason, e.updatedInput], ["no", undefined]);
});

Deno.test("invalid JSON failures never quote the hook's output (it may hold secrets)", () => {
  const reason = failed("PreToolUse", '{"token": SECRET_TOKEN_123');
  assert(reason.startsWith("invalid JSON"), reason);
  assert(!reason.includes("SECRET"), reason);
});
