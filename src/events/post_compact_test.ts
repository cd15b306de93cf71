/** PostCompact (SPEC §8, §9): the common fields only; `continue: false` stops after compaction. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { postCompact } from "./post_compact.ts";

Deno.test("PostCompact interpret: systemMessage and continue: false (+ stopReason)", () => {
  assertInterprets(postCompact, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    { output: { systemMessage: "m" }, outcome: { status: "completed", effect: { systemMessage: "m" } } },
    { output: { continue: false }, outcome: { status: "blocked", effect: { stop: true } } },
    {
      output: { continue: false, stopReason: "r" },
      outcome: { status: "blocked", effect: { stop: true, stopReason: "r" } },
    },
    { output: { continue: true, stopReason: "r" }, outcome: { status: "completed", effect: {} } },
    { output: { suppressOutput: true }, outcome: { status: "completed", effect: {} } },
  ]);
});

Deno.test("PostCompact schema: hookSpecificOutput and decisions are rejected", () => {
  assertSchemaRejects(postCompact, [
    {
      output: { hookSpecificOutput: { hookEventName: "PostCompact", additionalContext: "x" } },
      issue: "hookSpecificOutput: is not an accepted field",
    },
    { output: { decision: "block", reason: "x" }, issue: "decision: is not an accepted field" },
  ]);
});

Deno.test("PostCompact aggregate: the first continue: false in configuration order stops", () => {
  assertEquals(postCompact.aggregate([]), NO_DECISION);
  assertEquals(postCompact.aggregate(items({ systemMessage: "m" })), NO_DECISION);
  assertEquals(
    postCompact.aggregate(items({}, { stop: true, stopReason: "x" }, { stop: true, stopReason: "y" })),
    { ...NO_DECISION, decision: "stop", reason: "x", continue: false, stopReason: "x" },
  );
});
