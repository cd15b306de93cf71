/**
 * PostToolUseFailure (SPEC §2.2 r4): the input is PostToolUse's with `error` for `tool_response`; the answer
 * is read as PostToolUse's (block + reason is feedback, a stop's feedback, context), named for this event.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, inputIssue, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { defaultStopFeedback } from "./post_tool_use.ts";
import { postToolUseFailure } from "./post_tool_use_failure.ts";

const context = (text: string) => ({
  hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: text },
});

Deno.test("PostToolUseFailure input: PostToolUse's fields with a string error in place of tool_response", () => {
  const input = {
    session_id: "s",
    transcript_path: null,
    cwd: "/w",
    hook_event_name: "PostToolUseFailure",
    model: "m",
    turn_id: "t",
    permission_mode: "default",
    tool_name: "Bash",
    tool_use_id: "u",
    tool_input: { command: "false" },
    error: "exit 1",
  };
  const issue = (v: unknown) => inputIssue(postToolUseFailure, v);
  assertEquals(issue(input), null);
  assertEquals(issue({ ...input, tool_response: {} }), "tool_response: is not an accepted field");
  assertEquals(issue({ ...input, error: { code: 1 } }), "error: expected string, got object");
  const { error: _, ...noError } = input;
  assertEquals(issue(noError), "error: is required");
});

Deno.test("PostToolUseFailure interpret: block needs a reason; feedback and context as on PostToolUse", () => {
  assertEquals(
    defaultStopFeedback("PostToolUseFailure"),
    "A PostToolUseFailure hook stopped the session after this tool call.",
  );
  assertInterprets(postToolUseFailure, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    {
      output: context("retry with sudo"),
      outcome: { status: "completed", effect: { additionalContext: "retry with sudo" } },
    },
    {
      output: { decision: "block", reason: "do not retry" },
      outcome: { status: "blocked", effect: { blockReason: "do not retry" } },
    },
    {
      output: { decision: "block" },
      outcome: {
        status: "failed",
        reason: `PostToolUseFailure hook returned decision "block" without a reason — the result was not rejected`,
      },
    },
    {
      output: { reason: "lost" },
      outcome: {
        status: "failed",
        reason:
          `PostToolUseFailure hook returned a reason without decision "block" or continue: false — the reason was not delivered`,
      },
    },
    {
      output: { continue: false },
      outcome: {
        status: "blocked",
        effect: { stop: true, stopFeedback: defaultStopFeedback("PostToolUseFailure") },
      },
    },
  ]);
  // The Claude dialect blocks without a reason with Claude Code's default one.
  assertEquals(postToolUseFailure.interpret({ decision: "block" }, "claude"), {
    status: "blocked",
    effect: { blockReason: "Blocked by hook" },
  });
});

Deno.test("PostToolUseFailure schema: its own hookEventName; result replacements fail the handler", () => {
  assertSchemaRejects(postToolUseFailure, [
    { output: { suppressOutput: true }, issue: "suppressOutput: is not an accepted field" },
    {
      output: { hookSpecificOutput: { hookEventName: "PostToolUse" } },
      issue: `hookSpecificOutput.hookEventName: expected "PostToolUseFailure", got string "PostToolUse"`,
    },
  ]);
});

Deno.test("PostToolUseFailure aggregate: block if any block, else stop; feedback joined in configuration order", () => {
  assertEquals(postToolUseFailure.aggregate(items({ additionalContext: "c" })), NO_DECISION);
  assertEquals(
    postToolUseFailure.aggregate(items({ blockReason: "b1" }, { stop: true, stopFeedback: "s" })),
    { ...NO_DECISION, decision: "block", reason: "b1\n\ns", continue: false },
  );
});
