/**
 * The output protocol (SPEC §8), the part common to every event: exit codes, exit 2, plain vs JSON
 * stdout. What each event accepts in a JSON answer, and how it aggregates (SPEC §9), is tested beside
 * its module (src/events/<event>_test.ts).
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { EVENTS } from "../events/registry.ts";
import { EVENT_NAMES, type EventName } from "../events/names.ts";
import { OUTPUT_SCHEMAS } from "../generated/schemas.ts";
import { readCompletion } from "./protocol.ts";
import { type RawCompletion, rawCompletion } from "../runner/types.ts";
import type { HandlerEffect, HandlerOutcome } from "../events/types.ts";

function raw(stdout: string, exitCode: number | null = 0, stderr = ""): RawCompletion {
  const signal = exitCode === null ? "SIGKILL" : null;
  return rawCompletion({ stdout, stderr, exitCode, signal, durationMs: 1, timeoutSec: 600 });
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

Deno.test("exit 2 blocks only on the blocking events, and only with a reason on stderr", () => {
  // The six of SPEC §8, and (r4) PostToolUseFailure, whose output is read as PostToolUse's.
  const blocking = new Set([
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
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

Deno.test("invalid JSON failures never quote the hook's output (it may hold secrets)", () => {
  const reason = failed("PreToolUse", '{"token": SECRET_TOKEN_123');
  assert(reason.startsWith("invalid JSON"), reason);
  assert(!reason.includes("SECRET"), reason);
});
