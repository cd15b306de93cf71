/**
 * Adapter mode for Gemini CLI and Copilot CLI (`dispatch --protocol gemini|copilot`):
 * - the input mapping on payloads captured from the real CLIs (fixtures/adapter/gemini, fixtures/adapter/copilot:
 *   Gemini 0.61.0; Copilot 1.0.102 in both its PascalCase and camelCase dialects), tool names included;
 * - the output mapping (§9 result → the host's own stdout), rewrites as the complete tool input in the host's
 *   own parameter names;
 * - end-to-end `dispatch --protocol …` runs of the real CLI in temp homes with real hook scripts: deny,
 *   rewrite, context (and context a host cannot show), Stop continuing once and the loop guard's cap, untrusted
 *   and failing hooks, and every kind of bad input exiting 0 — Gemini blocks on exit ≥ 2 with stderr and on
 *   127, Copilot denies the tool call on exit 1.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cmd, group, makeHome, REPO, runCli, trustAll, writeConfigToml, writeHooksJson } from "./helpers/cli.ts";
import { mapHostInput, mapResultToHost, UNKNOWN } from "../src/adapter/hosts.ts";
import { validateEvent } from "../src/engine/input.ts";
import type { DispatchResult } from "../src/schema/result.ts";
import type { EventName } from "../src/events/names.ts";
import { HOSTS } from "../src/adapter/host_names.ts";

const FIX = `${REPO}/fixtures/adapter`;
const HOOKS = `${FIX}/hooks`;
type NewHost = "gemini" | "copilot";
type Json = Record<string, unknown>;

function fixture(host: NewHost, name: string): Json {
  return JSON.parse(Deno.readTextFileSync(`${FIX}/${host}/${name}.json`));
}

/** Maps a payload and checks that mind accepts it as is (no field dropped, nothing invalid). */
async function mapped(host: NewHost, raw: unknown, given?: string): Promise<Json> {
  const m = mapHostInput(host, raw, "/proc-cwd", given);
  if (m.kind !== "event") throw new Error(`${JSON.stringify(raw)} → ${JSON.stringify(m)}`);
  const v = await validateEvent(m.input, () => Promise.resolve("/t.jsonl"));
  assert(v.ok, `${m.event}: ${!v.ok && v.error}`);
  assertEquals(v.value.warnings, [], `${m.event}: warnings`);
  return m.input;
}

// ---------------------------------------------------------------------------------------------------
// Input mapping

Deno.test("gemini input: every captured event maps to its mind event with mind's tool names and placeholders", async () => {
  const common = (raw: Json) => ({
    session_id: raw.session_id,
    transcript_path: raw.transcript_path,
    cwd: "/home/user/proj",
  });
  const tool = { command: "echo hello-from-tool > ran.txt", description: "Run it" };
  const ids = { model: UNKNOWN, turn_id: UNKNOWN, permission_mode: "default" };
  const table: [string, Json][] = [
    ["SessionStart", {
      hook_event_name: "SessionStart",
      source: "startup",
      model: UNKNOWN,
      permission_mode: "default",
    }],
    ["BeforeAgent", { hook_event_name: "UserPromptSubmit", prompt: "Run it", ...ids }],
    ["BeforeTool", {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: tool,
      ...ids,
      tool_use_id: UNKNOWN,
    }],
    ["AfterTool", {
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: tool,
      tool_response: fixture("gemini", "AfterTool").tool_response,
      ...ids,
      tool_use_id: UNKNOWN,
    }],
    ["PreCompress", { hook_event_name: "PreCompact", trigger: "auto", model: UNKNOWN, turn_id: UNKNOWN }],
    ["AfterAgent", {
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: "ALL DONE ",
      ...ids,
    }],
    ["SessionEnd", { hook_event_name: "SessionEnd", reason: "exit" }],
  ];
  for (const [name, expected] of table) {
    const raw = fixture("gemini", name);
    assertEquals(await mapped("gemini", raw), { ...common(raw), ...expected }, name);
  }
});

