/** Notification (SPEC §2.2 r4): `message` and `notification_type` in; a systemMessage or nothing out; no decision. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, inputIssue, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { notification } from "./notification.ts";

Deno.test("Notification input: the common fields, message and notification_type", () => {
  const input = {
    session_id: "s",
    transcript_path: null,
    cwd: "/w",
    hook_event_name: "Notification",
    model: "m",
    message: "Claude needs your permission to use Bash",
    notification_type: "permission_prompt",
  };
  const issue = (v: unknown) => inputIssue(notification, v);
  assertEquals(issue(input), null);
  const { message: _, ...noMessage } = input;
  assertEquals(issue(noMessage), "message: is required");
  assertEquals(issue({ ...input, turn_id: "t" }), "turn_id: is not an accepted field");
});

Deno.test("Notification interpret: a systemMessage or nothing; the Claude dialect's continue: false stops", () => {
  assertInterprets(notification, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    { output: { systemMessage: "seen" }, outcome: { status: "completed", effect: { systemMessage: "seen" } } },
  ]);
  assertEquals(notification.interpret({ continue: false, stopReason: "x" }, "claude"), {
    status: "blocked",
    effect: { stop: true, stopReason: "x" },
  });
});

Deno.test("Notification schema: every field but systemMessage fails the handler", () => {
  assertSchemaRejects(notification, [
    { output: { continue: false }, issue: "continue: is not an accepted field" },
    { output: { decision: "block", reason: "r" }, issue: "decision: is not an accepted field" },
    {
      output: { hookSpecificOutput: { hookEventName: "Notification", additionalContext: "c" } },
      issue: "hookSpecificOutput: is not an accepted field",
    },
  ]);
});

Deno.test("Notification aggregate: never a decision", () => {
  assertEquals(notification.aggregate(items({ systemMessage: "m" })), NO_DECISION);
});
