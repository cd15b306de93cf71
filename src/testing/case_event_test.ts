import { assertEquals } from "../../tests/helpers/assert.ts";
import { caseEvent, readHostAnswer } from "./case_event.ts";
import type { TestCase } from "./test_file.ts";

const D = { cwd: "/p", sessionId: "s" };

Deno.test("caseEvent: a short form becomes the §5 event a host would send, filled as the adapters fill it", () => {
  const r = caseEvent({ name: "x", command: "rm -rf /" } as TestCase, D);
  assertEquals(r.ok && r.value, {
    event: "PreToolUse",
    input: {
      session_id: "s",
      transcript_path: null,
      cwd: "/p",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
      tool_use_id: "test-call",
      model: "unknown",
      turn_id: "unknown",
      permission_mode: "default",
    },
  });
  const w = caseEvent({ name: "x", file_path: "a.txt" } as TestCase, D);
  assertEquals(w.ok && [w.value.input.tool_name, w.value.input.tool_input], ["Write", { file_path: "a.txt" }]);
  const p = caseEvent({ name: "x", prompt: "hi", fields: { permission_mode: "plan" } } as TestCase, D);
  assertEquals(p.ok && [p.value.event, p.value.input.prompt, p.value.input.permission_mode], [
    "UserPromptSubmit",
    "hi",
    "plan",
  ]);
});

Deno.test("caseEvent: a host's short form is its own event name; refusals are one sentence each", () => {
  const c = caseEvent({ name: "x", host: "claude", event: "Stop" } as TestCase, D);
  assertEquals(c.ok && c.value.input.hook_event_name, "Stop");
  const g = caseEvent({ name: "x", host: "gemini", command: "ls" } as TestCase, D);
  assertEquals(
    !g.ok && g.error,
    "a short form is written for mind, claude and codex: give gemini's own hook input as input = {…}",
  );
  const both = caseEvent({ name: "x", input: {}, command: "ls" } as TestCase, D);
  assertEquals(!both.ok && both.error, "give either input or the short form (command), not both");
  const none = caseEvent({ name: "x" } as TestCase, D);
  assertEquals(!none.ok && none.error, 'no event: give input = {…} or event = "…"');
});

Deno.test("readHostAnswer: each host's deny, rewrite, block, stop and context read back into the same fields", () => {
  const claude = readHostAnswer({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" },
  });
  assertEquals([claude.decision, claude.reason, claude.continue], ["deny", "no", true]);
  const rewrite = readHostAnswer({
    hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "x" } },
  });
  assertEquals([rewrite.decision, rewrite.updatedInput], ["allow", { command: "x" }]);
  const gemini = readHostAnswer({ decision: "deny", reason: "g", hookSpecificOutput: { additionalContext: "ctx" } });
  assertEquals([gemini.decision, gemini.reason, gemini.context], ["deny", "g", ["ctx"]]);
  const copilot = readHostAnswer({ permissionDecision: "deny", permissionDecisionReason: "c", modifiedArgs: { a: 1 } });
  assertEquals([copilot.decision, copilot.reason, copilot.updatedInput], ["deny", "c", { a: 1 }]);
  const permission = readHostAnswer({ hookSpecificOutput: { decision: { behavior: "deny", message: "m" } } });
  assertEquals([permission.decision, permission.reason], ["deny", "m"]);
  const stop = readHostAnswer({ continue: false, stopReason: "enough" });
  assertEquals([stop.decision, stop.reason, stop.continue], ["stop", "enough", false]);
  assertEquals(readHostAnswer(null), { decision: null, reason: null, context: [], continue: true, updatedInput: null });
});