Deno.test("gemini input: tools reach mind hooks under Claude Code's names; failed tools and other events are ignored", async () => {
  const base = { hook_event_name: "BeforeTool", session_id: "s", cwd: "/w" };
  const cases: [Json, string, Json][] = [
    [
      { tool_name: "replace", tool_input: { file_path: "/a", old_string: "x", new_string: "y", allow_multiple: true } },
      "Edit",
      {
        file_path: "/a",
        old_string: "x",
        new_string: "y",
        replace_all: true,
      },
    ],
    [{ tool_name: "write_file", tool_input: { file_path: "/a", content: "c" } }, "Write", {
      file_path: "/a",
      content: "c",
    }],
    [{ tool_name: "read_file", tool_input: { file_path: "/a", start_line: 3 } }, "Read", {
      file_path: "/a",
      start_line: 3,
    }],
    [{ tool_name: "run_shell_command", tool_input: { command: "ls", is_background: true } }, "Bash", {
      command: "ls",
      run_in_background: true,
    }],
    [{ tool_name: "glob", tool_input: { pattern: "*" } }, "glob", { pattern: "*" }],
    [{ tool_name: "toString", tool_input: {} }, "toString", {}],
    [
      {
        tool_name: "read_wiki",
        tool_input: { q: 1 },
        mcp_context: { server_name: "docs", tool_name: "read_wiki", command: "x" },
        original_request_name: "docs__read_wiki",
      },
      "mcp__docs__read_wiki",
      { q: 1 },
    ],
  ];
  for (const [over, name, input] of cases) {
    const m = await mapped("gemini", { ...base, ...over });
    assertEquals([m.tool_name, m.tool_input], [name, input], JSON.stringify(over));
    assertEquals([m.mcp_context, m.original_request_name], [undefined, undefined]);
  }
  const failed = { ...fixture("gemini", "AfterTool"), tool_response: { llmContent: "", error: { message: "x" } } };
  assertEquals(mapHostInput("gemini", failed, "/"), { kind: "ignore", event: "AfterTool" });
  for (const name of ["BeforeModel", "AfterModel", "BeforeToolSelection", "PreToolUse"]) {
    assertEquals(mapHostInput("gemini", { hook_event_name: name }, "/"), { kind: "ignore", event: name });
  }
  // Notification is mind's event too (SPEC §2.2 r4): its hooks read it as Gemini CLI sent it.
  const note = mapHostInput("gemini", { hook_event_name: "Notification", message: "m" }, "/");
  assertEquals(note.kind === "event" ? [note.event, note.sent] : note, [
    "Notification",
    { hook_event_name: "Notification", message: "m" },
  ]);
  assertEquals(mapHostInput("gemini", [1], "/").kind, "error");
  assertEquals(mapHostInput("gemini", { session_id: "s" }, "/").kind, "error");
});

Deno.test("copilot input: the PascalCase payloads map with Claude Code's parameter names", async () => {
  const bash = { command: "echo hello-from-tool > ran.txt", description: "Run it" };
  const ids = { model: UNKNOWN, turn_id: UNKNOWN, permission_mode: "default" };
  const table: [string, Json][] = [
    ["SessionStart", {
      hook_event_name: "SessionStart",
      source: "startup",
      model: UNKNOWN,
      permission_mode: "default",
    }],
    ["UserPromptSubmit", { hook_event_name: "UserPromptSubmit", prompt: "Run it", ...ids }],
    ["PreToolUse", {
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: bash,
      ...ids,
      tool_use_id: UNKNOWN,
    }],
    ["PreToolUse-Write", {
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: "b.txt", content: "hello" },
      ...ids,
      tool_use_id: UNKNOWN,
    }],
    ["PostToolUse", {
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: bash,
      tool_response: fixture("copilot", "PostToolUse").tool_result,
      ...ids,
      tool_use_id: UNKNOWN,
    }],
    ["Stop", {
      hook_event_name: "Stop",
      transcript_path: fixture("copilot", "Stop").transcript_path,
      stop_hook_active: false,
      last_assistant_message: null,
      ...ids,
    }],
    ["SessionEnd", { hook_event_name: "SessionEnd", reason: "complete" }],
  ];
  for (const [name, expected] of table) {
    const raw = fixture("copilot", name);
    assertEquals(
      await mapped("copilot", raw),
      { session_id: raw.session_id, cwd: "/home/user/proj", ...expected },
      name,
    );
  }
});

