/**
 * The Claude dialect and the other revision-2 rules end to end through the real CLI: plugin manifest
 * precedence (SPEC §2.6), `/bin/sh -c` for Claude hooks (§7.1), the `if` filter and `failClosed`
 * (§2.2), the SessionStart env file (§7.1, §9), the transcript that exists before hooks run (§5),
 * `mcp_tool` refused on SessionEnd (§2.2) and the Stop continuation limit (seed 000).
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  echoHook,
  event,
  group,
  type HooksSpec,
  type Json,
  makeHome,
  PYTHON,
  runCli,
  sessionId,
  shq,
  trustAll,
  writeHooksJson,
} from "./helpers/cli.ts";

/** Installs `dir/<manifest>` files and enables the plugin `name` in `home`. */
async function plugin(home: string, name: string, files: Record<string, unknown>): Promise<string> {
  const root = join(home, "plugins", name);
  for (const [rel, content] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, rel), typeof content === "string" ? content : JSON.stringify(content));
  }
  await Deno.writeTextFile(join(home, "config.toml"), `[plugins.${JSON.stringify(name)}]\nenabled = true\n`, {
    append: true,
  });
  return await Deno.realPath(root);
}

/** A PreToolUse answer that only the Claude dialect accepts (an unknown key beside a deny). */
const CLAUDE_ONLY_DENY = {
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" },
  claudeOnlyKey: true,
};
const denyHooks = (marker = "x"): HooksSpec => ({
  PreToolUse: [group([cmd(echoHook({ ...CLAUDE_ONLY_DENY, marker }))])],
});

const bash = (command: string, over: Json = {}) =>
  event("PreToolUse", { tool_name: "Bash", tool_input: { command }, session_id: sessionId("cd"), ...over });

Deno.test("plugins: an empty .codex-plugin hooks entry never hides the .claude-plugin's hooks, read in the Claude dialect", async () => {
  await using home = await makeHome();
  const root = await plugin(home.path, "both", {
    ".codex-plugin/plugin.json": { name: "both", hooks: {} },
    ".claude-plugin/plugin.json": { name: "both" },
    "hooks/hooks.json": { hooks: denyHooks() },
  });
  await trustAll(home.path, home.path);
  const r = await dispatch(home.path, bash("ls"));
  assertEquals([r.decision, r.reason], ["deny", "no"]);
  assertEquals(r.runs.map((x) => x.key), [`plugin:${root}/hooks/hooks.json:PreToolUse:0:0`]);
  assertEquals(r.warnings.filter((w) => w.code.startsWith("W_PLUGIN")), []);
});

Deno.test("plugins: both manifests with their own hooks — .codex-plugin wins with W_PLUGIN_MANIFESTS; shared hooks.json: no warning, mind dialect", async () => {
  await using home = await makeHome();
  await plugin(home.path, "two", {
    ".codex-plugin/plugin.json": { name: "two", hooks: { PreToolUse: [group([cmd(echoHook(""))])] } },
    ".claude-plugin/plugin.json": { name: "two" },
    "hooks/hooks.json": { hooks: denyHooks() },
  });
  await trustAll(home.path, home.path);
  const r = await dispatch(home.path, bash("ls"));
  assertEquals([r.decision, r.runs.length], [null, 1]);
  assert(r.warnings.some((w) => w.code === "W_PLUGIN_MANIFESTS"));

  await using home2 = await makeHome();
  await plugin(home2.path, "shared", {
    ".codex-plugin/plugin.json": { name: "shared" },
    ".claude-plugin/plugin.json": { name: "shared" },
    "hooks/hooks.json": { hooks: denyHooks() },
  });
  await trustAll(home2.path, home2.path);
  const s = await dispatch(home2.path, bash("ls"));
  // The mind dialect rejects the unknown key: the handler fails (never silently), nothing is denied.
  assertEquals([s.decision, s.runs[0].status], [null, "failed"]);
  assertStringIncludes(s.runs[0].reason ?? "", "claudeOnlyKey");
  assertEquals(s.warnings.filter((w) => w.code.startsWith("W_PLUGIN")), []);
});

