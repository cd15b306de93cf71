/** Stop (SPEC §8, §9): JSON only; any `continue: false` wins; block reasons join into one continuation prompt. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { stop } from "./stop.ts";

const NO_REASON = `Stop hook returned decision "block" without a reason — nothing was blocked`;

Deno.test("Stop interpret: block needs a reason; continue: false (+ stopReason)", () => {
  assertInterprets(stop, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    { output: { systemMessage: "m" }, outcome: { status: "completed", effect: { systemMessage: "m" } } },
    {
      output: { decision: "block", reason: "keep going" },
      outcome: { status: "blocked", effect: { blockReason: "keep going" } },
    },
    { output: { decision: "block" }, outcome: { status: "failed", reason: NO_REASON } },
    { output: { decision: "block", reason: " " }, outcome: { status: "failed", reason: NO_REASON } },
    {
      output: { continue: false, stopReason: "done" },
      outcome: { status: "blocked", effect: { stop: true, stopReason: "done" } },
    },
    {
      output: { continue: false, decision: "block", reason: "k" },
      outcome: { status: "blocked", effect: { stop: true, blockReason: "k" } },
    },
    { output: { suppressOutput: true }, outcome: { status: "completed", effect: {} } },
  ]);
});

Deno.test("Stop schema: no hookSpecificOutput; decision is only block", () => {
  assertSchemaRejects(stop, [
    {
      output: { hookSpecificOutput: { hookEventName: "Stop" } },
      issue: "hookSpecificOutput: is not an accepted field",
    },
    { output: { decision: "approve" }, issue: `decision: expected "block", got string "approve"` },
  ]);
});

Deno.test("Stop aggregate: any continue: false wins; else every block reason, in configuration order, is the prompt", () => {
  assertEquals(stop.aggregate([]), NO_DECISION);
  assertEquals(stop.aggregate(items({ systemMessage: "m" })), NO_DECISION);
  assertEquals(
    stop.aggregate(items({ blockReason: "a" }, { stop: true, stopReason: "enough" })),
    { ...NO_DECISION, decision: "stop", reason: "enough", continue: false, stopReason: "enough" },
  );
  assertEquals(stop.aggregate(items({ stop: true })), { ...NO_DECISION, decision: "stop", continue: false });
  assertEquals(
    stop.aggregate(items({ blockReason: "fix tests" }, {}, { blockReason: "update docs" })),
    {
      ...NO_DECISION,
      decision: "block",
      reason: "fix tests\n\nupdate docs",
      continuationPrompt: "fix tests\n\nupdate docs",
    },
  );
});