Deno.test("copilot input: camelCase payloads (permissionRequest, and events named by --event) map too", async () => {
  const ids = { model: UNKNOWN, turn_id: UNKNOWN, permission_mode: "default" };
  const session = (raw: Json) => ({ session_id: raw.sessionId, cwd: "/home/user/proj" });
  const perm = fixture("copilot", "permissionRequest");
  assertEquals(await mapped("copilot", perm, "permissionRequest"), {
    ...session(perm),
    hook_event_name: "PermissionRequest",
    tool_name: "Bash",
    tool_input: { command: "echo hello-from-tool > ran.txt" },
    ...ids,
  });
  // Without --event the payload's own hookName names it.
  assertEquals((await mapped("copilot", perm)).hook_event_name, "PermissionRequest");
  const permEdit = fixture("copilot", "permissionRequest-edit");
  assertEquals((await mapped("copilot", permEdit)).tool_name, "Edit");
  const pre = fixture("copilot", "preToolUse-create");
  assertEquals(await mapped("copilot", pre, "preToolUse"), {
    ...session(pre),
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: "b.txt", content: "hello" },
    ...ids,
    tool_use_id: UNKNOWN,
  });
  const post = fixture("copilot", "postToolUse-create");
  assertEquals((await mapped("copilot", post, "postToolUse")).tool_response, post.toolResult);
  // toolArgs sent as a JSON string are read as the object they hold.
  const stringArgs = { ...pre, toolName: "edit", toolArgs: JSON.stringify({ path: "a", old_str: "x", new_str: "y" }) };
  assertEquals((await mapped("copilot", stringArgs, "preToolUse")).tool_input, {
    file_path: "a",
    old_string: "x",
    new_string: "y",
  });
  const stop = { sessionId: "s", cwd: "/w", stopReason: "end_turn", stop_hook_active: true, transcriptPath: "/t" };
  assertEquals((await mapped("copilot", stop, "agentStop")).stop_hook_active, true);
  // A payload that names no event, given no --event, cannot be dispatched.
  assertEquals(mapHostInput("copilot", pre, "/").kind, "error");
  const note = mapHostInput("copilot", pre, "/", "notification");
  assertEquals(note.kind === "event" ? note.event : note, "Notification");
  assertEquals(mapHostInput("copilot", { ...pre, hook_event_name: "ErrorOccurred" }, "/", "preToolUse"), {
    kind: "ignore",
    event: "ErrorOccurred",
  });
});

// ---------------------------------------------------------------------------------------------------
// Output mapping

function result(event: EventName, over: Partial<DispatchResult> = {}): DispatchResult {
  return {
    hook_event_name: event,
    decision: null,
    reason: null,
    continue: true,
    stopReason: null,
    updatedInput: null,
    continuationPrompt: null,
    additionalContext: [],
    systemMessages: [],
    asyncResults: [],
    envFile: null,
    runs: [],
    warnings: [],
    ...over,
  };
}

