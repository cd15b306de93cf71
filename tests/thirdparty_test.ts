/**
 * Real third-party Claude Code plugins and hook sets (fixtures/thirdparty/, vendored unchanged), each
 * installed the way a user installs it — a plugin under `$MIND_HOME/plugins/`, or a repository's
 * `.claude/settings.json` — trusted, and checked against what its README promises; plus the hooks of
 * the Codex documentation copied into a repository's `.codex/` (fixtures/codex_docs/).
 *
 * Where mind-hooks differs from Claude Code on purpose (SPEC), the test says so and checks mind's rule.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { type DispatchResult, event, type Json, makeHome, REPO, runCli, sessionId } from "./helpers/cli.ts";

const THIRD = join(REPO, "fixtures", "thirdparty");
const OFFICIAL = join(THIRD, "anthropic-claude-plugins-official", "plugins");
const KARAN = join(THIRD, "karanb192-claude-code-hooks", "plugins");

async function run(cmd: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const out = await new Deno.Command(cmd[0], { args: cmd.slice(1), cwd, env, stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`${cmd.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

/** A temp folder that removes itself. */
async function tempDir(prefix: string) {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }).catch(() => {}) };
}

/** A user: a mind home with the given plugins copied in and enabled, and an OS home of their own. */
async function user(plugins: Record<string, string> = {}) {
  const home = await makeHome();
  const os = await tempDir("mind-hooks-os-home-");
  let config = "";
  for (const [name, src] of Object.entries(plugins)) {
    await Deno.mkdir(join(home.path, "plugins"), { recursive: true });
    await run(["cp", "-R", src, join(home.path, "plugins", name)], REPO);
    config += `[plugins.${JSON.stringify(name)}]\nenabled = true\n`;
  }
  await Deno.writeTextFile(join(home.path, "config.toml"), config);
  const env = { HOME: os.path };
  return {
    home: home.path,
    os: os.path,
    env,
    /** `mind-hooks dispatch` of `input` (mind's own protocol). */
    dispatch: async (input: Json, args: string[] = []): Promise<DispatchResult> => {
      const r = await runCli(["dispatch", "--home", home.path, ...args], { stdin: JSON.stringify(input), env });
      assertEquals(r.code, 0, r.stderr);
      return r.json();
    },
    /** `mind-hooks dispatch --protocol claude` of Claude Code's own hook input: its stdout object, or null. */
    claude: async (input: Json): Promise<Json | null> => {
      const r = await runCli(["dispatch", "--protocol", "claude", "--home", home.path], {
        stdin: JSON.stringify(input),
        env,
      });
      assertEquals(r.code, 0, r.stderr);
      return r.stdout.trim() === "" ? null : JSON.parse(r.stdout);
    },
    trust: (cwd?: string) => runCli(["trust", "--all", "--home", home.path, ...(cwd ? ["--cwd", cwd] : [])], { env }),
    trustProject: (dir: string) => runCli(["project", "trust", dir, "--home", home.path], { env }),
    [Symbol.asyncDispose]: async () => {
      await home.cleanup();
      await os[Symbol.asyncDispose]();
    },
  };
}

const bash = (command: string, over: Json = {}) =>
  event("PreToolUse", { tool_name: "Bash", tool_input: { command }, session_id: sessionId("tp"), ...over });

/** Claude Code's own PreToolUse input for a Bash call. */
const claudeBash = (command: string, cwd: string, over: Json = {}) => ({
  session_id: "claude-session-1",
  transcript_path: join(cwd, "claude-transcript.jsonl"),
  cwd,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command, description: "run it" },
  tool_use_id: "toolu_1",
  ...over,
});

// ---------------------------------------------------------------------------------------------------
// PreToolUse deny

