/** Interrupt (SPEC §8): JSON with only an optional systemMessage, or nothing. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { interrupt } from "./interrupt.ts";

Deno.test("Interrupt interpret: a systemMessage or nothing", () => {
  assertInterprets(interrupt, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    { output: { systemMessage: "int" }, outcome: { status: "completed", effect: { systemMessage: "int" } } },
  ]);
});

Deno.test("Interrupt schema: every field but systemMessage fails the handler", () => {
  assertSchemaRejects(interrupt, [
    { output: { continue: false }, issue: "continue: is not an accepted field" },
    { output: { stopReason: "x" }, issue: "stopReason: is not an accepted field" },
    { output: { suppressOutput: true }, issue: "suppressOutput: is not an accepted field" },
    {
      output: { hookSpecificOutput: { hookEventName: "Interrupt" } },
      issue: "hookSpecificOutput: is not an accepted field",
    },
    { output: { systemMessage: 1 }, issue: "systemMessage: expected string, got integer 1" },
  ]);
});

Deno.test("Interrupt aggregate: never a decision", () => {
  assertEquals(interrupt.aggregate([]), NO_DECISION);
  assertEquals(interrupt.aggregate(items({ systemMessage: "m" })), NO_DECISION);
});