Deno.test("gemini output: each §9 decision becomes Gemini CLI's own form", () => {
  const shell = { tool_name: "run_shell_command", tool_input: { command: "rm -rf /", description: "clean" } };
  const edit = {
    tool_name: "replace",
    tool_input: { file_path: "/a", old_string: "x", new_string: "y", instruction: "i" },
  };
  const table: [EventName, Partial<DispatchResult>, Json, Json | null][] = [
    ["PreToolUse", {}, shell, null],
    ["PreToolUse", { decision: "deny", reason: "no rm" }, shell, { decision: "deny", reason: "no rm" }],
    // (r3) Gemini CLI's own ask; a rewrite with it goes along.
    ["PreToolUse", { decision: "ask", reason: "commit?" }, shell, { decision: "ask", reason: "commit?" }],
    ["PreToolUse", { decision: "ask", reason: "commit?", updatedInput: { command: "ls" } }, shell, {
      decision: "ask",
      reason: "commit?",
      hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "ls", description: "clean" } },
    }],
    // The complete arguments, in Gemini's names, without a decision.
    ["PreToolUse", { decision: "allow", updatedInput: { command: "ls" } }, shell, {
      hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "ls", description: "clean" } },
    }],
    ["PreToolUse", { decision: "allow", updatedInput: { new_string: "z", replace_all: true } }, edit, {
      hookSpecificOutput: {
        hookEventName: "BeforeTool",
        tool_input: { file_path: "/a", old_string: "x", new_string: "z", instruction: "i", allow_multiple: true },
      },
    }],
    // BeforeTool shows no context: the user is told, nothing reaches the model.
    ["PreToolUse", { additionalContext: ["c"] }, shell, {
      systemMessage:
        "mind-hooks: additional context of BeforeTool hooks was not delivered: Gemini CLI shows hook context only on SessionStart, BeforeAgent and AfterTool",
    }],
    ["PostToolUse", { additionalContext: ["a", "b"], systemMessages: ["m"] }, shell, {
      systemMessage: "m",
      hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "a\n\nb" },
    }],
    ["PostToolUse", { decision: "block", reason: "bad output" }, shell, { decision: "deny", reason: "bad output" }],
    ["PostToolUse", { decision: "stop", reason: "halt: feedback", continue: false, stopReason: "halt" }, shell, {
      continue: false,
      stopReason: "halt: feedback",
    }],
    ["UserPromptSubmit", { decision: "block", reason: "secret", additionalContext: ["c"] }, {}, {
      decision: "deny",
      reason: "secret",
      hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "c" },
    }],
    ["SessionStart", { additionalContext: ["hello"] }, {}, {
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hello" },
    }],
    ["Stop", { decision: "block", reason: "go on", continuationPrompt: "go on" }, {}, {
      decision: "deny",
      reason: "go on",
    }],
    ["Stop", { decision: "stop", continue: false, stopReason: "enough" }, {}, {
      continue: false,
      stopReason: "enough",
    }],
    ["SessionEnd", { systemMessages: ["1 hook needs review: run mind-hooks review"] }, {}, {
      systemMessage: "1 hook needs review: run mind-hooks review",
    }],
  ];
  for (const [event, over, hostInput, expected] of table) {
    assertEquals(mapResultToHost("gemini", event, result(event, over), hostInput), expected, JSON.stringify(over));
  }
});

Deno.test("copilot output: each §9 decision becomes Copilot CLI's own form (read by both of its dialects)", () => {
  const pascal = { tool_name: "Edit", tool_input: { path: "a.txt", old_str: "x", new_str: "y" } };
  const camel = { toolName: "bash", toolArgs: JSON.stringify({ command: "rm -rf /", description: "clean" }) };
  const table: [EventName, Partial<DispatchResult>, Json, Json | null][] = [
    ["PreToolUse", {}, pascal, null],
    ["PreToolUse", { decision: "deny", reason: "no rm" }, camel, {
      permissionDecision: "deny",
      permissionDecisionReason: "no rm",
    }],
    // (r3) Copilot CLI's own ask.
    ["PreToolUse", { decision: "ask", reason: "commit?" }, pascal, {
      permissionDecision: "ask",
      permissionDecisionReason: "commit?",
    }],
    // modifiedArgs: the complete arguments, in Copilot's names, and no "allow" (which would approve the call).
    ["PreToolUse", { decision: "allow", updatedInput: { new_string: "z" } }, pascal, {
      modifiedArgs: { path: "a.txt", old_str: "x", new_str: "z" },
    }],
    ["PreToolUse", { decision: "allow", updatedInput: { command: "ls" } }, camel, {
      modifiedArgs: { command: "ls", description: "clean" },
    }],
    ["PreToolUse", { additionalContext: ["c"] }, pascal, { additionalContext: "c" }],
    ["PermissionRequest", { decision: "deny", reason: "Blocked by hook." }, {}, {
      behavior: "deny",
      message: "Blocked by hook.",
    }],
    ["PermissionRequest", { decision: "allow" }, {}, { behavior: "allow" }],
    ["PostToolUse", { decision: "block", reason: "bad", additionalContext: ["c"] }, pascal, {
      decision: "block",
      reason: "bad",
      additionalContext: "c",
    }],
    ["UserPromptSubmit", { decision: "block", reason: "secret" }, {}, { decision: "block", reason: "secret" }],
    ["SessionStart", { additionalContext: ["hello"] }, {}, { additionalContext: "hello" }],
    ["Stop", { decision: "block", reason: "go on", continuationPrompt: "go on" }, {}, {
      decision: "block",
      reason: "go on",
    }],
    ["SubagentStart", { additionalContext: ["x"] }, {}, {
      systemMessage:
        "mind-hooks: additional context of SubagentStart hooks was not delivered: Copilot CLI shows hook context only on SessionStart, UserPromptSubmit, PreToolUse and PostToolUse",
    }],
    ["SessionEnd", { systemMessages: ["m1", "m2"] }, {}, { systemMessage: "m1\nm2" }],
  ];
  for (const [event, over, hostInput, expected] of table) {
    assertEquals(mapResultToHost("copilot", event, result(event, over), hostInput), expected, JSON.stringify(over));
  }
});