Deno.test("block-dangerous-commands: rm -rf ~ is denied with its pattern id and reason; safe commands pass; blocks are logged", async () => {
  await using u = await user({ "block-dangerous-commands": join(KARAN, "block-dangerous-commands") });
  assertEquals((await u.trust()).code, 0);
  const denied = await u.dispatch(bash("rm -rf ~"));
  assertEquals(denied.decision, "deny");
  assertStringIncludes(denied.reason ?? "", "rm targeting home directory");
  assertEquals(denied.runs.map((r) => r.status), ["blocked"]);
  const ok = await u.dispatch(bash("ls -la"));
  assertEquals([ok.decision, ok.runs[0].status, ok.systemMessages], [null, "completed", []]);
  const logs = [...Deno.readDirSync(join(u.os, ".claude", "hooks-logs"))];
  assertEquals(logs.length, 1);
  assertStringIncludes(await Deno.readTextFile(join(u.os, ".claude", "hooks-logs", logs[0].name)), "BLOCKED");
});

Deno.test("hookify: a block rule denies (Claude dialect: no reason → 'Blocked by hook') and the rule's message reaches the user", async () => {
  await using u = await user({ hookify: join(OFFICIAL, "hookify") });
  await using repo = await tempDir("mind-hooks-hookify-");
  await Deno.mkdir(join(repo.path, ".claude"));
  // The README's own example rule, as `/hookify` writes it.
  await Deno.copyFile(
    join(OFFICIAL, "hookify", "examples", "dangerous-rm.local.md"),
    join(repo.path, ".claude", "hookify.dangerous-rm.local.md"),
  );
  assertEquals((await u.trust()).code, 0);
  const r = await u.dispatch(bash("rm -rf /tmp/build", { cwd: repo.path }));
  assertEquals([r.decision, r.reason], ["deny", "Blocked by hook"]);
  assert(r.systemMessages.some((m) => m.includes("Dangerous rm command detected!")), JSON.stringify(r.systemMessages));
  const ok = await u.dispatch(bash("ls", { cwd: repo.path }));
  assertEquals([ok.decision, ok.runs.map((x) => x.status)], [null, ["completed"]]);
});

// ---------------------------------------------------------------------------------------------------
// PreToolUse rewrite

Deno.test("pr-provenance-stamp: gh pr create gets the provenance receipt appended to its --body (a rewrite)", async () => {
  await using u = await user({ "pr-provenance-stamp": join(KARAN, "pr-provenance-stamp") });
  await using repo = await tempDir("mind-hooks-prov-");
  assertEquals((await u.trust()).code, 0);
  const command = `gh pr create --title "Add parser" --body "Adds the parser."`;
  const r = await u.dispatch(bash(command, { cwd: repo.path }));
  assertEquals(r.decision, "allow");
  const rewritten = String(r.updatedInput?.command);
  assert(rewritten.startsWith(`gh pr create --title "Add parser" --body `), rewritten);
  assertStringIncludes(rewritten, "Adds the parser.");
  assertStringIncludes(rewritten, "Provenance");
  // Through Claude Code: its own allow and the whole rewritten input go back, as the plugin wrote them.
  const out = await u.claude(claudeBash(command, repo.path));
  const hso = out?.hookSpecificOutput as Json;
  assertEquals(hso.permissionDecision, "allow");
  assertEquals(
    [(hso.updatedInput as Json).description, String((hso.updatedInput as Json).command).includes("Provenance")],
    ["run it", true],
  );
  // Other commands are left alone.
  assertEquals((await u.dispatch(bash("gh pr list", { cwd: repo.path }))).decision, null);
});

// ---------------------------------------------------------------------------------------------------
// exit 2, SessionStart plain context and CLAUDE_ENV_FILE

