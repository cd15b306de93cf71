/**
 * SPEC §2.8 (r3): foreign user layers. A user's `~/.claude/settings.json` hooks load as layer `claude-user`
 * (Claude dialect), `~/.codex/config.toml` and `~/.codex/hooks.json` hooks as `codex-user` (mind dialect),
 * right after the user layer; `[hooks] foreign_layers` governs them; they define nothing but hooks (a
 * warning names the MCP servers, feature switches and project trust those files hold for their own host);
 * their hooks need trust like user hooks (no pins); the delegating host's own user layer is never loaded in
 * its adapter mode. Issue 23: Trail of Bits' "no push to main" guard, installed as its README says, never
 * ran under mind. The guard here is an equivalent (fixtures/foreign_user/README.md: that repository has no
 * licence). Checked on every path: the fast path (user-side files only), the Worker, `serve`, `mod.ts`,
 * `--protocol claude|codex`.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  event,
  group,
  type Json,
  makeHome,
  PYTHON,
  REPO,
  runCli,
  sessionId,
  writeHooksJson,
} from "./helpers/cli.ts";
import { dispatchEveryPath } from "./helpers/every_path.ts";
import { buildPlan } from "../src/sandbox/plan.ts";
import { sandboxReason } from "../src/sandbox/launch.ts";
import { COMMANDS, parseCommandLine } from "../src/cli/commands.ts";
import { loadCatalog } from "../src/config/discovery.ts";

const FIXTURES = join(REPO, "fixtures", "foreign_user");

/** A fixture with the Python the tests use (a pyenv shim would not find its root under another HOME). */
async function fixture(name: string): Promise<string> {
  return (await Deno.readTextFile(join(FIXTURES, name))).replaceAll("python3 -c", `${PYTHON} -c`);
}

/** An OS user's home holding the fixtures as `~/.claude/settings.json` and `~/.codex/`, and a mind home. */
async function userWithForeignHooks() {
  const os = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-osuser-" }));
  await Deno.mkdir(join(os, ".claude"));
  await Deno.mkdir(join(os, ".codex"));
  await Deno.writeTextFile(join(os, ".claude", "settings.json"), await fixture("claude-settings.json"));
  await Deno.writeTextFile(join(os, ".codex", "config.toml"), await fixture("codex-config.toml"));
  await Deno.writeTextFile(join(os, ".codex", "hooks.json"), await fixture("codex-hooks.json"));
  const home = await makeHome();
  const work = join(os, "work");
  await Deno.mkdir(work);
  return {
    os,
    home: home.path,
    work,
    env: { HOME: os, MIND_TEMP_DIR: join(home.path, "spill") },
    async [Symbol.asyncDispose]() {
      await home.cleanup();
      await Deno.remove(os, { recursive: true }).catch(() => {});
    },
  };
}

const bash = (cwd: string, command: string): Json =>
  event("PreToolUse", { cwd, tool_name: "Bash", tool_input: { command }, session_id: sessionId("fu") });

Deno.test("foreign user layers: ~/.claude's no-push-to-main guard and ~/.codex's hooks run under mind, once trusted", async () => {
  await using u = await userWithForeignHooks();
  const claude = `claude-user:${u.os}/.claude/settings.json:PreToolUse:0`;
  const codex = [
    `codex-user:${u.os}/.codex/config.toml:PreToolUse:0:0`,
    `codex-user:${u.os}/.codex/hooks.json:PreToolUse:0:0`,
  ];
  const keys = [`${claude}:0`, `${claude}:1`, ...codex];
  const push = bash(u.work, "git push origin main");

  // Before trust: named, skipped, and the user is told.
  const before = await dispatchEveryPath({ args: ["--home", u.home], input: push, env: u.env }, ["cli"]);
  assertEquals(before.cli.runs.map((r) => [r.key, r.layer, r.reason]), [
    [keys[0], "claude-user", "untrusted"],
    [keys[1], "claude-user", "untrusted"],
    [keys[2], "codex-user", "untrusted"],
    [keys[3], "codex-user", "untrusted"],
  ]);
  assertEquals(before.cli.systemMessages, ["4 hooks need review: run mind-hooks review"]);

  const t = await runCli(["trust", "--all", "--home", u.home], { env: u.env, cwd: u.work });
  assertEquals(t.code, 0, t.stderr);
  // User-side: nothing is pinned.
  assertStringIncludes(t.stdout, "\n  no file pinned\n");

  const all = await dispatchEveryPath({ args: ["--home", u.home], input: push, env: u.env });
  for (const [path, r] of Object.entries(all)) {
    assertEquals([path, r.decision, r.reason, r.runs.map((x) => [x.key, x.status])], [
      path,
      "deny",
      "BLOCKED: Use feature branches, not direct push to main",
      [[keys[0], "completed"], [keys[1], "blocked"], [keys[2], "completed"], [keys[3], "completed"]],
    ]);
    assertEquals(r.additionalContext, [
      "codex-user toml saw git push origin main",
      "codex-user json saw git push origin main",
    ]);
    // Codex's own settings are named once each, not read.
    const note = (key: string, what: string) =>
      `${key} in ${u.os}/.codex/config.toml ${what} Codex's own: mind reads only the hooks of this file`;
    assertEquals(r.warnings.filter((w) => w.code === "W_FOREIGN_USER_SETTINGS").map((w) => w.message), [
      note("mcp_servers", "(MCP servers) are"),
      note("features", "(feature switches) are"),
      note("projects", "(project trust) is"),
    ]);
    assertEquals(r.warnings.map((w) => w.code).filter((c) => c !== "W_FOREIGN_USER_SETTINGS"), [
      "W_BOTH_REPRESENTATIONS",
    ]);
    assertEquals(r, all.cli, `${path} differs`);
  }
  const feature = await dispatchEveryPath({
    args: ["--home", u.home],
    input: bash(u.work, "git push origin feature"),
    env: u.env,
  }, ["cli"]);
  assertEquals(feature.cli.decision, null);
  const rm = await dispatchEveryPath({ args: ["--home", u.home], input: bash(u.work, "rm -rf build"), env: u.env }, [
    "cli",
  ]);
  assertEquals([rm.cli.decision, rm.cli.reason], ["deny", "BLOCKED: Use trash instead of rm -rf"]);

  // list names the layers; a change to the user's settings.json makes the hook modified.
  const list = await runCli(["list", "--json", "--home", u.home], { env: u.env, cwd: u.work });
  assertEquals(list.json().hooks.map((h: Json) => [h.layer, h.status]), [
    ["claude-user", "trusted"],
    ["claude-user", "trusted"],
    ["codex-user", "trusted"],
    ["codex-user", "trusted"],
  ]);
  const settings = join(u.os, ".claude", "settings.json");
  await Deno.writeTextFile(settings, (await Deno.readTextFile(settings)).replace("(main|master)", "(main)"));
  const changed = await dispatchEveryPath({ args: ["--home", u.home], input: push, env: u.env }, ["cli"]);
  assertEquals(changed.cli.runs.map((r) => r.reason), [null, "modified", null, null]);
});