// ---------------------------------------------------------------------------------------------------
// End to end: `dispatch --protocol gemini|copilot`

/** A trusted (unless told) temp mind home with `hooks`, and a work dir. */
async function mindHome(hooks: Record<string, Json[]>, trusted = true) {
  const home = await makeHome();
  const work = `${home.path}/work`;
  await Deno.mkdir(work);
  await writeHooksJson(home.path, hooks);
  if (trusted) await trustAll(home.path);
  return { home: home.path, work, cleanup: home.cleanup };
}

function script(name: string, matcher?: string): Json[] {
  return [group([cmd(`sh ${HOOKS}/${name}`)], matcher)];
}

async function adapted(host: NewHost, home: string, stdin: string, extra: string[] = []) {
  const r = await runCli(["dispatch", "--protocol", host, "--home", home, ...extra], { stdin });
  return { code: r.code, stderr: r.stderr, json: r.stdout.trim() === "" ? null : JSON.parse(r.stdout) };
}

const PRE: Record<NewHost, string> = { gemini: "BeforeTool", copilot: "PreToolUse" };
const POST: Record<NewHost, string> = { gemini: "AfterTool", copilot: "PostToolUse" };
const STOP: Record<NewHost, string> = { gemini: "AfterAgent", copilot: "Stop" };

function hostEvent(host: NewHost, name: string, cwd: string, over: Json = {}): string {
  return JSON.stringify({ ...fixture(host, name), cwd, ...over });
}

