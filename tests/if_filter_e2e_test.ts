/**
 * SPEC §2.2 (r3) end to end: a trusted `if: "Bash(rm *)"` guard of a repository's `.claude/settings.json`
 * runs — and denies — for the command forms issue 21 found skipping it, the same on every path (the
 * trusted project's sandboxed run, the Worker forced, `serve`, `mod.ts`, `--protocol codex`, and as a
 * `.claude-plugin` plugin behind `--protocol claude`); the 20 KB rule against the 5,000-command line
 * answers in milliseconds; and the budget warning reaches the result.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { cmd, event, group, type Json, makeHome, runCli, sessionId, trustAll, trustProject } from "./helpers/cli.ts";
import { dispatchEveryPath } from "./helpers/every_path.ts";
import { loadCatalog } from "../src/config/discovery.ts";
import { matchingHandlers } from "../src/engine/matching.ts";

/** A guard that denies whatever it is asked about, naming the command. */
const DENY =
  `cat >/dev/null; printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}'`;

const guardHooks = (rule: string) => ({ PreToolUse: [group([cmd(DENY, { if: rule })], "Bash")] });

/** A trusted repository whose `.claude/settings.json` holds the guard, in a fresh home. */
async function guardedRepo(rule = "Bash(rm *)") {
  const home = await makeHome();
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-if-" }));
  await Deno.mkdir(join(root, ".claude"));
  await Deno.writeTextFile(join(root, ".claude", "settings.json"), JSON.stringify({ hooks: guardHooks(rule) }));
  await trustProject(home.path, root);
  return {
    home: home.path,
    root,
    async [Symbol.asyncDispose]() {
      await home.cleanup();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}

const bashEvent = (root: string, command: string): Json =>
  event("PreToolUse", {
    cwd: root,
    tool_name: "Bash",
    tool_input: { command },
    session_id: sessionId("if"),
  });

Deno.test("if e2e: a trusted Bash(rm *) guard denies every form issue 21 found, the same on every path", async () => {
  await using repo = await guardedRepo();
  const env = { MIND_TEMP_DIR: join(repo.home, "spill") };
  const key = `claude-project:${repo.root}/.claude/settings.json:PreToolUse:0:0`;
  for (
    const command of [
      "{ rm -rf build; }",
      "if true; then rm -rf build; fi",
      "for f in a; do rm -rf build; done",
      "! rm -rf build",
      "timeout 5 rm -rf build",
      "nice -n 5 nohup stdbuf -o0 rm -rf build",
    ]
  ) {
    const all = await dispatchEveryPath({ args: ["--home", repo.home], input: bashEvent(repo.root, command), env });
    assertEquals([command, all.cli.decision, all.cli.reason, all.cli.runs.map((r) => [r.key, r.status])], [
      command,
      "deny",
      "no rm",
      [[key, "blocked"]],
    ]);
    for (const [path, r] of Object.entries(all)) assertEquals(r, all.cli, `${path} differs on ${command}`);
  }
  // Nothing of rm: the guard is not matched at all, on every path.
  const ls = await dispatchEveryPath({ args: ["--home", repo.home], input: bashEvent(repo.root, "{ ls; }"), env });
  for (const r of Object.values(ls)) assertEquals([r.decision, r.runs], [null, []]);
});

Deno.test("if e2e: --protocol codex runs the project's guard; --protocol claude runs a .claude-plugin's", async () => {
  await using repo = await guardedRepo();
  const codex = await runCli(["dispatch", "--protocol", "codex", "--home", repo.home], {
    stdin: JSON.stringify({ ...bashEvent(repo.root, "{ rm -rf build; }"), tool_name: "Bash" }),
  });
  assertEquals(codex.code, 0, codex.stderr);
  assertEquals(codex.json().hookSpecificOutput?.permissionDecision, "deny", codex.stdout);

  // Claude Code runs the repository's own .claude/ itself: behind --protocol claude mind runs a plugin.
  const plugin = join(repo.home, "plugins", "guard");
  await Deno.mkdir(join(plugin, ".claude-plugin"), { recursive: true });
  await Deno.mkdir(join(plugin, "hooks"));
  await Deno.writeTextFile(join(plugin, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "guard" }));
  await Deno.writeTextFile(join(plugin, "hooks", "hooks.json"), JSON.stringify({ hooks: guardHooks("Bash(rm *)") }));
  await Deno.writeTextFile(join(repo.home, "config.toml"), `[plugins.guard]\nenabled = true\n`, { append: true });
  await trustAll(repo.home, repo.root);
  const claudeInput = {
    session_id: "s-if",
    transcript_path: join(repo.home, "t.jsonl"),
    cwd: repo.root,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "if true; then rm -rf build; fi" },
    tool_use_id: "toolu_1",
  };
  const claude = await runCli(["dispatch", "--protocol", "claude", "--home", repo.home], {
    stdin: JSON.stringify(claudeInput),
  });
  assertEquals(claude.code, 0, claude.stderr);
  assertEquals(claude.json().hookSpecificOutput?.permissionDecision, "deny", claude.stdout);
});

