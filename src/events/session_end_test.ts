/** SessionEnd (SPEC §8): advisory; its output steers nothing, only a systemMessage is surfaced. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { sessionEnd } from "./session_end.ts";

Deno.test("SessionEnd interpret: only systemMessage counts; continue: false stops nothing", () => {
  assertInterprets(sessionEnd, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    { output: { systemMessage: "bye" }, outcome: { status: "completed", effect: { systemMessage: "bye" } } },
    { output: { systemMessage: "" }, outcome: { status: "completed", effect: {} } },
    { output: { continue: false, stopReason: "x" }, outcome: { status: "completed", effect: {} } },
    { output: { suppressOutput: true }, outcome: { status: "completed", effect: {} } },
  ]);
});

Deno.test("SessionEnd schema: the common fields only", () => {
  assertSchemaRejects(sessionEnd, [
    { output: { decision: "block", reason: "x" }, issue: "decision: is not an accepted field" },
    {
      output: { hookSpecificOutput: { hookEventName: "SessionEnd", additionalContext: "c" } },
      issue: "hookSpecificOutput: is not an accepted field",
    },
  ]);
});

Deno.test("SessionEnd aggregate: never a decision", () => {
  assertEquals(sessionEnd.aggregate([]), NO_DECISION);
  assertEquals(sessionEnd.aggregate(items({ systemMessage: "a" }, { systemMessage: "b" })), NO_DECISION);
});
