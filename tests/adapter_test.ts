/**
 * Adapter mode (`dispatch --protocol claude|codex`) and `install claude|codex`:
 * - tables of the input mapping (host stdin → SPEC §5) on inputs captured from the real CLIs
 *   (fixtures/adapter/claude, fixtures/adapter/codex) and of the output mapping (§9 result → host stdout);
 * - end-to-end `dispatch --protocol …` runs of the real CLI in temp homes with real hook scripts;
 * - install / uninstall / idempotence / dry-run on real-world-shaped settings files with comments.
 */
import { assert, assertEquals, assertMatch, assertThrows } from "./helpers/assert.ts";
import { fileURLToPath } from "node:url";
import { parse as parseJsonc } from "jsonc-parser";
import { type Host, HOST_EVENTS, mapHostInput, mapResultToHost, UNKNOWN } from "../src/adapter/hosts.ts";
import { planEdit, registeredCommand } from "../src/adapter/settings.ts";
import { unifiedDiff } from "../src/util/line_diff.ts";
import { validateEvent } from "../src/engine/input.ts";
import type { DispatchResult } from "../src/schema/result.ts";
import type { EventName } from "../src/events/names.ts";

const REPO = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");
const FIX = `${REPO}/fixtures/adapter`;
const HOOKS = `${FIX}/hooks`;
/** The CLI entry (MIND_HOOKS_TEST_MAIN lets a wrapper stand in while main.ts lacks a command). */
const MAIN = Deno.env.get("MIND_HOOKS_TEST_MAIN") ?? `${REPO}/main.ts`;

function fixture(host: Host, event: string): Record<string, unknown> {
  return JSON.parse(Deno.readTextFileSync(`${FIX}/${host}/${event}.json`));
}

// ---------------------------------------------------------------------------------------------------
// Input mapping

Deno.test("claude input: every captured event maps to a valid §5 event without losing a field", async () => {
  for (const event of ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]) {
    const raw = fixture("claude", event);
    const mapped = mapHostInput("claude", raw, "/somewhere");
    assertEquals(mapped.kind, "event", event);
    if (mapped.kind !== "event") continue;
    for (const [k, v] of Object.entries(raw)) assertEquals(mapped.input[k], v, `${event}.${k} changed`);
    const v = await validateEvent(mapped.input, () => Promise.resolve("/unused"));
    assert(v.ok, `${event}: ${!v.ok && v.error}`);
  }
});

Deno.test("claude input: placeholders for what Claude Code does not send", () => {
  const table: [string, Record<string, unknown>][] = [
    ["PreToolUse", { model: UNKNOWN, turn_id: "26adfdbe-f3aa-4959-9909-5d705a033378", tool_name: "Bash" }],
    ["SessionStart", { model: UNKNOWN, permission_mode: "default", source: "startup" }],
    ["Stop", { model: UNKNOWN, stop_hook_active: false, last_assistant_message: "ALL DONE" }],
    ["SessionEnd", { reason: "other" }],
  ];
  for (const [event, expected] of table) {
    const m = mapHostInput("claude", fixture("claude", event), "/x");
    assertEquals(m.kind, "event");
    if (m.kind !== "event") continue;
    for (const [k, v] of Object.entries(expected)) assertEquals(m.input[k], v, `${event}.${k}`);
    if (event === "SessionEnd") assertEquals(m.input.model, undefined, "SessionEnd has no model (§5)");
  }
  const pre = mapHostInput("claude", fixture("claude", "PreToolUse"), "/x");
  assert(pre.kind === "event");
  assertEquals(pre.input.tool_input, {
    command: "echo hello-from-tool > ran.txt",
    description: "Write a marker file",
  });
});