Deno.test("foreign user layers: right after the user layer, governed by foreign_layers, skipped by the delegating host", async () => {
  await using u = await userWithForeignHooks();
  await writeHooksJson(u.home, { PreToolUse: [group([cmd("true")], "Bash")] });
  await runCli(["trust", "--all", "--home", u.home], { env: u.env, cwd: u.work });
  const layers = async (args: string[]) =>
    (await dispatchEveryPath({ args: ["--home", u.home, ...args], input: bash(u.work, "ls"), env: u.env }, ["cli"]))
      .cli.runs.map((r) => r.layer);
  assertEquals(await layers([]), ["user", "claude-user", "claude-user", "codex-user", "codex-user"]);
  assertEquals(await layers(["-c", 'hooks.foreign_layers=["codex"]']), ["user", "codex-user", "codex-user"]);
  assertEquals(await layers(["-c", "hooks.foreign_layers=[]"]), ["user"]);

  // Adapter mode: the delegating host runs its own user hooks itself.
  const hostInput = {
    session_id: "s-adapter",
    transcript_path: join(u.home, "host-transcript.jsonl"),
    cwd: u.work,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "git push origin main" },
    tool_use_id: "t1",
    permission_mode: "default",
  };
  const viaClaude = await runCli(["dispatch", "--protocol", "claude", "--home", u.home], {
    env: u.env,
    stdin: JSON.stringify(hostInput),
  });
  assertEquals(viaClaude.code, 0, viaClaude.stderr);
  assert(!viaClaude.stdout.includes("BLOCKED"), `Claude Code runs ~/.claude itself: ${viaClaude.stdout}`);
  assert(viaClaude.stdout.includes("codex-user json saw"), viaClaude.stdout);
  const viaCodex = await runCli(["dispatch", "--protocol", "codex", "--home", u.home], {
    env: u.env,
    stdin: JSON.stringify({ ...hostInput, turn_id: "t", model: "m" }),
  });
  assertEquals(viaCodex.code, 0, viaCodex.stderr);
  const out = JSON.parse(viaCodex.stdout);
  assertEquals(out.hookSpecificOutput?.permissionDecision, "deny", viaCodex.stdout);
  assert(!viaCodex.stdout.includes("codex-user"), `Codex runs ~/.codex itself: ${viaCodex.stdout}`);
  assert(viaCodex.stdout.includes("BLOCKED: Use feature branches"), viaCodex.stdout);
});

Deno.test("foreign user layers: the user's own mind-hooks entry in ~/.claude/settings.json is never run by mind", async () => {
  await using u = await userWithForeignHooks();
  const install = await runCli(["install", "claude", "--user", "--command", "mind-hooks", "--force"], { env: u.env });
  assertEquals(install.code, 0, install.stderr);
  const list = await runCli(["list", "--json", "--home", u.home], { env: u.env, cwd: u.work });
  const data = list.json();
  // Only the two guards: the delegation entries are skipped with a warning.
  assertEquals(data.hooks.filter((h: Json) => h.layer === "claude-user").length, 2);
  assert(data.warnings.some((w: Json) => w.code === "W_DELEGATING_HOOK"), JSON.stringify(data.warnings));
});

Deno.test("foreign user layers: the fast path parses them (user-side), the Worker may read exactly their files", async () => {
  await using u = await userWithForeignHooks();
  const args = parseCommandLine("dispatch", ["--home", u.home]);
  const plan = await buildPlan({
    command: "dispatch",
    needs: COMMANDS.get("dispatch")!.sandbox,
    args,
    env: u.env,
    processCwd: u.work,
    eventCwd: u.work,
  });
  assertEquals(await sandboxReason(plan, args), null);
  const loaded = await loadCatalog({ home: u.home, cwd: u.work, env: u.env, strangerFiles: "refuse" });
  assert(loaded.ok);
  const catalog = loaded.value;
  assertEquals(catalog.handlers.map((h) => h.layer), ["claude-user", "claude-user", "codex-user", "codex-user"]);
  const reads = plan.read as string[];
  for (const f of [".claude/settings.json", ".codex/config.toml", ".codex/hooks.json"]) {
    assert(reads.includes(join(u.os, f)), `${f} is granted`);
  }
  assert(!reads.includes(join(u.os, ".claude")) && !reads.includes(join(u.os, ".codex")), "never the folders");
});
