/**
 * The Claude dialect of the output protocol (SPEC §8.1), one test per rule: hooks of a `.claude-plugin`
 * plugin or of the `claude-project` layer are read the way Claude Code reads them. Each rule is also
 * checked against the real Claude Code CLI in tests/interop/interop.ts.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { EVENTS } from "../events/registry.ts";
import type { EventName } from "../events/names.ts";
import { CLAUDE_OUTPUT_SCHEMAS } from "../generated/schemas.ts";
import { readCompletion } from "./protocol.ts";
import { type RawCompletion, rawCompletion } from "../runner/types.ts";

function claude(event: EventName, stdout: unknown, over: Partial<RawCompletion> = {}) {
  const text = typeof stdout === "string" ? stdout : JSON.stringify(stdout);
  const raw = rawCompletion({ stdout: text, exitCode: 0, durationMs: 1, timeoutSec: 600, ...over });
  return readCompletion(EVENTS[event], CLAUDE_OUTPUT_SCHEMAS[event], raw, { dialect: "claude" });
}

const pre = (fields: Record<string, unknown>, top: Record<string, unknown> = {}) => ({
  ...top,
  hookSpecificOutput: { hookEventName: "PreToolUse", ...fields },
});

Deno.test("claude: unknown output keys are ignored, not a failure", () => {
  assertEquals(
    claude("PreToolUse", pre({ permissionDecision: "deny", permissionDecisionReason: "no", extra: 1 }, { foo: "bar" })),
    { status: "blocked", effect: { blockReason: "no" } },
  );
  // A hook that echoes its whole input back (every key unknown to the output protocol).
  assertEquals(claude("PostToolUse", { session_id: "s", tool_name: "Bash", tool_input: {} }), {
    status: "completed",
    effect: {},
  });
  // Known keys keep Claude Code's types: a wrong type is still a failure.
  assertEquals(claude("Stop", { continue: "no" }), {
    status: "failed",
    reason: `invalid Stop output: continue: expected boolean, got string "no"`,
  });
});

Deno.test("claude: allow without updatedInput is accepted and forwarded, with no effect of its own", () => {
  assertEquals(claude("PreToolUse", pre({ permissionDecision: "allow", permissionDecisionReason: "safe" })), {
    status: "completed",
    effect: { forwardedDecision: "allow", forwardedReason: "safe" },
  });
  assertEquals(claude("PreToolUse", pre({ permissionDecision: "defer" })), { status: "completed", effect: {} });
});

Deno.test("claude (r3): ask is a decision, with the hook's reason or Claude Code's words for none", () => {
  assertEquals(claude("PreToolUse", pre({ permissionDecision: "ask", permissionDecisionReason: "commit?" })), {
    status: "completed",
    effect: { forwardedDecision: "ask", forwardedReason: "commit?", ask: "commit?" },
  });
  assertEquals(claude("PreToolUse", pre({ permissionDecision: "ask" })), {
    status: "completed",
    effect: { forwardedDecision: "ask", ask: "Hook asked for confirmation for this tool" },
  });
  // mind's own dialect still fails it (SPEC §8): an ask is only a Claude-dialect answer.
  assertEquals(EVENTS.PreToolUse.interpret(pre({ permissionDecision: "ask", permissionDecisionReason: "x" }), "mind"), {
    status: "failed",
    reason: `PreToolUse hook returned unsupported permissionDecision "ask"`,
  });
});

Deno.test("claude: legacy decision approve means allow", () => {
  assertEquals(claude("PreToolUse", { decision: "approve", reason: "fine" }), {
    status: "completed",
    effect: { forwardedDecision: "allow", forwardedReason: "fine" },
  });
});

Deno.test("claude: updatedInput rewrites whole, with allow, with ask, or with no decision", () => {
  const updatedInput = { command: "echo rewritten" };
  for (const decision of ["allow", "ask", undefined]) {
    const o = claude("PreToolUse", pre({ permissionDecision: decision, updatedInput }));
    assertEquals(o.status === "completed" && [o.effect.allow, o.effect.updatedInput], [true, updatedInput]);
  }
});

Deno.test("claude: a deny without a reason, and exit 2 with an empty stderr, block with 'Blocked by hook'", () => {
  assertEquals(claude("PreToolUse", pre({ permissionDecision: "deny" })), {
    status: "blocked",
    effect: { blockReason: "Blocked by hook" },
  });
  // Claude Code falls back to the top-level reason.
  assertEquals(claude("PreToolUse", pre({ permissionDecision: "deny" }, { reason: "top" })), {
    status: "blocked",
    effect: { blockReason: "top" },
  });
  for (
    const e of ["PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"] as const
  ) {
    assertEquals(claude(e, "", { exitCode: 2 }), { status: "blocked", effect: { blockReason: "Blocked by hook" } }, e);
    assertEquals(claude(e, "", { exitCode: 2, stderr: "reason\n" }), {
      status: "blocked",
      effect: { blockReason: "reason" },
    });
  }
  for (const e of ["PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"] as const) {
    assertEquals(
      claude(e, { decision: "block" }),
      { status: "blocked", effect: { blockReason: "Blocked by hook" } },
      e,
    );
  }
  // Exit 2 still fails where nothing can be blocked.
  assertEquals(claude("SessionStart", "", { exitCode: 2 }), { status: "failed", reason: "exit 2" });
});

Deno.test("claude: continue, stopReason and suppressOutput are accepted on every event", () => {
  const stop = { continue: false, stopReason: "maintenance", suppressOutput: true };
  for (const e of ["PreToolUse", "PermissionRequest", "PostToolUse", "SubagentStart", "SessionEnd", "Stop"] as const) {
    const o = claude(e, stop);
    assertEquals(o.status === "blocked" && [o.effect.stop, o.effect.stopReason], [true, "maintenance"], e);
  }
});

Deno.test("claude: plain stdout on Stop and SubagentStop is ignored", () => {
  for (const e of ["Stop", "SubagentStop"] as const) {
    assertEquals(claude(e, "All tests passed.\n"), { status: "completed", effect: {} });
  }
  // Context events keep their plain-text context.
  assertEquals(claude("UserPromptSubmit", "ctx\n"), { status: "completed", effect: { additionalContext: "ctx" } });
});

Deno.test("claude: stdout that does not parse is plain text; JSON is read whatever the exit code", () => {
  assertEquals(claude("PreToolUse", "{ not json"), { status: "completed", effect: {} });
  assertEquals(claude("SessionStart", "{ not json"), {
    status: "completed",
    effect: { additionalContext: "{ not json" },
  });
  assertEquals(
    claude("PreToolUse", pre({ permissionDecision: "deny", permissionDecisionReason: "r" }), { exitCode: 1 }),
    {
      status: "blocked",
      effect: { blockReason: "r" },
    },
  );
  // Exit 2 with a JSON answer that does not block blocks with stderr.
  assertEquals(claude("PreToolUse", { systemMessage: "m" }, { exitCode: 2, stderr: "why" }), {
    status: "blocked",
    effect: { systemMessage: "m", blockReason: "why" },
  });
  assertEquals(claude("PreToolUse", "", { exitCode: 1 }), { status: "failed", reason: "exit 1" });
});

Deno.test("claude: PermissionRequest fields mind cannot apply are ignored; the event name is still checked", () => {
  assertEquals(
    claude("PermissionRequest", {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "allow", updatedInput: { a: 1 }, updatedPermissions: [], interrupt: true },
      },
    }),
    { status: "completed", effect: { allow: true } },
  );
  assertEquals(claude("PreToolUse", { hookSpecificOutput: { hookEventName: "Stop" } }), {
    status: "failed",
    reason: `hookSpecificOutput.hookEventName must be "PreToolUse"`,
  });
});

Deno.test("claude: a PostToolUse reason alone is ignored; a legacy block still wins over a same-output allow", () => {
  assertEquals(claude("PostToolUse", { reason: "fyi" }), { status: "completed", effect: {} });
  assertEquals(claude("PreToolUse", pre({ permissionDecision: "allow" }, { decision: "block", reason: "no" })), {
    status: "blocked",
    effect: { blockReason: "no" },
  });
});