Deno.test("input: fills every missing required field, keeps host tool names, fixes unknown enum values", async () => {
  const cases: [Host, Record<string, unknown>, Record<string, unknown>][] = [
    [
      "claude",
      { hook_event_name: "PreToolUse", session_id: "s", cwd: "/w", tool_name: "Edit", tool_input: { file_path: "/a" } },
      { tool_name: "Edit", turn_id: UNKNOWN, tool_use_id: UNKNOWN, permission_mode: "default", model: UNKNOWN },
    ],
    [
      "claude",
      { hook_event_name: "PostToolUse", session_id: "s", tool_name: "Read", permission_mode: "auto" },
      { cwd: "/proc-cwd", tool_input: {}, tool_response: null, permission_mode: "default" },
    ],
    [
      "claude",
      { hook_event_name: "SubagentStop", session_id: "s", cwd: "/w", agent_id: "a1", agent_type: "Explore" },
      { agent_transcript_path: null, stop_hook_active: false, last_assistant_message: null, agent_id: "a1" },
    ],
    [
      "claude",
      { hook_event_name: "PreCompact", session_id: "s", cwd: "/w", trigger: "manual", custom_instructions: "" },
      { trigger: "manual", turn_id: UNKNOWN },
    ],
    [
      "codex",
      { hook_event_name: "PermissionRequest", session_id: "s", cwd: "/w", model: "gpt", tool_name: "Bash" },
      { tool_input: {}, turn_id: UNKNOWN, model: "gpt" },
    ],
    [
      "codex",
      { hook_event_name: "SubagentStart", session_id: "s", cwd: "/w", model: "gpt", turn_id: "t" },
      { agent_id: UNKNOWN, agent_type: UNKNOWN, turn_id: "t" },
    ],
    [
      "codex",
      { hook_event_name: "UserPromptSubmit", session_id: "s", cwd: "/w", model: "gpt", turn_id: "t" },
      { prompt: "", permission_mode: "default" },
    ],
  ];
  for (const [host, raw, expected] of cases) {
    const m = mapHostInput(host, raw, "/proc-cwd");
    assertEquals(m.kind, "event", JSON.stringify(raw));
    if (m.kind !== "event") continue;
    for (const [k, v] of Object.entries(expected)) assertEquals(m.input[k], v, `${raw.hook_event_name}.${k}`);
    const v = await validateEvent(m.input, () => Promise.resolve("/t.jsonl"));
    assert(v.ok, `${host} ${raw.hook_event_name}: ${!v.ok && v.error}`);
  }
});

Deno.test("codex input: captured events pass through unchanged", async () => {
  for (const event of ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]) {
    const raw = fixture("codex", event);
    const m = mapHostInput("codex", raw, "/x");
    assert(m.kind === "event", event);
    assertEquals(m.input, raw, `${event} was changed`);
    const v = await validateEvent(m.input, () => Promise.resolve("/unused"));
    assert(v.ok && v.value.warnings.length === 0, `${event}: ${JSON.stringify(v)}`);
  }
});

