/**
 * `install --sync` registrations (src/adapter/sync.ts): whole outcomes per host, and the rule that
 * makes narrowing safe — a Claude Code tool the list leaves out is a tool no mind hook's matcher can
 * match, checked with the engine's own matcher on every alias and some other names.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { EVERY_TOOL, hostToolList, neededRegistrations } from "./sync.ts";
import { compileMatcher, matcherMatches } from "../matching/matcher.ts";
import { toolMatchSubjects } from "../matching/tool_names.ts";

Deno.test("sync: only the events hooks are on, the session's end with them; Claude Code tools by name", () => {
  const hooks = [
    { event: "PostToolUse" as const, matcher: "Edit" },
    { event: "PostToolUse" as const, matcher: "Bash|Read" },
    { event: "UserPromptSubmit" as const },
  ];
  assertEquals(Object.fromEntries(neededRegistrations("claude", hooks)), {
    UserPromptSubmit: null,
    PostToolUse: "Bash|Edit|Read|apply_patch|exec_command|shell_command|write_stdin",
    SessionEnd: null,
  });
  // Hosts whose matcher semantics are not verified here get every tool.
  assertEquals(neededRegistrations("codex", hooks).get("PostToolUse"), EVERY_TOOL);
  assertEquals(neededRegistrations("gemini", hooks).get("PostToolUse"), EVERY_TOOL);
  assertEquals(neededRegistrations("claude", []).size, 0);
});

Deno.test("sync: a matcher that is no list of names registers every tool", () => {
  for (const m of ["*", "", null, undefined, "Bash.*", "mcp__.*", "Edit, Write", "^Bash$"]) {
    assertEquals(hostToolList([m, "Edit"]), EVERY_TOOL, String(m));
  }
  assertEquals(hostToolList(["Edit|Write", "Edit"]), "Edit|Write|apply_patch");
  // An invalid regex skips its group (SPEC §4): it can match nothing.
  assertEquals(hostToolList(["(", "Agent"]), "Agent|spawn_agent");
});

Deno.test("sync: every tool a listed matcher can match is in the list (aliases included)", () => {
  const names = ["Bash", "Edit", "Write", "Read", "Agent", "apply_patch", "exec_command", "shell_command"]
    .concat(["write_stdin", "spawn_agent", "MultiEdit", "NotebookEdit", "Task", "mcp__s__t", "Grep"]);
  for (const written of ["Bash", "Edit", "Write", "apply_patch", "exec_command", "Agent", "Read|Grep", "Edit|Bash"]) {
    const list = new Set(hostToolList([written]).split("|"));
    const m = compileMatcher(written);
    if (!m.ok) throw new Error(m.error);
    const missed = names.filter((t) => matcherMatches(m.value, toolMatchSubjects(t)) && !list.has(t));
    assertEquals(missed, [], written);
  }
});
