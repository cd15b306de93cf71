/** PostToolUse (SPEC §8, §9): block rejects the result (reason required); a stop's feedback; both merged in order. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { DEFAULT_STOP_FEEDBACK, postToolUse } from "./post_tool_use.ts";

const context = (text: string) => ({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: text } });

Deno.test("PostToolUse interpret: block needs a reason; a stop's feedback is reason, else stopReason, else a fixed text", () => {
  assertEquals(DEFAULT_STOP_FEEDBACK, "A PostToolUse hook stopped the session after this tool call.");
  assertInterprets(postToolUse, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    { output: { systemMessage: "m" }, outcome: { status: "completed", effect: { systemMessage: "m" } } },
    { output: context("c"), outcome: { status: "completed", effect: { additionalContext: "c" } } },
    {
      output: { decision: "block", reason: "bad result" },
      outcome: { status: "blocked", effect: { blockReason: "bad result" } },
    },
    {
      // additionalContext is separate context, never a replacement of the result.
      output: { decision: "block", reason: "bad result", ...context("c") },
      outcome: { status: "blocked", effect: { blockReason: "bad result", additionalContext: "c" } },
    },
    {
      output: { decision: "block" },
      outcome: {
        status: "failed",
        reason: `PostToolUse hook returned decision "block" without a reason — the result was not rejected`,
      },
    },
    {
      output: { decision: "block", reason: " " },
      outcome: {
        status: "failed",
        reason: `PostToolUse hook returned decision "block" without a reason — the result was not rejected`,
      },
    },
    {
      output: { continue: false, reason: "stop now" },
      outcome: { status: "blocked", effect: { stop: true, stopFeedback: "stop now" } },
    },
    {
      output: { continue: false, stopReason: "sr" },
      outcome: { status: "blocked", effect: { stop: true, stopReason: "sr", stopFeedback: "sr" } },
    },
    {
      output: { continue: false, reason: "stop now", stopReason: "sr" },
      outcome: { status: "blocked", effect: { stop: true, stopReason: "sr", stopFeedback: "stop now" } },
    },
    {
      output: { continue: false },
      outcome: { status: "blocked", effect: { stop: true, stopFeedback: DEFAULT_STOP_FEEDBACK } },
    },
    {
      output: { continue: false, stopReason: " " },
      outcome: { status: "blocked", effect: { stop: true, stopFeedback: DEFAULT_STOP_FEEDBACK } },
    },
    {
      // With a block, `reason` is the block's feedback; the stop adds stopReason (or the fixed text).
      output: { decision: "block", reason: "r", continue: false, stopReason: "sr" },
      outcome: { status: "blocked", effect: { blockReason: "r", stop: true, stopReason: "sr", stopFeedback: "sr" } },
    },
    {
      output: { decision: "block", reason: "r", continue: false },
      outcome: { status: "blocked", effect: { blockReason: "r", stop: true, stopFeedback: DEFAULT_STOP_FEEDBACK } },
    },
  ]);
});

Deno.test("PostToolUse schema: any undeclared field (suppressOutput, result replacements) fails the handler", () => {
  assertSchemaRejects(postToolUse, [
    { output: { suppressOutput: true }, issue: "suppressOutput: is not an accepted field" },
    { output: { toolResult: "replaced" }, issue: "toolResult: is not an accepted field" },
    {
      output: { hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: "x" } },
      issue: "hookSpecificOutput.updatedMCPToolOutput: is not an accepted field",
    },
    { output: { decision: "allow" }, issue: `decision: expected "block", got string "allow"` },
    {
      output: { hookSpecificOutput: { hookEventName: "PreToolUse" } },
      issue: `hookSpecificOutput.hookEventName: expected "PostToolUse", got string "PreToolUse"`,
    },
  ]);
});

Deno.test("PostToolUse aggregate: block if any block, else stop; all block and stop feedback joined in configuration order", () => {
  assertEquals(postToolUse.aggregate([]), NO_DECISION);
  assertEquals(postToolUse.aggregate(items({ additionalContext: "c" }, { systemMessage: "m" })), NO_DECISION);
  assertEquals(
    postToolUse.aggregate(items({ stop: true, stopFeedback: "s1" }, { blockReason: "b1" }, { blockReason: "b2" })),
    { ...NO_DECISION, decision: "block", reason: "s1\n\nb1\n\nb2", continue: false },
  );
  assertEquals(
    postToolUse.aggregate(items({ additionalContext: "c" }, { blockReason: "b" })),
    { ...NO_DECISION, decision: "block", reason: "b" },
  );
  assertEquals(
    postToolUse.aggregate(items({ stop: true, stopFeedback: "only", stopReason: "sr" })),
    { ...NO_DECISION, decision: "stop", reason: "only", continue: false, stopReason: "sr" },
  );
  assertEquals(
    postToolUse.aggregate(
      items({ stop: true, stopFeedback: "f1", stopReason: "r1" }, { stop: true, stopFeedback: "f2", stopReason: "r2" }),
    ),
    { ...NO_DECISION, decision: "stop", reason: "f1\n\nf2", continue: false, stopReason: "r1" },
  );
  assertEquals(
    postToolUse.aggregate(items({ blockReason: "r", stop: true, stopFeedback: "sf" })),
    { ...NO_DECISION, decision: "block", reason: "r\n\nsf", continue: false },
  );
});