Deno.test("input: host events mind lacks are ignored; a non-object or nameless input is an error", () => {
  for (const name of ["StopFailure", "PermissionDenied", "Interrupt"]) {
    assertEquals(mapHostInput("claude", { hook_event_name: name, session_id: "s" }, "/"), {
      kind: "ignore",
      event: name,
    });
  }
  assertEquals(mapHostInput("codex", { hook_event_name: "StopFailure" }, "/").kind, "ignore");
  assertEquals(mapHostInput("codex", { hook_event_name: "Notification" }, "/").kind, "ignore");
  assertEquals(mapHostInput("claude", fixture("claude", "Notification"), "/").kind, "event");
  assertEquals(mapHostInput("claude", [1, 2], "/").kind, "error");
  assertEquals(mapHostInput("claude", "text", "/").kind, "error");
  assertEquals(mapHostInput("codex", { session_id: "s" }, "/").kind, "error");
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

const BASH_INPUT = { tool_input: { command: "rm -rf /", description: "clean", timeout: 5000 } };

Deno.test("output: each §9 decision becomes the host's own form", () => {
  type Row = [Host[], EventName, Partial<DispatchResult>, Record<string, unknown> | null];
  const table: Row[] = [
    [["claude", "codex"], "PreToolUse", {}, null],
    [["claude", "codex"], "PreToolUse", { decision: "deny", reason: "no rm" }, {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "no rm",
      },
    }],
    // Claude Code: the whole tool_input, and no "allow" (which would skip Claude Code's permission rules).
    [["claude"], "PreToolUse", { decision: "allow", updatedInput: { command: "ls" } }, {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        updatedInput: { command: "ls", description: "clean", timeout: 5000 },
      },
    }],
    [["codex"], "PreToolUse", { decision: "allow", updatedInput: { command: "ls" } }, {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "ls" } },
    }],
    [["claude", "codex"], "PreToolUse", { additionalContext: ["a", "b"], systemMessages: ["m1", "m2"] }, {
      systemMessage: "m1\nm2",
      hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "a\n\nb" },
    }],
    [["claude", "codex"], "PermissionRequest", { decision: "allow" }, {
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    }],
    [["claude", "codex"], "PermissionRequest", { decision: "deny", reason: "Blocked by hook." }, {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: "Blocked by hook." },
      },
    }],
    [["claude", "codex"], "PostToolUse", { decision: "block", reason: "bad output" }, {
      decision: "block",
      reason: "bad output",
    }],
    [["claude"], "PostToolUse", { decision: "stop", reason: "halt", continue: false, stopReason: "halt" }, {
      continue: false,
      stopReason: "halt",
    }],
    [["codex"], "PostToolUse", { decision: "stop", reason: "halt", continue: false, stopReason: "halt" }, {
      continue: false,
      stopReason: "halt",
      reason: "halt",
    }],
    [["claude", "codex"], "UserPromptSubmit", { decision: "block", reason: "secret", additionalContext: ["c"] }, {
      decision: "block",
      reason: "secret",
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "c" },
    }],
    [["claude", "codex"], "Stop", { decision: "block", reason: "go on", continuationPrompt: "go on" }, {
      decision: "block",
      reason: "go on",
    }],
    [["claude", "codex"], "SubagentStop", { decision: "stop", continue: false, stopReason: "enough" }, {
      continue: false,
      stopReason: "enough",
    }],
    [["claude", "codex"], "SessionStart", { decision: "stop", continue: false, stopReason: null }, {
      continue: false,
    }],
    // Context on an event the host cannot show it on is not sent.
    [["claude", "codex"], "Stop", { additionalContext: ["x"] }, null],
    [["claude", "codex"], "SessionEnd", { systemMessages: ["1 hook needs review: run mind-hooks review"] }, {
      systemMessage: "1 hook needs review: run mind-hooks review",
    }],
  ];
  for (const [hosts, event, over, expected] of table) {
    for (const host of hosts) {
      assertEquals(
        mapResultToHost(host, event, result(event, over), BASH_INPUT),
        expected,
        `${host} ${event} ${JSON.stringify(over)}`,
      );
    }
  }
});

Deno.test("output (r3): an ask is the host's own ask; Codex, which has none, gets a deny that says so", () => {
  const ask = result("PreToolUse", { decision: "ask", reason: "commit?" });
  const hso = (fields: Record<string, unknown>) => ({ hookSpecificOutput: { hookEventName: "PreToolUse", ...fields } });
  // The hook's own reason goes to Claude Code, or none so that Claude Code words its own.
  const own = { permissionDecision: "ask" as const, permissionDecisionReason: null, wholeRewrite: false };
  assertEquals(mapResultToHost("claude", "PreToolUse", ask, BASH_INPUT, own), hso({ permissionDecision: "ask" }));
  assertEquals(
    mapResultToHost("claude", "PreToolUse", ask, BASH_INPUT, { ...own, permissionDecisionReason: "commit?" }),
    hso({ permissionDecision: "ask", permissionDecisionReason: "commit?" }),
  );
  // With a rewrite, Claude Code asks about the rewritten call (the whole input).
  assertEquals(
    mapResultToHost("claude", "PreToolUse", { ...ask, updatedInput: { command: "ls" } }, BASH_INPUT, own),
    hso({ permissionDecision: "ask", updatedInput: { command: "ls", description: "clean", timeout: 5000 } }),
  );
  assertEquals(
    mapResultToHost("codex", "PreToolUse", ask, BASH_INPUT),
    hso({ permissionDecision: "deny", permissionDecisionReason: "commit? (this hook asks for your approval)" }),
  );
});

Deno.test("output: async results are delivered with the next event that can show them", () => {
  const r = result("PostToolUse", {
    asyncResults: [
      {
        key: "k1",
        event: "PostToolUse",
        status: "completed",
        reason: null,
        systemMessage: "lint ok",
        additionalContext: "3 warnings",
      },
      {
        key: "k2",
        event: "PostToolUse",
        status: "failed",
        reason: "exit 1",
        systemMessage: null,
        additionalContext: null,
      },
    ],
  });
  assertEquals(mapResultToHost("codex", "PostToolUse", r, {}), {
    systemMessage: "lint ok\nasync hook k2 failed: exit 1",
    hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "3 warnings" },
  });
});

