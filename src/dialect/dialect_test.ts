/**
 * The Gemini and Copilot dialects' rules (SPEC §2.8 r4), each as measured with the real CLIs: how a
 * host's hooks object becomes mind's, what its hooks read, how their answers are read.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { DIALECTS } from "./registry.ts";
import { translateCopilotHooks } from "./copilot.ts";
import { translateGeminiHooks } from "./gemini.ts";
import { DIALECT_SKIPPED } from "./common.ts";
import type { Answer } from "./types.ts";
import type { EventName } from "../events/names.ts";

const answer = (stdout: string, exitCode = 0, stderr = ""): Answer => ({
  stdout,
  stderr,
  exitCode,
  stdoutTruncated: false,
});
const gemini = (event: EventName, a: Answer) => DIALECTS.gemini.answer(event, a);
const copilot = (event: EventName, a: Answer) => DIALECTS.copilot.answer(event, a);

Deno.test("every dialect has a module; mind and Claude read their own names unchanged", () => {
  assertEquals(Object.keys(DIALECTS).sort(), ["claude", "copilot", "gemini", "mind"]);
  for (const d of ["mind", "claude"] as const) {
    const a = answer('{"decision":"block"}', 2, "x");
    assertEquals(DIALECTS[d].answer("PreToolUse", a), a);
    assertEquals(DIALECTS[d].events, null);
  }
  assertEquals([DIALECTS.gemini.reads, DIALECTS.copilot.reads], ["claude", "claude"]);
});

Deno.test("gemini: events, ms timeouts, ${extensionPath}, unmapped events and other hook types are named", () => {
  const t = translateGeminiHooks(
    {
      enabled: true,
      BeforeTool: [{
        matcher: "run_shell_command",
        sequential: true,
        hooks: [
          { type: "command", command: "${extensionPath}/check.sh", timeout: 1500, name: "n", description: "d" },
          { type: "runtime", command: "x" },
        ],
      }],
      BeforeModel: [{ hooks: [{ type: "command", command: "a" }, { type: "command", command: "b" }] }],
    },
    ["hooks"],
    "/ext",
  );
  assertEquals(t.hooks, {
    PreToolUse: [{
      matcher: "run_shell_command",
      hooks: [{ type: "command", command: "/ext/check.sh", timeout: 2, name: "n" }, DIALECT_SKIPPED],
    }],
  });
  assertEquals(t.notes.map((n) => [n.code, n.path]), [
    ["W_UNSUPPORTED_HANDLER", ["hooks", "BeforeTool", 0, "hooks", 1]],
    ["W_HOST_EVENT_UNMAPPED", ["hooks", "BeforeModel"]],
  ]);
  assert(t.notes[1].message.includes("its 2 hooks do not run"), t.notes[1].message);
  assertEquals(t.pathOf("PreToolUse", 0, 0), ["hooks", "BeforeTool", 0, "hooks", 0]);
  // Default timeout: Gemini CLI's 60 s.
  const d = translateGeminiHooks({ AfterTool: [{ hooks: [{ type: "command", command: "c" }] }] }, ["hooks"]);
  assertEquals((d.hooks.PostToolUse as { hooks: { timeout: number }[] }[])[0].hooks[0].timeout, 60);
});

Deno.test("gemini: matchers are unanchored regexes over Gemini's tool names", () => {
  const m = DIALECTS.gemini.compileMatcher("shell");
  assert(m.ok && m.value.kind === "regex" && m.value.re.test(DIALECTS.gemini.matchSubjects("Bash")[0]));
  assertEquals(DIALECTS.gemini.matchSubjects("Bash"), ["run_shell_command"]);
  assertEquals(DIALECTS.gemini.matchSubjects("mcp__s__t"), ["mcp__s__t"]);
});

Deno.test("gemini: the input Gemini CLI sends", () => {
  const i = DIALECTS.gemini.input("PreToolUse", {
    session_id: "s",
    transcript_path: "/t",
    cwd: "/w",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls", run_in_background: true },
  }, { projectDir: null });
  assertEquals([i.hook_event_name, i.tool_name, i.tool_input], [
    "BeforeTool",
    "run_shell_command",
    { command: "ls", is_background: true },
  ]);
  assert(typeof i.timestamp === "string" && !("model" in i));
  const stop = DIALECTS.gemini.input("Stop", { last_assistant_message: "done", stop_hook_active: false }, {
    projectDir: null,
  });
  assertEquals([stop.hook_event_name, stop.prompt_response], ["AfterAgent", "done"]);
});

Deno.test("gemini: answers as Gemini CLI reads them", () => {
  const deny = gemini("PreToolUse", answer('{"decision":"deny","reason":"no"}'));
  assertEquals([deny.exitCode, JSON.parse(deny.stdout)], [0, { decision: "block", reason: "no" }]);
  assertEquals(JSON.parse(gemini("PreToolUse", answer('{"decision":"deny"}')).stdout).reason, "No reason provided");
  // Exit 2 with stderr blocks, so does exit 3; exit 1 and a silent exit 2 are failures.
  assertEquals(gemini("PreToolUse", answer("", 2, "why")).exitCode, 2);
  assertEquals(gemini("PreToolUse", answer("", 3, "why")).exitCode, 2);
  assertEquals(gemini("PreToolUse", answer("", 2, "")).exitCode, 1);
  assertEquals(gemini("PreToolUse", answer("", 1, "why")).exitCode, 1);
  // A deny on stderr with an empty stdout is read.
  assertEquals(
    JSON.parse(gemini("PreToolUse", answer("", 0, '{"decision":"deny","reason":"e"}')).stdout).decision,
    "block",
  );
  // Claude Code's own form is not Gemini's: ignored.
  const claude = gemini(
    "PreToolUse",
    answer('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'),
  );
  assertEquals(claude.stdout, "");
  const rewrite = JSON.parse(
    gemini("PreToolUse", answer('{"hookSpecificOutput":{"tool_input":{"command":"x"}}}')).stdout,
  );
  assertEquals(rewrite.hookSpecificOutput, {
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
    updatedInput: { command: "x" },
  });
  const ctx = JSON.parse(gemini("PostToolUse", answer('{"hookSpecificOutput":{"additionalContext":"c"}}')).stdout);
  assertEquals(ctx.hookSpecificOutput, { hookEventName: "PostToolUse", additionalContext: "c" });
  assertEquals(JSON.parse(gemini("Stop", answer('{"decision":"deny","reason":"again"}')).stdout).decision, "block");
});

Deno.test("copilot: version-1 files, bash with its cwd and env, PowerShell-only and PascalCase named", () => {
  const t = translateCopilotHooks({
    preToolUse: [
      { type: "command", bash: "./guard.sh", cwd: "scripts", env: { MODE: "block it" }, timeoutSec: 10 },
      { type: "command", powershell: "guard.ps1" },
    ],
    errorOccurred: [{ type: "command", bash: "log-error.sh" }],
    postToolUseFailure: [{ type: "command", bash: "log-failure.sh" }],
    PreToolUse: [{ type: "command", command: "x" }],
  }, ["hooks"]);
  assertEquals(t.hooks.PreToolUse, [{
    hooks: [
      { type: "command", command: "export MODE='block it'; cd scripts && ./guard.sh", timeout: 10 },
      DIALECT_SKIPPED,
    ],
  }]);
  assertEquals(t.hooks.PostToolUseFailure, [
    { hooks: [{ type: "command", command: "log-error.sh", timeout: 30 }] },
    { hooks: [{ type: "command", command: "log-failure.sh", timeout: 30 }] },
  ]);
  assertEquals(t.pathOf("PostToolUseFailure", 1, 0), ["hooks", "postToolUseFailure", 0]);
  assertEquals(t.notes.map((n) => n.code), ["W_UNSUPPORTED_HANDLER", "W_HOST_EVENT_UNMAPPED"]);
  assert(t.notes[1].message.includes("camelCase"), t.notes[1].message);
});

Deno.test("copilot: the input Copilot CLI sends", () => {
  const i = DIALECTS.copilot.input("PreToolUse", {
    session_id: "s",
    cwd: "/w",
    tool_name: "Edit",
    tool_input: { file_path: "a", old_string: "x", new_string: "y" },
  }, { projectDir: null });
  assertEquals([i.sessionId, i.toolName, i.toolArgs], ["s", "edit", { path: "a", old_str: "x", new_str: "y" }]);
  assert(typeof i.timestamp === "number" && !("hook_event_name" in i));
  assertEquals(DIALECTS.copilot.input("SessionStart", { source: "startup" }, { projectDir: null }).source, "new");
});

Deno.test("copilot: answers as Copilot CLI reads them", () => {
  // preToolUse: any non-zero exit denies; the reason is stderr's first line, else the exit code.
  assertEquals(copilot("PreToolUse", answer("", 1, "bad\nmore")), { ...answer("", 2, "bad") });
  assertEquals(copilot("PreToolUse", answer("", 127, "")).stderr, "hook exited with code 127");
  // Elsewhere a non-zero exit is a failure, never a block.
  assertEquals(copilot("PostToolUse", answer("", 2, "why")).exitCode, 1);
  const deny = JSON.parse(copilot("PreToolUse", answer('{"permissionDecision":"deny"}')).stdout);
  assertEquals(deny.hookSpecificOutput.permissionDecisionReason, "No reason provided");
  // decision/continue on preToolUse are ignored, as Copilot ignores them.
  assertEquals(copilot("PreToolUse", answer('{"decision":"block","reason":"r","continue":false}')).stdout, "");
  const mod = JSON.parse(copilot("PreToolUse", answer('{"modifiedArgs":{"command":"y"}}')).stdout);
  assertEquals(mod.hookSpecificOutput.updatedInput, { command: "y" });
  assertEquals(JSON.parse(copilot("Stop", answer('{"decision":"block","reason":"more"}')).stdout).reason, "more");
  // sessionStart's additionalContext is not shown by Copilot CLI: dropped.
  assertEquals(copilot("SessionStart", answer('{"additionalContext":"c"}')).stdout, "");
  const perm = JSON.parse(copilot("PermissionRequest", answer("", 2, "")).stdout);
  assertEquals(perm.hookSpecificOutput.decision, { behavior: "deny", message: "Permission denied by hook." });
});
