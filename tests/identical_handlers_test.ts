/**
 * Identical Claude-dialect handlers run once (SPEC §8.1 r3, §9 r3), as Claude Code runs them: an installer
 * run twice appends byte-identical entries to a repository's `.claude/settings.json` (here Anthropic's
 * explanatory-output-style SessionStart hook, vendored in fixtures/thirdparty/, and a PostToolUse
 * notifier of our own that counts its runs), or writes the same entry into `settings.local.json` too.
 * The first copy stands for all in `runs`, the context comes once, the command runs once — through the CLI
 * (the sandbox Worker), `serve`, `mod.ts` and each adapter; `list` marks the copies. mind-dialect copies
 * are not collapsed (mind's own rule: each handler is a hook of its own).
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  event,
  group,
  type Json,
  makeHome,
  REPO,
  runCli,
  sessionId,
  shq,
  trustAll,
  trustProject,
  writeHooksJson,
} from "./helpers/cli.ts";
import { comparable, viaCli, viaMod, viaProtocol, viaServe } from "./helpers/front_ends.ts";

const EXPLANATORY = join(
  REPO,
  "fixtures/thirdparty/anthropic-claude-plugins-official/plugins/explanatory-output-style/hooks-handlers/session-start.sh",
);

/** A trusted project whose installer ran twice (and once more into settings.local.json). */
async function twiceInstalled() {
  const home = await makeHome();
  const proj = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-twice-" }));
  await Deno.mkdir(join(proj, ".claude", "hooks"), { recursive: true });
  await Deno.copyFile(EXPLANATORY, join(proj, ".claude/hooks/session-start.sh"));
  const counter = join(proj, "notified.txt");
  // Our own notifier: one line per run, so a second run shows.
  await Deno.writeTextFile(
    join(proj, ".claude/hooks/notify.sh"),
    `cat >/dev/null\necho ran >> "$CLAUDE_PROJECT_DIR/notified.txt"\n`,
  );
  const start = { hooks: [{ type: "command", command: `bash "$CLAUDE_PROJECT_DIR/.claude/hooks/session-start.sh"` }] };
  const notify = {
    matcher: "Bash",
    hooks: [{ type: "command", command: `sh "$CLAUDE_PROJECT_DIR/.claude/hooks/notify.sh"` }],
  };
  const settings = { hooks: { SessionStart: [start, start], PostToolUse: [notify, notify] } };
  await Deno.writeTextFile(join(proj, ".claude/settings.json"), JSON.stringify(settings, null, 2));
  await Deno.writeTextFile(
    join(proj, ".claude/settings.local.json"),
    JSON.stringify({ hooks: { PostToolUse: [notify] } }, null, 2),
  );
  await trustProject(home.path, proj);
  return {
    home: home.path,
    proj,
    counter,
    runs: async () => (await Deno.readTextFile(counter).catch(() => "")).split("\n").filter(Boolean).length,
    async [Symbol.asyncDispose]() {
      await home.cleanup();
      await Deno.remove(proj, { recursive: true }).catch(() => {});
    },
  };
}

const key = (proj: string, file: string, event: string, g: number) =>
  `claude-project:${proj}/.claude/${file}:${event}:${g}:0`;

const post = (cwd: string) =>
  event("PostToolUse", {
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { exit_code: 0 },
    cwd,
    session_id: sessionId("twice"),
  });

Deno.test("identical Claude handlers (r3): the context comes once, the notifier runs once, the first copy stands for all — CLI, serve, mod.ts", async () => {
  await using p = await twiceInstalled();
  const start = event("SessionStart", { cwd: p.proj, session_id: sessionId("twice") });
  const r = await viaCli(p.home, start);
  assertEquals(r.additionalContext.length, 1);
  assertStringIncludes(r.additionalContext[0], "explanatory");
  assertEquals(r.runs.map((x) => [x.key, x.status]), [[key(p.proj, "settings.json", "SessionStart", 0), "completed"]]);
  assertEquals(comparable(await viaServe(p.home, start)), comparable(r));
  assertEquals(comparable(await viaMod(p.home, start)), comparable(r));

  const n = await viaCli(p.home, post(p.proj));
  assertEquals(n.runs.map((x) => x.key), [key(p.proj, "settings.json", "PostToolUse", 0)]);
  assertEquals(await p.runs(), 1);
  await viaServe(p.home, post(p.proj));
  await viaMod(p.home, post(p.proj));
  assertEquals(await p.runs(), 3, "one run per dispatch on every path");
});