Deno.test("plugin-dev hook examples in a repo's .claude/settings.json: exit 2 blocks; load-context fills CLAUDE_ENV_FILE under set -u", async () => {
  await using u = await user();
  await using repo = await tempDir("mind-hooks-plugindev-");
  const examples = join(OFFICIAL, "plugin-dev", "skills", "hook-development", "examples");
  await Deno.mkdir(join(repo.path, ".claude", "hooks"), { recursive: true });
  for (const f of ["validate-bash.sh", "validate-write.sh", "load-context.sh"]) {
    await Deno.copyFile(join(examples, f), join(repo.path, ".claude", "hooks", f));
  }
  await Deno.writeTextFile(join(repo.path, "package.json"), "{}");
  const hook = (script: string) => ({ type: "command", command: `bash "$CLAUDE_PROJECT_DIR/.claude/hooks/${script}"` });
  await Deno.writeTextFile(
    join(repo.path, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [hook("validate-bash.sh")] },
          { matcher: "Write|Edit", hooks: [hook("validate-write.sh")] },
        ],
        SessionStart: [{ hooks: [hook("load-context.sh")] }],
      },
    }),
  );
  assertEquals((await u.trustProject(repo.path)).code, 0);
  assertEquals((await u.trust(repo.path)).code, 0);
  const rm = await u.dispatch(bash("rm -rf build", { cwd: repo.path }));
  assertEquals(rm.decision, "deny");
  assertStringIncludes(rm.reason ?? "", "Dangerous command detected: rm -rf");
  const sudo = await u.dispatch(bash("sudo apt install x", { cwd: repo.path }));
  assertEquals(sudo.decision, "deny");
  assertEquals((await u.dispatch(bash("ls", { cwd: repo.path }))).decision, null);
  const write = await u.dispatch(
    event("PreToolUse", { cwd: repo.path, tool_name: "Write", tool_input: { file_path: "/etc/hosts", content: "" } }),
  );
  assertEquals(write.decision, "deny");
  assertStringIncludes(write.reason ?? "", "Cannot write to system directory: /etc/hosts");

  const start = await u.dispatch(event("SessionStart", { cwd: repo.path }));
  assertEquals(start.runs[0].status, "completed", JSON.stringify(start.runs));
  assertStringIncludes(start.additionalContext.join("\n"), "Node.js project detected");
  assertEquals(await Deno.readTextFile(start.envFile!), "export PROJECT_TYPE=nodejs\n");
});

// ---------------------------------------------------------------------------------------------------
// SessionStart context

Deno.test("superpowers: the .claude-plugin's SessionStart hook injects the using-superpowers skill (its .codex-plugin has an empty hooks entry)", async () => {
  await using u = await user({ superpowers: join(THIRD, "obra-superpowers") });
  assertEquals((await u.trust()).code, 0);
  const r = await u.dispatch(event("SessionStart", { source: "startup" }));
  assertEquals(r.runs.map((x) => x.status), ["completed"]);
  const ctx = r.additionalContext.join("\n");
  assertStringIncludes(ctx, "You have superpowers.");
  assertStringIncludes(ctx, "using-superpowers");
  assertEquals(r.warnings.filter((w) => w.code.startsWith("W_PLUGIN")), []);
  // Its matcher is startup|clear|compact.
  assertEquals((await u.dispatch(event("SessionStart", { source: "resume" }))).runs, []);
});

Deno.test("explanatory-output-style: SessionStart adds the explanatory-mode instructions", async () => {
  await using u = await user({ "explanatory-output-style": join(OFFICIAL, "explanatory-output-style") });
  assertEquals((await u.trust()).code, 0);
  const r = await u.dispatch(event("SessionStart"));
  assertStringIncludes(r.additionalContext.join("\n"), "You are in 'explanatory' output style mode");
});

// ---------------------------------------------------------------------------------------------------
// A Stop loop

/** A Claude Code transcript whose last assistant text is `text`. */
async function claudeTranscript(path: string, text: string): Promise<void> {
  const lines = [
    { type: "user", message: { role: "user", content: "go" } },
    { type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } },
  ];
  await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