for (const host of ["gemini", "copilot"] as const) {
  Deno.test(`e2e ${host}: deny, rewrite and context come back in the host's own form`, async () => {
    const h = await mindHome({
      PreToolUse: script("deny.sh", "Bash"),
      PostToolUse: script("context.sh", "Bash"),
    });
    try {
      const deny = await adapted(host, h.home, hostEvent(host, PRE[host], h.work));
      assertEquals([deny.code, deny.json], [
        0,
        host === "gemini"
          ? { decision: "deny", reason: "DENY-MARKER: this command is not allowed" }
          : { permissionDecision: "deny", permissionDecisionReason: "DENY-MARKER: this command is not allowed" },
      ]);
      const ctx = await adapted(host, h.home, hostEvent(host, POST[host], h.work));
      assertEquals([ctx.code, ctx.json, ctx.stderr], [
        0,
        host === "gemini"
          ? { hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "CTX-MARKER: the build is green" } }
          : { additionalContext: "CTX-MARKER: the build is green" },
        "",
      ]);
    } finally {
      await h.cleanup();
    }
  });

  Deno.test(`e2e ${host}: a rewrite goes back as the complete tool input in the host's parameter names`, async () => {
    const h = await mindHome({ PreToolUse: script("rewrite.sh", "Bash") });
    try {
      const r = await adapted(host, h.home, hostEvent(host, PRE[host], h.work));
      const input = { command: "echo rewritten > ran.txt", description: "Run it" };
      assertEquals([r.code, r.json], [
        0,
        host === "gemini" ? { hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: input } } : {
          modifiedArgs: input,
        },
      ]);
    } finally {
      await h.cleanup();
    }
  });

  Deno.test(`e2e ${host}: a Stop hook continues once; one that always continues stops at the loop cap`, async () => {
    const h = await mindHome({ Stop: script("stop_continue.sh") });
    try {
      const cont = host === "gemini" ? "deny" : "block";
      const first = await adapted(host, h.home, hostEvent(host, STOP[host], h.work));
      assertEquals(first.json, { decision: cont, reason: "CONTINUE-MARKER: also summarise what you did" });
      const again = await adapted(host, h.home, hostEvent(host, STOP[host], h.work, { stop_hook_active: true }));
      assertEquals([again.code, again.json], [0, null]);

      // The same host session, a hook that blocks every time: the cap (2 here) ends the loop.
      await writeHooksJson(h.home, { Stop: script("stop_always.sh") });
      await writeConfigToml(h.home, "[hooks]\nstop_block_cap = 2\n");
      await trustAll(h.home);
      const answers = [];
      for (let i = 0; i < 3; i++) {
        answers.push(
          (await adapted(host, h.home, hostEvent(host, STOP[host], h.work, { stop_hook_active: i > 0 }))).json,
        );
      }
      const block = { decision: cont, reason: "ALWAYS-MARKER: keep going" };
      assertEquals(answers, [block, block, {
        systemMessage:
          "Stop hooks blocked 3 times in a row; the block was ignored to end the loop (hooks.stop_block_cap = 2)",
      }]);
    } finally {
      await h.cleanup();
    }
  });

  Deno.test(`e2e ${host}: an untrusted hook does not run and the user is told to review`, async () => {
    const h = await mindHome({ PreToolUse: script("deny.sh") }, false);
    try {
      const r = await adapted(host, h.home, hostEvent(host, PRE[host], h.work));
      assertEquals([r.code, r.json], [0, { systemMessage: "1 hook needs review: run mind-hooks review" }]);
    } finally {
      await h.cleanup();
    }
  });

  Deno.test(`e2e ${host}: a failing hook lets the host proceed (no decision, one message)`, async () => {
    const h = await mindHome({ PreToolUse: script("fail.sh") });
    try {
      const r = await adapted(host, h.home, hostEvent(host, PRE[host], h.work));
      assertEquals([r.code, Object.keys(r.json)], [0, ["systemMessage"]]);
      assert(/^hook user:.*:PreToolUse:0:0 failed: exit 1/.test(r.json.systemMessage), r.json.systemMessage);
    } finally {
      await h.cleanup();
    }
  });

  Deno.test(`e2e ${host}: malformed or unusable stdin → no output, exit 0, one stderr line`, async () => {
    const h = await mindHome({ PreToolUse: script("deny.sh") });
    const name = host === "gemini" ? "Gemini CLI" : "Copilot CLI";
    try {
      const wrongType = JSON.stringify({ hook_event_name: PRE[host], tool_name: 7 });
      for (const stdin of ["", "{not json", "[1,2]", '{"session_id":"s"}', wrongType]) {
        const r = await adapted(host, h.home, stdin);
        assertEquals([r.code, r.json], [0, null], stdin);
        const lines = r.stderr.trimEnd().split("\n");
        assertEquals(lines.length, 1, `${stdin}: ${r.stderr}`);
        assert(new RegExp(`^mind-hooks: .+ — no hooks ran; ${name} proceeds$`).test(lines[0]), lines[0]);
      }
    } finally {
      await h.cleanup();
    }
  });
}

Deno.test("e2e copilot: arguments sent as a too-deep JSON string deny the tool call, like any too-deep tool event", async () => {
  const h = await mindHome({ PreToolUse: script("deny.sh") });
  try {
    const deep = '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000);
    const stdin = JSON.stringify({ sessionId: "s", cwd: h.work, toolName: "bash", toolArgs: deep });
    const r = await adapted("copilot", h.home, stdin, ["--event", "preToolUse"]);
    // A refusal must not let the call through unseen by its guards (SPEC §15; src/engine/dispatch.ts).
    const reason =
      "mind-hooks refused this PreToolUse: the event nests deeper than 64 levels (at tool_input.a.a.a.a.a.a.a…); the tool call is denied unseen by hooks";
    assertEquals([r.code, r.json], [0, {
      permissionDecision: "deny",
      permissionDecisionReason: reason,
      systemMessage: reason,
    }]);
  } finally {
    await h.cleanup();
  }
});

