/** PreToolUse (SPEC §8, §9): every accept/reject rule of one answer, and how the answers of all handlers fold. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, effectOf, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { preToolUse } from "./pre_tool_use.ts";

const hso = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: "PreToolUse", ...fields } });

Deno.test("PreToolUse interpret: deny needs a reason; allow only with updatedInput; legacy block means deny", () => {
  assertInterprets(preToolUse, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    { output: { systemMessage: "warn" }, outcome: { status: "completed", effect: { systemMessage: "warn" } } },
    {
      output: hso({ additionalContext: "ctx" }),
      outcome: { status: "completed", effect: { additionalContext: "ctx" } },
    },
    { output: { suppressOutput: false, continue: true }, outcome: { status: "completed", effect: {} } },
    {
      output: hso({ permissionDecision: "deny", permissionDecisionReason: "no" }),
      outcome: { status: "blocked", effect: { blockReason: "no" } },
    },
    {
      // The context of a blocking answer is still delivered.
      output: hso({ permissionDecision: "deny", permissionDecisionReason: "no", additionalContext: "why" }),
      outcome: { status: "blocked", effect: { blockReason: "no", additionalContext: "why" } },
    },
    {
      // (r2) A deny drops the rewrite in the same answer.
      output: hso({ permissionDecision: "deny", permissionDecisionReason: "no", updatedInput: { command: "x" } }),
      outcome: { status: "blocked", effect: { blockReason: "no" } },
    },
    {
      output: hso({ permissionDecision: "deny" }),
      outcome: {
        status: "failed",
        reason: `permissionDecision "deny" needs a permissionDecisionReason — the tool call was not blocked`,
      },
    },
    {
      output: hso({ permissionDecision: "deny", permissionDecisionReason: " " }),
      outcome: {
        status: "failed",
        reason: `permissionDecision "deny" needs a permissionDecisionReason — the tool call was not blocked`,
      },
    },
    {
      output: hso({ permissionDecision: "allow", updatedInput: { command: "echo hi" } }),
      outcome: { status: "completed", effect: { allow: true, updatedInput: { command: "echo hi" } } },
    },
    {
      output: hso({ permissionDecision: "allow" }),
      outcome: {
        status: "failed",
        reason: `permissionDecision "allow" is supported only together with updatedInput — nothing was changed`,
      },
    },
    {
      output: hso({ updatedInput: { command: "x" } }),
      outcome: {
        status: "failed",
        reason: `updatedInput needs permissionDecision "allow" — the tool input was not changed`,
      },
    },
    {
      output: hso({ permissionDecision: "ask" }),
      outcome: { status: "failed", reason: `PreToolUse hook returned unsupported permissionDecision "ask"` },
    },
    {
      output: { decision: "approve" },
      outcome: { status: "failed", reason: `PreToolUse hook returned unsupported decision "approve"` },
    },
    {
      output: { decision: "block", reason: "legacy" },
      outcome: { status: "blocked", effect: { blockReason: "legacy" } },
    },
    {
      // Both forms of a deny: the hookSpecificOutput reason is the one reported.
      output: {
        decision: "block",
        reason: "legacy",
        ...hso({ permissionDecision: "deny", permissionDecisionReason: "new" }),
      },
      outcome: { status: "blocked", effect: { blockReason: "new" } },
    },
    {
      output: { decision: "block" },
      outcome: {
        status: "failed",
        reason: `PreToolUse hook returned decision "block" without a reason — the tool call was not blocked`,
      },
    },
    {
      output: { continue: false },
      outcome: { status: "failed", reason: "PreToolUse hook returned unsupported continue: false" },
    },
    {
      output: { stopReason: "x" },
      outcome: { status: "failed", reason: "PreToolUse hook returned unsupported stopReason" },
    },
    {
      output: { suppressOutput: true },
      outcome: { status: "failed", reason: "PreToolUse hook returned unsupported suppressOutput: true" },
    },
  ]);
});

Deno.test("PreToolUse schema: unknown fields, values and another event's name fail the handler", () => {
  assertSchemaRejects(preToolUse, [
    { output: { bogus: 1 }, issue: "bogus: is not an accepted field" },
    { output: { decision: "maybe" }, issue: `decision: expected one of "block", "approve", got string "maybe"` },
    {
      output: hso({ permissionDecision: "maybe" }),
      issue: `hookSpecificOutput.permissionDecision: expected one of "allow", "deny", "ask", got string "maybe"`,
    },
    {
      output: { hookSpecificOutput: { hookEventName: "PostToolUse" } },
      issue: `hookSpecificOutput.hookEventName: expected "PreToolUse", got string "PostToolUse"`,
    },
    { output: { hookSpecificOutput: {} }, issue: "hookSpecificOutput.hookEventName: is required" },
    { output: hso({ updatedInput: ["x"] }), issue: "hookSpecificOutput.updatedInput: expected object, got array" },
  ]);
});

Deno.test("PreToolUse aggregate: the first deny in configuration order; else the last completer's updatedInput, whole", () => {
  assertEquals(preToolUse.aggregate([]), NO_DECISION);
  assertEquals(preToolUse.aggregate(items({ additionalContext: "c" }, { systemMessage: "m" })), NO_DECISION);
  assertEquals(
    preToolUse.aggregate(
      items({ additionalContext: "c" }, { blockReason: "first" }, { blockReason: "second" }, {
        allow: true,
        updatedInput: { command: "x" },
      }),
    ),
    { ...NO_DECISION, decision: "deny", reason: "first" },
  );
  assertEquals(
    preToolUse.aggregate([
      { order: 0, completedSeq: 2, effect: { allow: true, updatedInput: { command: "a", extra: 1 } } },
      { order: 1, completedSeq: 1, effect: { allow: true, updatedInput: { command: "b" } } },
    ]),
    { ...NO_DECISION, decision: "allow", updatedInput: { command: "a", extra: 1 } },
  );
});

Deno.test("PreToolUse aggregate (r3): deny > ask > allow; the first ask's reason; a rewrite goes with the ask", () => {
  const rewrite = { allow: true, updatedInput: { command: "git commit -s" } };
  assertEquals(preToolUse.aggregate(items({ ask: "first?" }, { ask: "second?" }, rewrite)), {
    ...NO_DECISION,
    decision: "ask",
    reason: "first?",
    updatedInput: { command: "git commit -s" },
  });
  assertEquals(preToolUse.aggregate(items({ ask: "commit?" }, { blockReason: "no" })), {
    ...NO_DECISION,
    decision: "deny",
    reason: "no",
  });
  assertEquals(preToolUse.aggregate(items({ forwardedDecision: "allow" }, { ask: "commit?" })), {
    ...NO_DECISION,
    decision: "ask",
    reason: "commit?",
  });
});

Deno.test("PreToolUse: (r2) a deny and an allow with updatedInput in one answer deny, and nothing is rewritten", () => {
  const outcome = preToolUse.interpret({
    decision: "block",
    reason: "no",
    ...hso({ permissionDecision: "allow", updatedInput: { command: "x" } }),
  }, "mind");
  assertEquals(outcome.status, "blocked");
  assertEquals(preToolUse.aggregate(items(effectOf(outcome))), { ...NO_DECISION, decision: "deny", reason: "no" });
});