Deno.test("ralph-loop: the Stop hook feeds the same prompt back until the completion promise or the iteration cap", async () => {
  await using u = await user({ "ralph-loop": join(OFFICIAL, "ralph-loop") });
  await using work = await tempDir("mind-hooks-ralph-");
  assertEquals((await u.trust()).code, 0);
  const setup = join(OFFICIAL, "ralph-loop", "scripts", "setup-ralph-loop.sh");
  // What `/ralph-loop "…" --completion-promise DONE --max-iterations 3` runs.
  await run(["bash", setup, "Build the parser.", "--completion-promise", "DONE", "--max-iterations", "3"], work.path, {
    PATH: Deno.env.get("PATH")!,
    CLAUDE_CODE_SESSION_ID: "claude-session-1",
  });
  const transcript = join(work.path, "claude-transcript.jsonl");
  const stop = {
    session_id: "claude-session-1",
    transcript_path: transcript,
    cwd: work.path,
    permission_mode: "default",
    hook_event_name: "Stop",
    stop_hook_active: false,
  };
  await claudeTranscript(transcript, "Working on it.");
  const first = await u.claude(stop);
  assertEquals([first?.decision, String(first?.reason).trim()], ["block", "Build the parser."]);
  assertStringIncludes(String(first?.systemMessage), "Ralph iteration 2");
  const second = await u.claude({ ...stop, stop_hook_active: true });
  assertStringIncludes(String(second?.systemMessage), "Ralph iteration 3");
  // The cap: the hook prints a plain line on stdout and lets Claude stop; the Claude dialect ignores it.
  const capped = await u.claude(stop);
  assertEquals(capped, null);
  assert(!(await Deno.stat(join(work.path, ".claude", "ralph-loop.local.md")).then(() => true, () => false)));

  // A fresh loop ends at the completion promise.
  await run(["bash", setup, "Build the parser.", "--completion-promise", "DONE"], work.path, {
    PATH: Deno.env.get("PATH")!,
    CLAUDE_CODE_SESSION_ID: "claude-session-1",
  });
  await claudeTranscript(transcript, "All done. <promise>DONE</promise>");
  assertEquals(await u.claude(stop), null);
});

// ---------------------------------------------------------------------------------------------------
// UserPromptSubmit context (and async Stop hooks)

Deno.test("dead-end-registry: an approach reverted in one session is flagged when a later prompt retries it", async () => {
  await using u = await user({ "dead-end-registry": join(KARAN, "dead-end-registry") });
  await using work = await tempDir("mind-hooks-deadend-");
  assertEquals((await u.trust()).code, 0);
  const transcript = join(work.path, "transcript.jsonl");
  const lines = [
    {
      type: "user",
      message: { role: "user", content: "Can you move the image processing to worker threads for speed?" },
    },
    {
      type: "assistant",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "Writing the worker threads image processing implementation now." }, {
          type: "tool_use",
          name: "Edit",
          input: { file_path: "src/image.js", old_string: "// inline", new_string: "const w = new Worker('./w.js');" },
        }],
        usage: { input_tokens: 1500, output_tokens: 1000 },
      },
    },
    {
      type: "assistant",
      message: {
        role: "assistant",
        content: [{
          type: "text",
          text:
            "The worker threads implementation introduced a race condition in the event loop; I am reverting the worker thread change now.",
        }],
        usage: { input_tokens: 2000, output_tokens: 1500 },
      },
    },
  ];
  await Deno.writeTextFile(transcript, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const sid = sessionId("deadend");
  // Its Stop hook is async: the dispatch returns at once, the registry is written in the background.
  const stop = await u.dispatch(event("Stop", { cwd: work.path, transcript_path: transcript, session_id: sid }));
  assertEquals(stop.runs.map((r) => [r.status, r.reason]), [["started", "async"]]);
  const registry = join(u.os, ".claude", "dead-end-registry");
  for (let i = 0; i < 100 && !(await Deno.stat(registry).then(() => true, () => false)); i++) {
    await new Promise((r) => setTimeout(r, 200));
  }
  const prompt = await u.dispatch(
    event("UserPromptSubmit", {
      cwd: work.path,
      session_id: sid,
      prompt: "lets move image processing to worker threads for performance",
    }),
  );
  const ctx = prompt.additionalContext.join("\n");
  assertStringIncludes(ctx, "DEAD-END REGISTRY: you have been here before");
  assertStringIncludes(ctx, "worker");
});

// ---------------------------------------------------------------------------------------------------
// PostToolUse feedback