// ---------------------------------------------------------------------------------------------------
// End to end: `dispatch --protocol claude|codex`

async function cli(args: string[], opts: { stdin?: string; env?: Record<string, string>; cwd?: string } = {}) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", `${REPO}/deno.json`, MAIN, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    cwd: opts.cwd ?? REPO,
    env: opts.env ?? {},
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(opts.stdin ?? ""));
  await w.close();
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

/** A temp mind home holding `hooks` (trusted unless told), and a work dir. */
async function mindHome(hooks: Record<string, unknown>, trusted = true) {
  const root = await Deno.makeTempDir({ prefix: "adapter_test_" });
  const home = `${root}/mind`;
  const work = `${root}/work`;
  await Deno.mkdir(home);
  await Deno.mkdir(work);
  await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify({ hooks }));
  if (trusted) {
    const t = await cli(["trust", "--all", "--home", home]);
    assertEquals(t.code, 0, t.stderr);
  }
  return { root, home, work };
}

function group(script: string, matcher?: string) {
  return [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command: `sh ${HOOKS}/${script}` }] }];
}

function hostEvent(host: Host, event: string, cwd: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...fixture(host, event), cwd, ...over });
}

async function adapted(host: Host, home: string, stdin: string, env: Record<string, string> = {}) {
  const r = await cli(["dispatch", "--protocol", host, "--home", home], { stdin, env });
  return { ...r, json: r.stdout.trim() === "" ? null : JSON.parse(r.stdout) };
}

for (const host of ["claude", "codex"] as const) {
  Deno.test(`e2e ${host}: deny, rewrite and context come back in the host's form`, async () => {
    const h = await mindHome({
      PreToolUse: [...group("deny.sh", "Bash")],
      PostToolUse: group("context.sh", "Bash"),
    });
    try {
      const deny = await adapted(host, h.home, hostEvent(host, "PreToolUse", h.work));
      assertEquals(deny.code, 0, deny.stderr);
      assertEquals(deny.json, {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "DENY-MARKER: this command is not allowed",
        },
      });
      const ctx = await adapted(host, h.home, hostEvent(host, "PostToolUse", h.work));
      assertEquals(ctx.code, 0, ctx.stderr);
      assertEquals(ctx.json, {
        hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "CTX-MARKER: the build is green" },
      });
      assertEquals(ctx.stderr, "");
    } finally {
      await Deno.remove(h.root, { recursive: true });
    }
  });

  Deno.test(`e2e ${host}: a rewrite is sent as the host's rewrite form`, async () => {
    const h = await mindHome({ PreToolUse: group("rewrite.sh") });
    try {
      const r = await adapted(host, h.home, hostEvent(host, "PreToolUse", h.work));
      assertEquals(r.code, 0, r.stderr);
      const expected = host === "claude"
        ? {
          hookEventName: "PreToolUse",
          updatedInput: { command: "echo rewritten > ran.txt", description: "Write a marker file" },
        }
        : {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          updatedInput: { command: "echo rewritten > ran.txt" },
        };
      assertEquals(r.json, { hookSpecificOutput: expected });
    } finally {
      await Deno.remove(h.root, { recursive: true });
    }
  });

  Deno.test(`e2e ${host}: a Stop hook's block becomes decision block with the continuation prompt`, async () => {
    const h = await mindHome({ Stop: group("stop_continue.sh") });
    try {
      const first = await adapted(host, h.home, hostEvent(host, "Stop", h.work));
      assertEquals(first.json, { decision: "block", reason: "CONTINUE-MARKER: also summarise what you did" });
      const again = await adapted(host, h.home, hostEvent(host, "Stop", h.work, { stop_hook_active: true }));
      assertEquals(again.code, 0);
      assertEquals(again.json, null, "the second Stop must let the turn end");
    } finally {
      await Deno.remove(h.root, { recursive: true });
    }
  });

  Deno.test(`e2e ${host}: an untrusted hook does not run and the user is told to review`, async () => {
    const h = await mindHome({ PreToolUse: group("deny.sh") }, false);
    try {
      const r = await adapted(host, h.home, hostEvent(host, "PreToolUse", h.work));
      assertEquals(r.code, 0, r.stderr);
      assertEquals(r.json, { systemMessage: "1 hook needs review: run mind-hooks review" });
    } finally {
      await Deno.remove(h.root, { recursive: true });
    }
  });

  Deno.test(`e2e ${host}: a failing hook lets the host proceed (no decision, one message)`, async () => {
    const h = await mindHome({ PreToolUse: group("fail.sh") });
    try {
      const r = await adapted(host, h.home, hostEvent(host, "PreToolUse", h.work));
      assertEquals(r.code, 0, r.stderr);
      assertEquals(Object.keys(r.json), ["systemMessage"]);
      assertMatch(r.json.systemMessage, /^hook user:.*:PreToolUse:0:0 failed: exit 1/);
    } finally {
      await Deno.remove(h.root, { recursive: true });
    }
  });

  Deno.test(`e2e ${host}: malformed or unusable stdin → no output, exit 0, one stderr line`, async () => {
    const h = await mindHome({ PreToolUse: group("deny.sh") });
    try {
      for (
        const stdin of [
          "",
          "{not json",
          "[1,2]",
          '{"session_id":"s"}',
          '{"hook_event_name":"PreToolUse","tool_name":7}',
        ]
      ) {
        const r = await adapted(host, h.home, stdin);
        assertEquals(r.code, 0, `exit for ${stdin}`);
        assertEquals(r.stdout, "", `stdout for ${stdin}`);
        const lines = r.stderr.trimEnd().split("\n");
        assertEquals(lines.length, 1, `stderr for ${stdin}: ${r.stderr}`);
        assertMatch(lines[0], /^mind-hooks: .+ — no hooks ran; (Claude Code|Codex) proceeds$/);
      }
    } finally {
      await Deno.remove(h.root, { recursive: true });
    }
  });
}

