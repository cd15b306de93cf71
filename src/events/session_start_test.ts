/** SessionStart (SPEC §8, §9): context; `continue: false` stops the turn from starting, the batch's context kept. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { sessionStart } from "./session_start.ts";

const context = (text: string) => ({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } });

Deno.test("SessionStart interpret: context, systemMessage and continue: false (+ stopReason)", () => {
  assertInterprets(sessionStart, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    { output: { systemMessage: "warn" }, outcome: { status: "completed", effect: { systemMessage: "warn" } } },
    { output: { systemMessage: "" }, outcome: { status: "completed", effect: {} } },
    { output: context("ctx"), outcome: { status: "completed", effect: { additionalContext: "ctx" } } },
    { output: context(""), outcome: { status: "completed", effect: {} } },
    { output: { continue: false }, outcome: { status: "blocked", effect: { stop: true } } },
    { output: { continue: false, stopReason: "" }, outcome: { status: "blocked", effect: { stop: true } } },
    {
      output: { continue: false, stopReason: "maintenance", ...context("kept") },
      outcome: { status: "blocked", effect: { stop: true, stopReason: "maintenance", additionalContext: "kept" } },
    },
    // A stopReason without continue: false stops nothing.
    { output: { continue: true, stopReason: "ignored" }, outcome: { status: "completed", effect: {} } },
    { output: { suppressOutput: true }, outcome: { status: "completed", effect: {} } },
  ]);
});

Deno.test("SessionStart schema: no decision; the context names this event", () => {
  assertSchemaRejects(sessionStart, [
    { output: { decision: "block", reason: "x" }, issue: "decision: is not an accepted field" },
    {
      output: { hookSpecificOutput: { hookEventName: "PreToolUse" } },
      issue: `hookSpecificOutput.hookEventName: expected "SessionStart", got string "PreToolUse"`,
    },
    {
      output: { hookSpecificOutput: { hookEventName: "SessionStart", permissionDecision: "deny" } },
      issue: "hookSpecificOutput.permissionDecision: is not an accepted field",
    },
    { output: { continue: "no" }, issue: `continue: expected boolean, got string "no"` },
  ]);
});

Deno.test("SessionStart aggregate: the first continue: false in configuration order stops", () => {
  assertEquals(sessionStart.aggregate([]), NO_DECISION);
  assertEquals(sessionStart.aggregate(items({ additionalContext: "c" }, { systemMessage: "m" })), NO_DECISION);
  assertEquals(
    sessionStart.aggregate(
      items({ additionalContext: "c" }, { stop: true, stopReason: "x" }, { stop: true, stopReason: "y" }),
    ),
    { ...NO_DECISION, decision: "stop", reason: "x", continue: false, stopReason: "x" },
  );
  assertEquals(sessionStart.aggregate(items({ stop: true })), { ...NO_DECISION, decision: "stop", continue: false });
});