Deno.test("bounty-board: SessionStart posts the repo's TODO bounties; removing one pays it out in PostToolUse feedback", async () => {
  await using u = await user({ "bounty-board": join(KARAN, "bounty-board") });
  await using repo = await tempDir("mind-hooks-bounty-");
  const git = (...args: string[]) =>
    run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", ...args], repo.path, {
      PATH: Deno.env.get("PATH")!,
      HOME: u.os,
    });
  await git("init", "-q");
  await Deno.writeTextFile(join(repo.path, "app.js"), "function main() {\n  // TODO: handle the empty input case\n}\n");
  await git("add", "app.js");
  await git("commit", "-qm", "start");
  assertEquals((await u.trust()).code, 0);
  const sid = sessionId("bounty");
  const start = await u.dispatch(event("SessionStart", { cwd: repo.path, session_id: sid }));
  assertStringIncludes(start.additionalContext.join("\n"), "handle the empty input case");
  await Deno.writeTextFile(join(repo.path, "app.js"), "function main() {\n  if (!input) return;\n}\n");
  const post = await u.dispatch(
    event("PostToolUse", {
      cwd: repo.path,
      session_id: sid,
      tool_name: "Edit",
      tool_input: { file_path: join(repo.path, "app.js"), old_string: "x", new_string: "y" },
      tool_response: { filePath: join(repo.path, "app.js") },
    }),
  );
  assertStringIncludes(post.additionalContext.join("\n"), "🏆 Bounty cleared! TODO app.js:2");
});

// ---------------------------------------------------------------------------------------------------
// A Python hook library

Deno.test("cchooks: the README's hooks work in the Claude dialect; in the mind dialect its extra stopReason fails the deny (SPEC §8)", async () => {
  await using u = await user();
  await using repo = await tempDir("mind-hooks-cchooks-");
  const examples = join(THIRD, "gowaylee-cchooks", "examples");
  await Deno.mkdir(join(repo.path, ".claude", "hooks"), { recursive: true });
  for (const f of ["security_guard.py", "task_manager.py", "prompt_filter.py"]) {
    await Deno.copyFile(join(examples, f), join(repo.path, ".claude", "hooks", f));
  }
  // `pip install cchooks`: the library on the interpreter's path.
  const lib = join(THIRD, "gowaylee-cchooks", "src");
  const py = (f: string) => ({
    type: "command",
    command: `PYTHONPATH=${lib} python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/${f}"`,
  });
  const hooks = {
    PreToolUse: [{ matcher: "Bash", hooks: [py("security_guard.py")] }],
    Stop: [{ hooks: [py("task_manager.py")] }],
    UserPromptSubmit: [{ hooks: [py("prompt_filter.py")] }],
  };
  await Deno.writeTextFile(join(repo.path, ".claude", "settings.json"), JSON.stringify({ hooks }));
  assertEquals((await u.trustProject(repo.path)).code, 0);
  assertEquals((await u.trust(repo.path)).code, 0);

  const rm = await u.dispatch(bash("rm -rf /", { cwd: repo.path }));
  assertEquals([rm.decision, rm.reason], [
    "deny",
    "You should not execute this command: System protection: rm -rf blocked",
  ]);
  assert(rm.systemMessages.some((m) => m.includes("could permanently delete files")));
  const ls = await u.dispatch(bash("ls", { cwd: repo.path }));
  assertEquals([ls.decision, ls.runs[0].status, ls.continue], [null, "completed", true]);
  const stop = await u.dispatch(event("Stop", { cwd: repo.path }));
  assertEquals([stop.decision, stop.continuationPrompt], ["block", "Hey Claude, you should try to do more works!"]);
  assertEquals((await u.dispatch(event("Stop", { cwd: repo.path, stop_hook_active: true }))).decision, null);
  const secret = await u.dispatch(event("UserPromptSubmit", { cwd: repo.path, prompt: "my password is hunter2" }));
  assertEquals([secret.decision, secret.reason], ["block", "Security: Prompt contains sensitive data"]);

  // The same hook in a mind layer: cchooks adds `stopReason` to every answer, which mind's PreToolUse
  // protocol refuses — the handler fails loudly instead of its deny being silently honoured.
  await Deno.writeTextFile(join(u.home, "hooks.json"), JSON.stringify({ hooks: { PreToolUse: hooks.PreToolUse } }));
  assertEquals((await u.trust(repo.path)).code, 0);
  const mind = await u.dispatch(bash("rm -rf /", { cwd: repo.path }));
  const mindRun = mind.runs.find((r) => r.layer === "user")!;
  assertEquals([mindRun.status, mindRun.reason], ["failed", "PreToolUse hook returned unsupported stopReason"]);
  assertEquals(mind.decision, "deny"); // the Claude-dialect copy still denies
});

