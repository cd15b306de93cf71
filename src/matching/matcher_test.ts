import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { compileMatcher, type Matcher, matcherMatches } from "./matcher.ts";
import { fromCompatInput, joinArgv, toCompatTool, toolMatchSubjects } from "./tool_names.ts";

function m(text: string | null): Matcher {
  const c = compileMatcher(text);
  if (!c.ok) throw new Error(c.error);
  return c.value;
}

const TABLE: [string | null, string, boolean][] = [
  [null, "anything", true],
  ["", "anything", true],
  ["*", "anything", true],
  ["Bash", "Bash", true],
  ["Bash", "BashOutput", false],
  ["Bash", "bash", false],
  ["Edit|Write", "Edit", true],
  ["Edit|Write", "Write", true],
  ["Edit|Write", "EditFile", false],
  ["mcp__filesystem__.*", "mcp__filesystem__read", true],
  ["mcp__filesystem__.*", "mcp__git__log", false],
  ["^Bash$", "Bash", true],
  ["^Bash$", "BashOutput", false],
  ["Ba", "Bash", false],
  ["Ba.*", "Bash", true],
  ["my-tool", "my-tool", true],
];

Deno.test("matcher table (SPEC §4)", () => {
  for (const [matcher, subject, expected] of TABLE) {
    assertEquals(matcherMatches(m(matcher), [subject]), expected, `${matcher} vs ${subject}`);
  }
});

Deno.test("literal matchers are exact, regex only with control characters", () => {
  assertEquals(m("Edit|Write").kind, "exact");
  assertEquals(m("mcp__x__.*").kind, "regex");
  assertEquals(m("*").kind, "all");
});

Deno.test("an invalid regex is an error, not an exception", () => {
  const c = compileMatcher("([unclosed");
  assert(!c.ok);
});

Deno.test("tool aliases: shell tools ↔ Bash, apply_patch ↔ Edit/Write, spawn_agent ↔ Agent", () => {
  assertEquals(toolMatchSubjects("exec_command"), ["exec_command", "Bash"]);
  assertEquals(toolMatchSubjects("apply_patch"), ["apply_patch", "Edit", "Write"]);
  assertEquals(toolMatchSubjects("spawn_agent"), ["spawn_agent", "Agent"]);
  assert(matcherMatches(m("Bash"), toolMatchSubjects("write_stdin")));
  assert(matcherMatches(m("Write"), toolMatchSubjects("apply_patch")));
  assert(matcherMatches(m("apply_patch"), toolMatchSubjects("Edit")));
  assert(!matcherMatches(m("Bash"), toolMatchSubjects("BashOutput")));
});

Deno.test("tool normalization into the compatibility form (SPEC §5)", () => {
  assertEquals(toCompatTool("exec_command", { cmd: "ls -la", workdir: "/x" }), {
    tool_name: "Bash",
    tool_input: { workdir: "/x", command: "ls -la" },
  });
  assertEquals(
    toCompatTool("shell_command", { command: ["git", "commit", "-m", "it's done"] }).tool_input.command,
    `git commit -m 'it'"'"'s done'`,
  );
  assertEquals(toCompatTool("apply_patch", { input: "*** Begin Patch" }), {
    tool_name: "apply_patch",
    tool_input: { command: "*** Begin Patch" },
  });
  assertEquals(toCompatTool("write_stdin", { chars: "y\n", session_id: 3 }), {
    tool_name: "Bash",
    tool_input: { session_id: 3, command: "y\n" },
  });
  assertEquals(toCompatTool("mcp__fs__read", { path: "/a" }), {
    tool_name: "mcp__fs__read",
    tool_input: { path: "/a" },
  });
});

Deno.test("updatedInput.command goes back into the local parameter", () => {
  assertEquals(fromCompatInput("exec_command", { cmd: "rm -rf /" }, { command: "echo safe", workdir: "/w" }), {
    cmd: "echo safe",
    workdir: "/w",
  });
  assertEquals(fromCompatInput("apply_patch", { input: "p" }, { command: "q" }), { input: "q" });
  assertEquals(fromCompatInput("shell_command", { command: ["ls"] }, { command: "ls -l" }), {
    command: ["bash", "-lc", "ls -l"],
  });
  assertEquals(fromCompatInput("Read", { file_path: "/a" }, { file_path: "/b" }), { file_path: "/b" });
});

Deno.test("argv joining quotes only what needs it", () => {
  assertEquals(joinArgv(["echo", "a b", "", "x=1"]), `echo 'a b' '' x=1`);
});