Deno.test("plugins: never a silent zero — an enabled plugin with no hooks gets W_PLUGIN_NO_HOOKS; .mind-plugin takes precedence", async () => {
  await using home = await makeHome();
  await plugin(home.path, "empty", { ".claude-plugin/plugin.json": { name: "empty", hooks: {} } });
  await plugin(home.path, "mindfirst", {
    ".mind-plugin/plugin.json": { name: "mindfirst", hooks: {} },
    ".claude-plugin/plugin.json": { name: "mindfirst" },
    "hooks/hooks.json": { hooks: denyHooks() },
  });
  const r = await dispatch(home.path, bash("ls"));
  const noHooks = r.warnings.filter((w) => w.code === "W_PLUGIN_NO_HOOKS").map((w) => w.message);
  assertEquals(noHooks, [
    "plugin empty is enabled but has no hooks (manifest .claude-plugin/plugin.json)",
    "plugin mindfirst is enabled but has no hooks (manifest .mind-plugin/plugin.json)",
  ]);
  assertEquals(r.runs, []);
});

/** A home whose login profile prints a line and resets PATH, as many `/etc/profile`s and `~/.profile`s do. */
async function noisyLogin(): Promise<{ user: string; bin: string; env: Record<string, string> }> {
  const user = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-login-" }));
  const bin = join(user, "agent-bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(join(bin, "agent-tool"), "#!/bin/sh\necho tool-found\n", { mode: 0o755 });
  await Deno.writeTextFile(join(user, ".profile"), "echo 'Welcome back!'\nPATH=/usr/bin:/bin\nexport PATH\n");
  const path = `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
  return { user, bin, env: { HOME: user, PATH: path, SHELL: "/bin/sh" } };
}

Deno.test({
  name: "§7.1 r2: Claude hooks run under /bin/sh -c (no login profile): the agent's PATH and a quiet stdout reach them",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    const login = await noisyLogin();
    try {
      const deny = `agent-tool >/dev/null && printf '%s' '{"decision":"block","reason":"rm -rf is not allowed"}'`;
      await writeHooksJson(home.path, { PreToolUse: [group([cmd(deny)])] });
      await plugin(home.path, "claudeplug", {
        ".claude-plugin/plugin.json": { name: "claudeplug" },
        "hooks/hooks.json": { hooks: { PreToolUse: [group([cmd(deny)])] } },
      });
      await trustAll(home.path, home.path, []);
      const r = await dispatch(home.path, bash("rm -rf /"), [], { env: login.env });
      // mind dialect: `$SHELL -lc` sources the profile — its PATH hides agent-tool, its greeting lands first.
      assertEquals(r.runs[0].status, "failed");
      assertEquals(r.runs[0].reason, "exit 127");
      // Claude dialect: as Claude Code starts it, the hook finds the tool and its deny stands.
      assertEquals([r.runs[1].status, r.decision, r.reason], ["blocked", "deny", "rm -rf is not allowed"]);

      await writeHooksJson(home.path, {
        PreToolUse: [group([cmd(`printf '%s' '{"decision":"block","reason":"no"}'`)])],
      });
      await trustAll(home.path, home.path, []);
      const loud = await dispatch(home.path, bash("ls"), [], { env: login.env });
      assertEquals([loud.runs[0].status, loud.runs[0].reason], ["failed", "JSON after other output on stdout"]);
      assert(loud.systemMessages.some((m) => m.endsWith("failed: JSON after other output on stdout")));
    } finally {
      await Deno.remove(login.user, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("§2.2 r2: a Claude hook's `if` filter — a handler whose rule does not match is not matched at all", async () => {
  await using home = await makeHome();
  const repo = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-if-" }));
  try {
    const hook = (rule: string, marker: string) =>
      cmd(echoHook({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: marker } }), { if: rule });
    await Deno.mkdir(join(repo, ".claude"));
    await Deno.writeTextFile(
      join(repo, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            group([hook("Bash(git *)", "git"), hook("Bash(rm -rf *)", "rm"), hook("Edit(*.ts)", "ts")], "*"),
          ],
          UserPromptSubmit: [group([hook("Bash", "never")])],
        },
      }),
    );
    await runCli(["project", "trust", repo, "--home", home.path]);
    await trustAll(home.path, repo);
    const git = await dispatch(home.path, bash("cd sub && git push origin main", { cwd: repo }));
    assertEquals([git.additionalContext, git.runs.length], [["git"], 1]);
    const ls = await dispatch(home.path, bash("ls -la", { cwd: repo }));
    assertEquals(ls.runs, []);
    const edit = await dispatch(
      home.path,
      event("PreToolUse", { cwd: repo, tool_name: "Edit", tool_input: { file_path: `${repo}/src/a.ts` } }),
    );
    assertEquals(edit.additionalContext, ["ts"]);
    // `if` on an event without a tool call: never runs (as in Claude Code), and discovery says so.
    const prompt = await dispatch(home.path, event("UserPromptSubmit", { cwd: repo }));
    assertEquals(prompt.runs, []);
    assert(prompt.warnings.some((w) => w.code === "W_IF_NEVER_MATCHES"));

    // In the mind dialect `if` is an unknown field: the handler runs on every call.
    await writeHooksJson(home.path, { PreToolUse: [group([hook("Bash(git *)", "mind")])] });
    await trustAll(home.path, repo);
    const mind = await dispatch(home.path, bash("ls", { cwd: repo }));
    assertEquals(mind.additionalContext, ["mind"]);
    assert(mind.warnings.some((w) => w.code === "W_UNKNOWN_FIELD" && w.message.includes('"if"')));
  } finally {
    await Deno.remove(repo, { recursive: true }).catch(() => {});
  }
});

Deno.test("§2.2 r2 failClosed: a failing handler blocks where the event can block, with its fixed reason", async () => {
  await using home = await makeHome();
  const failing = cmd(echoHook("", { exit: 1 }), { failClosed: true });
  await writeHooksJson(home.path, {
    PreToolUse: [group([failing])],
    UserPromptSubmit: [group([cmd(echoHook("", { exit: 1 }), { fail_closed: true, timeout: 1 })])],
    Stop: [group([cmd(echoHook("plain text"), { failClosed: true })])],
    SessionStart: [group([failing])],
    PostToolUse: [group([cmd(echoHook("", { exit: 1 }), { failClosed: true, async: true })])],
  });
  await trustAll(home.path, home.path);
  const pre = await dispatch(home.path, event("PreToolUse"));
  const key = `user:${home.path}/hooks.json`;
  assertEquals([pre.decision, pre.reason, pre.runs[0].status], [
    "deny",
    `hook ${key}:PreToolUse:0:0 failed (failClosed): exit 1`,
    "failed",
  ]);
  assert(pre.systemMessages.includes(`hook ${key}:PreToolUse:0:0 failed: exit 1`));
  const prompt = await dispatch(home.path, event("UserPromptSubmit"));
  assertEquals([prompt.decision, prompt.reason], [
    "block",
    `hook ${key}:UserPromptSubmit:0:0 failed (failClosed): exit 1`,
  ]);
  const stop = await dispatch(home.path, event("Stop"));
  assertEquals([stop.decision, stop.continuationPrompt], [
    "block",
    `hook ${key}:Stop:0:0 failed (failClosed): Stop hooks must answer JSON or nothing; got plain text`,
  ]);
  // Where nothing can be blocked (or the handler is async) it is ignored, with a warning.
  const start = await dispatch(home.path, event("SessionStart"));
  assertEquals([start.decision, start.continue], [null, true]);
  assertEquals(start.warnings.filter((w) => w.code === "W_FAIL_CLOSED_IGNORED").map((w) => w.message), [
    "SessionStart[0].hooks[0]: failClosed ignored: SessionStart cannot block",
    "PostToolUse[0].hooks[0]: failClosed ignored: an async handler has no control effect",
  ]);
});

Deno.test("§7.1/§9 r2: SessionStart hooks get CLAUDE_ENV_FILE and MIND_ENV_FILE; the result names the file", async () => {
  await using home = await makeHome();
  const writeEnv = `set -eu; cat >/dev/null; echo 'export FROM_CLAUDE=1' >> "$CLAUDE_ENV_FILE"; ` +
    `echo 'export FROM_MIND=2' >> "$MIND_ENV_FILE"`;
  await writeHooksJson(home.path, {
    SessionStart: [group([cmd(writeEnv)])],
    PreToolUse: [group([cmd(`set -u; cat >/dev/null; test -z "\${CLAUDE_ENV_FILE:-}"`)])],
  });
  await trustAll(home.path, home.path);
  const sid = sessionId("env");
  const r = await dispatch(home.path, event("SessionStart", { session_id: sid }));
  assertEquals(r.runs[0].status, "completed", JSON.stringify(r.runs));
  assertEquals(r.envFile, join(home.path, "sessions", "env", `${sid}.env`));
  assertEquals(await Deno.readTextFile(r.envFile!), "export FROM_CLAUDE=1\nexport FROM_MIND=2\n");
  // Only SessionStart has one.
  const pre = await dispatch(home.path, event("PreToolUse", { session_id: sid }));
  assertEquals([pre.envFile, pre.runs[0].status], [null, "completed"]);
  // No command hook ran: no file.
  await using bare = await makeHome();
  assertEquals((await dispatch(bare.path, event("SessionStart"))).envFile, null);
  // Session end removes it.
  const end = await runCli(["session-end", "--session", sid, "--home", home.path]);
  assertEquals(end.code, 0, end.stderr);
  assert(!(await Deno.stat(r.envFile!).then(() => true, () => false)), "the env file outlived the session");
});

Deno.test("§5 r2: a transcript_path the engine fills in names a file that exists before hooks run", async () => {
  await using home = await makeHome();
  const check = `${shq(PYTHON)} -c ${
    shq(
      "import json,os,sys; p=json.load(sys.stdin)['transcript_path']; " +
        "print(json.dumps({'hookSpecificOutput':{'hookEventName':'UserPromptSubmit','additionalContext':str(os.path.isfile(p))}}))",
    )
  }`;
  await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd(check)])] });
  await trustAll(home.path, home.path);
  for (const transcript of [null, undefined]) {
    const r = await dispatch(home.path, event("UserPromptSubmit", { transcript_path: transcript }));
    assertEquals(r.additionalContext, ["True"], `transcript_path ${transcript}`);
  }
  // A path the host gives is passed through untouched (not created).
  const given = join(home.path, "host-transcript.jsonl");
  const h = await dispatch(home.path, event("UserPromptSubmit", { transcript_path: given }));
  assertEquals(h.additionalContext, ["False"]);
});

Deno.test("§2.2 r2: mcp_tool on SessionEnd is dropped at discovery, never listed or run", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    SessionEnd: [group([{ type: "mcp_tool", server: "scanner", tool: "scan" }, cmd(echoHook(""))])],
  });
  const list = await runCli(["list", "--json", "--home", home.path]);
  const hooks = list.json().hooks as Json[];
  assertEquals(hooks.map((h) => h.key), [`user:${home.path}/hooks.json:SessionEnd:0:1`]);
  await trustAll(home.path, home.path);
  const r = await dispatch(home.path, event("SessionEnd"));
  assertEquals(r.runs.map((x) => x.key), [`user:${home.path}/hooks.json:SessionEnd:0:1`]);
  assertEquals(
    r.warnings.filter((w) => w.code === "W_UNSUPPORTED_HANDLER").map((w) => w.message),
    ["SessionEnd[0].hooks[0]: mcp_tool hooks are not supported on SessionEnd; skipped"],
  );
});

Deno.test("seed 000: a Stop handler's additionalContextLimit bounds its continuation text", async () => {
  await using home = await makeHome();
  const long = "fix the failing test. ".repeat(200);
  await writeHooksJson(home.path, {
    Stop: [group([cmd(echoHook({ decision: "block", reason: long }), { additionalContextLimit: 50 })])],
  });
  await trustAll(home.path, home.path);
  const r = await dispatch(home.path, event("Stop", { session_id: sessionId("limit") }));
  assertEquals(r.decision, "block");
  assert(
    r.continuationPrompt !== null && r.continuationPrompt.length < long.length,
    "the continuation was not spilled",
  );
  assertStringIncludes(r.continuationPrompt!, "full output saved to");
});

Deno.test("§7.1 r2 --protocol claude: SessionStart hooks write Claude Code's own CLAUDE_ENV_FILE; transcript_path passes through", async () => {
  await using home = await makeHome();
  const claudeEnv = join(home.path, "claude-session.env");
  const hostTranscript = join(home.path, "claude-transcript.jsonl");
  const hook = `set -u; p=$(${shq(PYTHON)} -c 'import json,sys; print(json.load(sys.stdin)["transcript_path"])'); ` +
    `echo "export SEEN=$p" >> "$CLAUDE_ENV_FILE"; test "$MIND_ENV_FILE" = "$CLAUDE_ENV_FILE"`;
  await writeHooksJson(home.path, { SessionStart: [group([cmd(hook)])] });
  await trustAll(home.path, home.path);
  const input = {
    session_id: "claude-s1",
    transcript_path: hostTranscript,
    cwd: home.path,
    hook_event_name: "SessionStart",
    source: "startup",
  };
  const r = await runCli(["dispatch", "--protocol", "claude", "--home", home.path], {
    stdin: JSON.stringify(input),
    env: { CLAUDE_ENV_FILE: claudeEnv },
  });
  assertEquals([r.code, r.stdout], [0, ""], r.stderr);
  assertEquals(await Deno.readTextFile(claudeEnv), `export SEEN=${hostTranscript}\n`);
  // The host's transcript is its own business: not created by mind.
  assert(!(await Deno.stat(hostTranscript).then(() => true, () => false)));
});
