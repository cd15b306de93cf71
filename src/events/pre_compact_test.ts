/** PreCompact (SPEC §8, §9): the common fields only; `continue: false` stops before compaction. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { preCompact } from "./pre_compact.ts";

Deno.test("PreCompact interpret: systemMessage and continue: false (+ stopReason)", () => {
  assertInterprets(preCompact, [
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

Deno.test("PreCompact schema: hookSpecificOutput and decisions are rejected", () => {
  assertSchemaRejects(preCompact, [
    {
      output: { hookSpecificOutput: { hookEventName: "PreCompact", additionalContext: "x" } },
      issue: "hookSpecificOutput: is not an accepted field",
    },
    { output: { decision: "block", reason: "x" }, issue: "decision: is not an accepted field" },
  ]);
});

Deno.test("PreCompact aggregate: the first continue: false in configuration order stops", () => {
  assertEquals(preCompact.aggregate([]), NO_DECISION);
  assertEquals(preCompact.aggregate(items({ systemMessage: "m" })), NO_DECISION);
  assertEquals(
    preCompact.aggregate(items({}, { stop: true, stopReason: "x" }, { stop: true, stopReason: "y" })),
    { ...NO_DECISION, decision: "stop", reason: "x", continue: false, stopReason: "x" },
  );
});