Deno.test("e2e claude: a host event mind lacks is answered with nothing", async () => {
  const h = await mindHome({ Stop: group("stop_continue.sh") });
  try {
    const r = await adapted("claude", h.home, JSON.stringify({ ...fixture("claude", "Notification"), cwd: h.work }));
    assertEquals([r.code, r.stdout, r.stderr], [0, "", ""]);
  } finally {
    await Deno.remove(h.root, { recursive: true });
  }
});

Deno.test("e2e claude: the mind hook reads Claude Code's event as it was sent, nothing invented (issue 33)", async () => {
  const h = await mindHome({ PreToolUse: group("echo_input.sh") });
  try {
    const record = `${h.root}/seen.json`;
    const sent = hostEvent("claude", "PreToolUse", h.work);
    const r = await adapted("claude", h.home, sent, { HOOK_RECORD: record });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.json, null);
    const seen = JSON.parse(await Deno.readTextFile(record));
    // prompt_id and every other field as Claude Code sent them; no `model` or `turn_id` placeholder.
    assertEquals(seen, JSON.parse(sent));
    assertEquals([seen.model, seen.turn_id], [undefined, undefined]);
  } finally {
    await Deno.remove(h.root, { recursive: true });
  }
});

Deno.test("e2e: --protocol with an unknown host is a usage error", async () => {
  const r = await cli(["dispatch", "--protocol", "cursor"], { stdin: "{}" });
  assertEquals(r.code, 1);
  assertMatch(
    r.stderr,
    /^mind-hooks: --protocol cursor is not supported \(mind, claude, codex, gemini, copilot\)\n$/,
  );
});

// ---------------------------------------------------------------------------------------------------
// install

// `.in`: these hand-laid-out files (comments, trailing commas, inline arrays) must stay out of `deno fmt`.
const CLAUDE_SETTINGS = Deno.readTextFileSync(`${FIX}/settings/claude_settings.json.in`);
const CODEX_HOOKS = Deno.readTextFileSync(`${FIX}/settings/codex_hooks.json.in`);

function entries(text: string): Record<string, string[]> {
  const hooks = parseJsonc(text).hooks ?? {};
  const out: Record<string, string[]> = {};
  for (const [event, groups] of Object.entries(hooks as Record<string, { hooks: { command: string }[] }[]>)) {
    out[event] = groups.flatMap((g) => g.hooks.map((h) => h.command));
  }
  return out;
}

