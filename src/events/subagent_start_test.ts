/** SubagentStart (SPEC §8): context for the subagent; the common shape is accepted, but `continue: false` stops nothing. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { subagentStart } from "./subagent_start.ts";

Deno.test("SubagentStart interpret: context and systemMessage; continue: false does not stop a subagent", () => {
  assertInterprets(subagentStart, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    {
      output: { hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "sub" } },
      outcome: { status: "completed", effect: { additionalContext: "sub" } },
    },
    { output: { systemMessage: "m" }, outcome: { status: "completed", effect: { systemMessage: "m" } } },
    { output: { continue: false, stopReason: "x" }, outcome: { status: "completed", effect: {} } },
    { output: { suppressOutput: true }, outcome: { status: "completed", effect: {} } },
  ]);
});

Deno.test("SubagentStart schema: no decision; the context names this event", () => {
  assertSchemaRejects(subagentStart, [
    { output: { decision: "block", reason: "x" }, issue: "decision: is not an accepted field" },
    {
      output: { hookSpecificOutput: { hookEventName: "SubagentStop", additionalContext: "x" } },
      issue: `hookSpecificOutput.hookEventName: expected "SubagentStart", got string "SubagentStop"`,
    },
  ]);
});

Deno.test("SubagentStart aggregate: never a decision", () => {
  assertEquals(subagentStart.aggregate([]), NO_DECISION);
  assertEquals(subagentStart.aggregate(items({ additionalContext: "c" }, { systemMessage: "m" })), NO_DECISION);
});