Deno.test("identical Claude handlers (r3): each adapter runs the copies once", async () => {
  await using p = await twiceInstalled();
  const call = (host: "codex" | "gemini" | "copilot"): Json => {
    const common = { session_id: sessionId("twice"), cwd: p.proj, transcript_path: null };
    if (host === "gemini") {
      return {
        ...common,
        hook_event_name: "AfterTool",
        tool_name: "run_shell_command",
        tool_input: { command: "ls" },
        tool_response: { llmContent: "ok", returnDisplay: "ok" },
      };
    }
    return {
      ...common,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_response: { exit_code: 0 },
      ...(host === "codex" ? { permission_mode: "default", tool_use_id: "c1", model: "m", turn_id: "t" } : {}),
    };
  };
  for (const [i, host] of (["codex", "gemini", "copilot"] as const).entries()) {
    await viaProtocol(host, p.home, call(host));
    assertEquals(await p.runs(), i + 1, host);
  }
});

Deno.test("identical Claude handlers (r3): --protocol claude, a plugin whose hooks.json holds the entry twice", async () => {
  await using home = await makeHome();
  const root = join(home.path, "plugins", "twice");
  await Deno.mkdir(join(root, ".claude-plugin"), { recursive: true });
  await Deno.mkdir(join(root, "hooks"), { recursive: true });
  await Deno.writeTextFile(join(root, ".claude-plugin/plugin.json"), JSON.stringify({ name: "twice" }));
  await Deno.copyFile(EXPLANATORY, join(root, "hooks/session-start.sh"));
  const start = { hooks: [{ type: "command", command: `bash "\${CLAUDE_PLUGIN_ROOT}/hooks/session-start.sh"` }] };
  await Deno.writeTextFile(join(root, "hooks/hooks.json"), JSON.stringify({ hooks: { SessionStart: [start, start] } }));
  await Deno.writeTextFile(join(home.path, "config.toml"), `[plugins.twice]\nenabled = true\n`);
  await trustAll(home.path, home.path);
  const input = { hook_event_name: "SessionStart", session_id: sessionId("twice"), cwd: home.path, source: "startup" };
  const { stdout } = await viaProtocol("claude", home.path, input);
  const ctx = (stdout?.hookSpecificOutput as Json | undefined)?.additionalContext;
  assert(typeof ctx === "string" && ctx.includes("explanatory"), JSON.stringify(stdout));
  assertEquals((ctx as string).split("explanatory' output style").length - 1, 1, "the context came once");
});

Deno.test("identical Claude handlers (r3): a copy nobody trusted never silences a trusted twin; list marks the copies", async () => {
  await using p = await twiceInstalled();
  // Untrust the first copy of the notifier: the second (trusted) one runs and stands for all.
  const first = key(p.proj, "settings.json", "PostToolUse", 0);
  const second = key(p.proj, "settings.json", "PostToolUse", 1);
  const local = key(p.proj, "settings.local.json", "PostToolUse", 0);
  const u = await runCli(["untrust", first, "--home", p.home, "--cwd", p.proj]);
  assertEquals(u.code, 0, u.stderr);
  const r = await viaCli(p.home, post(p.proj));
  assertEquals(r.runs.map((x) => [x.key, x.status]), [[second, "completed"]]);
  assertEquals(await p.runs(), 1);

  const list = await runCli(["list", "--home", p.home, "--cwd", p.proj]);
  assertEquals(list.code, 0, list.stderr);
  assertStringIncludes(list.stdout, `duplicate of ${first}: an identical Claude hook, run once with it`);
  const json = await runCli(["list", "--json", "--home", p.home, "--cwd", p.proj]);
  const dup = Object.fromEntries(
    (JSON.parse(json.stdout).hooks as Json[]).map((h) => [String(h.key), h.duplicateOf]),
  );
  assertEquals(dup[first], null);
  assertEquals(dup[second], first);
  assertEquals(dup[local], first);
  assertEquals(dup[key(p.proj, "settings.json", "SessionStart", 1)], key(p.proj, "settings.json", "SessionStart", 0));
});

Deno.test("identical handlers: mind-dialect copies each run (mind's own rule)", async () => {
  await using home = await makeHome();
  const counter = join(home.path, "count.txt");
  const line = `cat >/dev/null; echo ran >> ${shq(counter)}`;
  await writeHooksJson(home.path, { PostToolUse: [group([cmd(line)]), group([cmd(line)])] });
  await trustAll(home.path, home.path);
  const r = await viaCli(home.path, post(home.path));
  assertEquals(r.runs.length, 2);
  assertEquals((await Deno.readTextFile(counter)).trim().split("\n").length, 2);
});