Deno.test("install plan: adds one entry per host event, keeps everything else, is idempotent and reversible", () => {
  for (const [host, text] of [["claude", CLAUDE_SETTINGS], ["codex", CODEX_HOOKS]] as const) {
    const plan = planEdit(host, text, { launcher: "mind-hooks", uninstall: false, file: "f" });
    assert(plan.changed && plan.text !== null);
    const after = entries(plan.text);
    for (const event of HOST_EVENTS[host]) {
      const cmd = registeredCommand(host, event, "mind-hooks", `mind-hooks install ${host}`);
      assertEquals(after[event].filter((c) => c === cmd).length, 1, event);
    }
    // What was there is still there, comments and all.
    const before = entries(text);
    for (const [event, cmds] of Object.entries(before)) assertEquals(after[event].slice(0, cmds.length), cmds);
    for (const line of text.split("\n").filter((l) => l.includes("//") || l.includes("/*"))) {
      assert(plan.text.includes(line.trim()), `lost: ${line}`);
    }
    const oldJson = parseJsonc(text);
    const newJson = parseJsonc(plan.text);
    for (const k of Object.keys(oldJson).filter((k) => k !== "hooks")) assertEquals(newJson[k], oldJson[k], k);
    // Idempotent.
    const again = planEdit(host, plan.text, { launcher: "mind-hooks", uninstall: false, file: "f" });
    assertEquals([again.changed, again.text], [false, plan.text]);
    // Uninstall gives back the very same bytes.
    const removed = planEdit(host, plan.text, { launcher: "mind-hooks", uninstall: true, file: "f" });
    assertEquals(removed.text, text, `${host}: uninstall did not restore the file`);
    const removedAgain = planEdit(host, text, { launcher: "mind-hooks", uninstall: true, file: "f" });
    assertEquals(removedAgain.changed, false);
  }
});

Deno.test("install plan: a new launcher replaces ours; other handlers in a shared group survive", () => {
  const text = JSON.stringify(
    {
      hooks: {
        Stop: [{
          hooks: [{ type: "command", command: "notify-send done" }, {
            type: "command",
            command: "old/mind-hooks dispatch --protocol claude",
          }],
        }],
      },
    },
    null,
    2,
  );
  const plan = planEdit("claude", text, { launcher: "/opt/mind-hooks", uninstall: false, file: "f" });
  const after = entries(plan.text!);
  assertEquals(after.Stop, [
    "notify-send done",
    registeredCommand("claude", "Stop", "/opt/mind-hooks", "mind-hooks install claude"),
  ]);
  const codexUntouched = planEdit("codex", plan.text!, { launcher: "x", uninstall: true, file: "f" });
  assertEquals(codexUntouched.changed, false, "a claude entry is not a codex entry");
  const created = planEdit("codex", null, { launcher: "mind-hooks", uninstall: false, file: "f" });
  const gone = planEdit("codex", created.text, { launcher: "mind-hooks", uninstall: true, file: "f" });
  assertEquals([gone.changed, gone.text], [true, null], "a hooks.json left empty is deleted");
});

Deno.test("install plan: a file that does not parse is refused with its position", () => {
  assertThrows(
    () => planEdit("claude", '{\n  "hooks": {\n    "Stop": [,\n', { launcher: "m", uninstall: false, file: "s.json" }),
    /^SettingsError: s\.json:3:14: expected a value — the file does not parse; it was not changed$/m,
  );
  assertThrows(
    () => planEdit("codex", '{"hooks": []}', { launcher: "m", uninstall: false, file: "h.json" }),
    /"hooks" is not an object/,
  );
});