Deno.test("if e2e: the 20 KB rule against the 5,000-command line answers in milliseconds (15–24 s before)", async () => {
  await using repo = await guardedRepo("Bash(" + "a*".repeat(10_000) + "rm *)");
  const command = "a;".repeat(4_990) + "rm -rf build";
  const t0 = performance.now();
  const all = await dispatchEveryPath({ args: ["--home", repo.home], input: bashEvent(repo.root, command) }, [
    "cli",
  ]);
  const ms = performance.now() - t0;
  // No simple command ("a", "rm -rf build") holds the rule's 10,000 a's: not matched, and quickly so.
  assertEquals([all.cli.decision, all.cli.runs.length], [null, 0]);
  assert(ms < 10_000, `the dispatch took ${ms.toFixed(0)} ms`);
});

Deno.test("if e2e: past the budget of one dispatch the remaining filters match, with W_IF_BUDGET", async () => {
  await using repo = await guardedRepo();
  // Three more trusted guards, each with its own rule that does not match "ls".
  const hooks = {
    PreToolUse: [
      group(["Bash(rm *)", "Bash(git *)", "Bash(make *)", "Bash(npm *)"].map((r) => cmd(DENY, { if: r })), "Bash"),
    ],
  };
  await Deno.writeTextFile(join(repo.root, ".claude", "settings.json"), JSON.stringify({ hooks }));
  await trustAll(repo.home, repo.root);
  const loaded = await loadCatalog({ home: repo.home, cwd: repo.root });
  if (!loaded.ok) throw new Error(loaded.error);
  const catalog = loaded.value;
  // A clock that sees each evaluation take 30 ms: the first two fit the 50 ms budget, the rest do not.
  let t = 0;
  const clock = { now: () => (t += 30) };
  const input = bashEvent(repo.root, "ls");
  const { handlers, warnings } = await matchingHandlers(catalog, "PreToolUse", input, undefined, clock);
  assertEquals(handlers.map((h) => h.handler.if), ["Bash(make *)", "Bash(npm *)"]);
  assertEquals(warnings.map((w) => [w.code, w.message]), [[
    "W_IF_BUDGET",
    "2 if filters were not evaluated (over the 50 ms budget of one dispatch, or too costly a file rule); counted as matched, so those hooks ran",
  ]]);
});

Deno.test("if e2e: a claude-user guard's if (the fast path: user-side files only) reads wrappers the same way", async () => {
  await using home = await guardedRepo();
  const os = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-if-user-" }));
  try {
    await Deno.mkdir(join(os, ".claude"));
    await Deno.writeTextFile(join(os, ".claude", "settings.json"), JSON.stringify({ hooks: guardHooks("Bash(rm *)") }));
    const env = { HOME: os, MIND_TEMP_DIR: join(home.home, "spill") };
    const t = await runCli(["trust", "--all", "--home", home.home], { env, cwd: os });
    assertEquals(t.code, 0, t.stderr);
    const all = await dispatchEveryPath({
      args: ["--home", home.home],
      input: bashEvent(os, "nohup timeout 5 rm -rf build"),
      env,
      cwd: os,
    });
    for (const [path, r] of Object.entries(all)) {
      assertEquals([path, r.decision, r.runs.map((x) => [x.layer, x.status])], [path, "deny", [[
        "claude-user",
        "blocked",
      ]]]);
      assertEquals(r, all.cli, `${path} differs`);
    }
  } finally {
    await Deno.remove(os, { recursive: true }).catch(() => {});
  }
});