// ---------------------------------------------------------------------------------------------------
// The Codex documentation's hooks

async function codexRepo(u: { os: string }, layout: "json" | "toml") {
  const repo = await tempDir("mind-hooks-codexdocs-");
  const docs = join(REPO, "fixtures", "codex_docs");
  await run(["cp", "-R", join(docs, "repo", ".codex"), join(repo.path, ".codex")], REPO);
  await run(["cp", "-R", join(docs, "home", ".codex"), join(u.os, ".codex")], REPO);
  if (layout === "toml") {
    await Deno.remove(join(repo.path, ".codex", "hooks.json"));
    await Deno.copyFile(join(docs, "toml", "config.toml"), join(repo.path, ".codex", "config.toml"));
  }
  await run(["git", "init", "-q"], repo.path, { PATH: Deno.env.get("PATH")! });
  return repo;
}

Deno.test("Codex docs hooks in a repo's .codex/hooks.json: every documented effect, in mind's codex-project layer", async () => {
  await using u = await user();
  await using repo = await codexRepo(u, "json");
  assertEquals((await u.trustProject(repo.path)).code, 0);
  assertEquals((await u.trust(repo.path)).code, 0);
  const cwd = repo.path;
  const start = await u.dispatch(event("SessionStart", { cwd, source: "startup" }));
  assertEquals(start.additionalContext, ["Load the workspace conventions before editing."]);
  assertEquals(start.runs.map((r) => [r.layer, r.statusMessage]), [["codex-project", "Loading session notes"]]);
  const pre = await u.dispatch(event("PreToolUse", { cwd, tool_input: { cmd: "rm -rf dist" } }));
  assertEquals([pre.decision, pre.reason], ["deny", "Destructive command blocked by hook."]);
  assertEquals((await u.dispatch(event("PreToolUse", { cwd }))).decision, null);
  const perm = await u.dispatch(event("PermissionRequest", { cwd }));
  assertEquals([perm.decision, perm.reason], ["deny", "Blocked by repository policy."]);
  const post = await u.dispatch(event("PostToolUse", { cwd }));
  assertEquals([post.decision, post.reason, post.additionalContext], [
    "block",
    "The Bash output needs review before continuing.",
    ["The command updated generated files."],
  ]);
  const prompt = await u.dispatch(event("UserPromptSubmit", { cwd }));
  assertEquals(prompt.additionalContext, ["Ask for a clearer reproduction before editing files."]);
  const stop = await u.dispatch(event("Stop", { cwd }));
  assertEquals(stop.continuationPrompt, "Run one more pass over the failing tests.");
  assertEquals((await u.dispatch(event("Stop", { cwd, stop_hook_active: true }))).decision, null);
  const sid = sessionId("codexend");
  const end = await u.dispatch(event("SessionEnd", { cwd, session_id: sid }));
  assertEquals(end.runs.map((r) => r.status), ["completed"]);
  assertStringIncludes(await Deno.readTextFile(join(u.os, "session-notes.txt")), `${sid} other`);
});

Deno.test("Codex docs hooks as inline TOML in .codex/config.toml: the same hooks, the same effects", async () => {
  await using u = await user();
  await using repo = await codexRepo(u, "toml");
  assertEquals((await u.trustProject(repo.path)).code, 0);
  assertEquals((await u.trust(repo.path)).code, 0);
  const cwd = repo.path;
  assertEquals((await u.dispatch(event("SessionStart", { cwd, source: "startup" }))).runs, []);
  const compact = await u.dispatch(event("SessionStart", { cwd, source: "compact" }));
  assertEquals(compact.additionalContext, ["Load the workspace conventions before editing."]);
  const pre = await u.dispatch(event("PreToolUse", { cwd, tool_name: "Bash", tool_input: { command: "rm -rf x" } }));
  assertEquals([pre.decision, pre.runs[0].statusMessage], ["deny", "Checking Bash command"]);
  const post = await u.dispatch(event("PostToolUse", { cwd, tool_name: "Bash", tool_input: { command: "ls" } }));
  assertEquals(post.decision, "block");
});