Deno.test("unified diff: patch(1) turns the old text into the new one", async () => {
  const plan = planEdit("claude", CLAUDE_SETTINGS, { launcher: "mind-hooks", uninstall: false, file: "f" });
  const dir = await Deno.makeTempDir({ prefix: "adapter_diff_" });
  try {
    await Deno.writeTextFile(`${dir}/settings.json`, CLAUDE_SETTINGS);
    await Deno.writeTextFile(
      `${dir}/d.patch`,
      unifiedDiff(CLAUDE_SETTINGS, plan.text!, "settings.json", "settings.json"),
    );
    const p = await new Deno.Command("patch", { args: ["-s", "settings.json", "d.patch"], cwd: dir }).output()
      .catch(() => null);
    if (p === null) return; // no patch(1) here: the in-process checks above still ran
    assert(p.success, new TextDecoder().decode(p.stderr));
    assertEquals(await Deno.readTextFile(`${dir}/settings.json`), plan.text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e install: claude --project and codex --user, with dry-run, idempotence and uninstall", async () => {
  const root = await Deno.makeTempDir({ prefix: "adapter_install_" });
  try {
    // The default launcher must be on PATH for install to register it (tests/install_cli_test.ts).
    await Deno.mkdir(`${root}/bin`);
    await Deno.writeTextFile(`${root}/bin/mind-hooks`, "#!/bin/sh\n");
    await Deno.chmod(`${root}/bin/mind-hooks`, 0o755);
    const env = { HOME: `${root}/home`, PATH: `${root}/bin:${Deno.env.get("PATH") ?? ""}` };
    await Deno.mkdir(`${root}/proj/.claude`, { recursive: true });
    await Deno.mkdir(`${root}/home/.codex`, { recursive: true });
    const claudeFile = `${root}/proj/.claude/settings.json`;
    const codexFile = `${root}/home/.codex/hooks.json`;
    await Deno.writeTextFile(claudeFile, CLAUDE_SETTINGS);
    await Deno.writeTextFile(codexFile, CODEX_HOOKS);

    const dry = await cli(["install", "claude", "--project", `${root}/proj`, "--dry-run"], { env });
    assertEquals(dry.code, 0, dry.stderr);
    assertMatch(dry.stdout, new RegExp(`^--- ${claudeFile}\n\\+\\+\\+ ${claudeFile}\n@@ `));
    // The launcher by the absolute path found on PATH, inside the fail-closed guard (SPEC §6 r4).
    const launcher = `${root}/bin/mind-hooks`;
    assert(dry.stdout.includes(`; ${launcher} dispatch --protocol claude; s=$?;`), dry.stdout);
    assertEquals(await Deno.readTextFile(claudeFile), CLAUDE_SETTINGS, "dry-run wrote");

    const inst = await cli(["install", "claude", "--project", `${root}/proj`], { env });
    assertEquals(inst.code, 0, inst.stderr);
    assertMatch(
      inst.stdout,
      /Claude Code now delegates SessionStart, .*Stop, Notification to ".*\/bin\/mind-hooks dispatch --protocol claude" \(guarded: /,
    );
    const installed = await Deno.readTextFile(claudeFile);
    const again = await cli(["install", "claude", "--project", `${root}/proj`], { env });
    assertMatch(again.stdout, /already delegates to mind-hooks; nothing changed/);
    assertEquals(await Deno.readTextFile(claudeFile), installed);
    const un = await cli(["install", "claude", "--project", `${root}/proj`, "--uninstall"], { env });
    assertEquals(un.code, 0, un.stderr);
    assertEquals(await Deno.readTextFile(claudeFile), CLAUDE_SETTINGS, "uninstall did not restore the file");

    const cx = await cli(["install", "codex", "--command", "/opt/bin/mind-hooks", "--force"], { env });
    assertEquals(cx.code, 0, cx.stderr);
    assertMatch(cx.stdout, /start codex, open \/hooks, and trust the entries/);
    const cxText = await Deno.readTextFile(codexFile);
    assert(cxText.includes(`; /opt/bin/mind-hooks dispatch --protocol codex; s=$?;`), cxText);
    assert(cxText.includes("// keep the policy first"));

    await Deno.writeTextFile(claudeFile, "{ broken");
    const bad = await cli(["install", "claude", "--project", `${root}/proj`], { env });
    assertEquals(bad.code, 1);
    assertEquals(bad.stderr.trimEnd().split("\n").length, 1, bad.stderr);
    assertMatch(bad.stderr, /does not parse; it was not changed/);
    assertEquals(await Deno.readTextFile(claudeFile), "{ broken");

    const usage = await cli(["install", "cursor"], { env });
    assertEquals(usage.code, 1);
    assertMatch(usage.stderr, /^mind-hooks: install: unknown host "cursor" \(claude, codex, gemini or copilot\)/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