Deno.test("e2e copilot: permissionRequest (camelCase) is answered with behavior + message", async () => {
  const h = await mindHome({ PermissionRequest: script("perm_deny.sh", "Bash") });
  try {
    const stdin = hostEvent("copilot", "permissionRequest", h.work);
    const r = await adapted("copilot", h.home, stdin, ["--event", "permissionRequest"]);
    assertEquals([r.code, r.json], [0, { behavior: "deny", message: "PERM-MARKER: not this one" }]);
  } finally {
    await h.cleanup();
  }
});

Deno.test("e2e gemini: context on BeforeTool, which Gemini cannot show, is reported instead of lost", async () => {
  const h = await mindHome({ PreToolUse: script("context.sh", "Bash") });
  try {
    const r = await adapted("gemini", h.home, hostEvent("gemini", "BeforeTool", h.work));
    assertEquals(r.json, {
      systemMessage:
        "mind-hooks: additional context of BeforeTool hooks was not delivered: Gemini CLI shows hook context only on SessionStart, BeforeAgent and AfterTool",
    });
  } finally {
    await h.cleanup();
  }
});

Deno.test("adapter mode exits 0 on a usage error for every host (Gemini blocks on ≥ 2, Copilot denies on 1)", async () => {
  const home = await makeHome();
  try {
    const hosts = ["claude", "codex", "gemini", "copilot"];
    assertEquals([...HOSTS], hosts);
    for (const host of hosts) {
      for (const extra of [["--no-such-option"], ["-c", "not-a-key-value"], ["--home"]]) {
        const r = await runCli(["dispatch", "--protocol", host, ...extra], { stdin: "{}" });
        assertEquals([r.code, r.stdout], [0, ""], `${host} ${extra.join(" ")}`);
        assertEquals(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
        assert(r.stderr.startsWith("mind-hooks: ") && !r.stderr.includes("internal error"), r.stderr);
      }
    }
    // Outside adapter mode the same mistake is a usage error (exit 1), and --event needs a host protocol.
    assertEquals((await runCli(["dispatch", "--no-such-option"], { stdin: "{}" })).code, 1);
    const ev = await runCli(["dispatch", "--event", "preToolUse", "--home", home.path], { stdin: "{}" });
    assertEquals([ev.code, ev.stderr.trim()], [
      1,
      "mind-hooks: --event names a host's event: it goes with --protocol claude|codex|gemini|copilot",
    ]);
  } finally {
    await home.cleanup();
  }
});

Deno.test("input: __proto__ keys of a payload stay plain data, in the event and in a rewrite", async () => {
  const proto = JSON.parse(
    `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/w","tool_name":"Edit",` +
      `"tool_input":{"path":"a","__proto__":{"polluted":1}},"__proto__":{"tool_name":"Bash"}}`,
  );
  for (const host of ["gemini", "copilot"] as const) {
    const raw = host === "gemini" ? { ...proto, hook_event_name: "BeforeTool", tool_name: "replace" } : proto;
    const m = mapHostInput(host, raw, "/");
    assert(m.kind === "event", JSON.stringify(m));
    assertEquals(m.input.tool_name, "Edit", host);
    const input = m.input.tool_input as Json;
    assertEquals([Object.getPrototypeOf(input), (input as { polluted?: number }).polluted], [
      Object.prototype,
      undefined,
    ]);
    assertEquals(Object.getPrototypeOf(m.input), Object.prototype, host);
    // The engine drops the unknown fields instead of running on a changed prototype.
    const v = await validateEvent(m.input, () => Promise.resolve("/t"));
    assert(v.ok, host);
  }
  // Rewrites go back as data too.
  assertEquals(
    Object.getPrototypeOf(
      mapResultToHost(
        "copilot",
        "PreToolUse",
        result("PreToolUse", { decision: "allow", updatedInput: JSON.parse(`{"__proto__":{"x":1},"command":"ls"}`) }),
        { tool_name: "Bash", tool_input: { command: "rm" } },
      )!.modifiedArgs,
    ),
    Object.prototype,
  );
});
