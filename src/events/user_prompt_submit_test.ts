/** UserPromptSubmit (SPEC §8, §9): context; `decision: "block"` + reason blocks the prompt, the batch's context kept. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { userPromptSubmit } from "./user_prompt_submit.ts";

const context = (text: string) => ({
  hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: text },
});
const NO_REASON = `UserPromptSubmit hook returned decision "block" without a reason — nothing was blocked`;

Deno.test("UserPromptSubmit interpret: block needs a reason; context and continue: false", () => {
  assertInterprets(userPromptSubmit, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    { output: { systemMessage: "m" }, outcome: { status: "completed", effect: { systemMessage: "m" } } },
    { output: context("a"), outcome: { status: "completed", effect: { additionalContext: "a" } } },
    { output: context(""), outcome: { status: "completed", effect: {} } },
    { output: { decision: "block", reason: "nope" }, outcome: { status: "blocked", effect: { blockReason: "nope" } } },
    {
      output: { decision: "block", reason: "nope", ...context("a") },
      outcome: { status: "blocked", effect: { blockReason: "nope", additionalContext: "a" } },
    },
    { output: { decision: "block" }, outcome: { status: "failed", reason: NO_REASON } },
    { output: { decision: "block", reason: "" }, outcome: { status: "failed", reason: NO_REASON } },
    { output: { decision: "block", reason: "  " }, outcome: { status: "failed", reason: NO_REASON } },
    {
      output: { continue: false, stopReason: "s" },
      outcome: { status: "blocked", effect: { stop: true, stopReason: "s" } },
    },
    { output: { suppressOutput: true }, outcome: { status: "completed", effect: {} } },
  ]);
});

Deno.test("UserPromptSubmit schema: decision is only block; the context names this event", () => {
  assertSchemaRejects(userPromptSubmit, [
    { output: { decision: "allow" }, issue: `decision: expected "block", got string "allow"` },
    {
      output: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "a" } },
      issue: `hookSpecificOutput.hookEventName: expected "UserPromptSubmit", got string "SessionStart"`,
    },
    {
      output: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", updatedPrompt: "p" } },
      issue: "hookSpecificOutput.updatedPrompt: is not an accepted field",
    },
  ]);
});

Deno.test("UserPromptSubmit aggregate: the first block in configuration order; else a stop", () => {
  assertEquals(userPromptSubmit.aggregate([]), NO_DECISION);
  assertEquals(userPromptSubmit.aggregate(items({ additionalContext: "c" })), NO_DECISION);
  assertEquals(
    userPromptSubmit.aggregate(items({ additionalContext: "c" }, { blockReason: "secret" }, { blockReason: "later" })),
    { ...NO_DECISION, decision: "block", reason: "secret" },
  );
  assertEquals(
    userPromptSubmit.aggregate(items({}, { stop: true, stopReason: "s" })),
    { ...NO_DECISION, decision: "stop", reason: "s", continue: false, stopReason: "s" },
  );
  // A block and another handler's stop: the prompt is blocked and the turn is stopped (§9 `continue`).
  assertEquals(
    userPromptSubmit.aggregate(items({ blockReason: "secret" }, { stop: true, stopReason: "s" })),
    { ...NO_DECISION, decision: "block", reason: "secret", continue: false, stopReason: "s" },
  );
});
