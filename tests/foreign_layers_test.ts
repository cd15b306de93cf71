/**
 * Foreign project layers (SPEC §2.8), end to end: a repository set up for Claude Code (`.claude/`) or
 * Codex (`.codex/`) works in mind unchanged — its hooks load, once the project is trusted, as the layers
 * `claude-project` (Claude dialect) and `codex-project` (mind dialect), need trust, show in `list`, and
 * are left to the host that delegates in adapter mode.
 */
import { registeredCommand } from "../src/adapter/settings.ts";
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  echoHook,
  event,
  group,
  type Json,
  makeHome,
  runCli,
  sessionId,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";

/** A repository (no `.mind/`) with every foreign layer: one PreToolUse hook per file, each adding context. */
async function foreignRepo(): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-foreign-" }));
  const ctx = (name: string) => ({
    hooks: {
      PreToolUse: [
        group(
          [cmd(echoHook({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: name } }))],
          "Bash",
        ),
      ],
    },
  });
  await Deno.mkdir(join(root, ".claude"));
  await Deno.writeTextFile(
    join(root, ".claude", "settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash(ls)"] }, model: "opus", ...ctx("claude-settings") }),
  );
  await Deno.writeTextFile(join(root, ".claude", "settings.local.json"), JSON.stringify(ctx("claude-local")));
  await writeConfigToml(
    join(root, ".codex"),
    `model = "o3"\n[[hooks.PreToolUse]]\nmatcher = "Bash"\nhooks = [{ type = "command", command = ${
      JSON.stringify(echoHook({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "codex-toml" } }))
    } }]\n`,
  );
  await Deno.writeTextFile(join(root, ".codex", "hooks.json"), JSON.stringify(ctx("codex-json")));
  return { root, cleanup: () => Deno.remove(root, { recursive: true }).catch(() => {}) };
}

const bash = (cwd: string) => event("PreToolUse", { cwd, session_id: sessionId("foreign") });

Deno.test("foreign layers: a trusted repo's .claude and .codex hooks load as their own layers, after trust", async () => {
  await using home = await makeHome();
  const repo = await foreignRepo();
  try {
    // Untrusted: nothing loads, and the user is told the project has hooks.
    const before = await dispatch(home.path, bash(repo.root));
    assertEquals(before.runs, []);
    assert(before.systemMessages.some((m) => m.includes(`project ${repo.root} has hooks but is not trusted`)));

    const t = await runCli(["project", "trust", repo.root, "--home", home.path]);
    assertEquals(t.code, 0, t.stderr);
    const untrusted = await dispatch(home.path, bash(repo.root));
    assertEquals(untrusted.runs.map((r) => [r.layer, r.status, r.reason]), [
      ["claude-project", "skipped", "untrusted"],
      ["claude-project", "skipped", "untrusted"],
      ["codex-project", "skipped", "untrusted"],
      ["codex-project", "skipped", "untrusted"],
    ]);
    assertEquals(untrusted.runs.map((r) => r.key), [
      `claude-project:${repo.root}/.claude/settings.json:PreToolUse:0:0`,
      `claude-project:${repo.root}/.claude/settings.local.json:PreToolUse:0:0`,
      `codex-project:${repo.root}/.codex/config.toml:PreToolUse:0:0`,
      `codex-project:${repo.root}/.codex/hooks.json:PreToolUse:0:0`,
    ]);

    await trustAll(home.path, repo.root);
    const r = await dispatch(home.path, bash(repo.root));
    assertEquals(r.runs.map((x) => x.status), ["completed", "completed", "completed", "completed"]);
    assertEquals(r.additionalContext, ["claude-settings", "claude-local", "codex-toml", "codex-json"]);
    // Nothing else in a host's settings file is read or warned about (only that .codex/ defines hooks twice).
    assertEquals(r.warnings.filter((w) => w.source.includes(repo.root)).map((w) => w.code), ["W_BOTH_REPRESENTATIONS"]);

    const list = await runCli(["list", "--json", "--home", home.path, "--cwd", repo.root]);
    assertEquals(list.code, 0, list.stderr);
    const layers = (list.json().hooks as Json[]).map((h) => h.layer);
    assertEquals(layers, ["claude-project", "claude-project", "codex-project", "codex-project"]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("foreign layers: [hooks] foreign_layers chooses them; [] leaves only .mind/ as a project marker", async () => {
  await using home = await makeHome();
  const repo = await foreignRepo();
  try {
    await runCli(["project", "trust", repo.root, "--home", home.path]);
    await trustAll(home.path, repo.root);
    const codexOnly = await dispatch(home.path, bash(repo.root), ["-c", 'hooks.foreign_layers=["codex"]']);
    assertEquals(codexOnly.additionalContext, ["codex-toml", "codex-json"]);
    const none = await dispatch(home.path, bash(repo.root), ["-c", "hooks.foreign_layers=[]"]);
    assertEquals(none.runs, []);
    const p = await runCli(["project", "status", repo.root, "--home", home.path, "-c", "hooks.foreign_layers=[]"]);
    assertEquals(p.code, 1);
    assertStringIncludes(p.stderr, "no project found");
    const bad = await dispatch(home.path, bash(repo.root), ["-c", 'hooks.foreign_layers="claude"']);
    assertEquals(bad.additionalContext.length, 4);
    assert(bad.warnings.some((w) => w.code === "W_BAD_FIELD" && w.message.includes("foreign_layers")));
  } finally {
    await repo.cleanup();
  }
});

Deno.test("foreign layers: the user's own ~/.claude and ~/.codex never make a project", async () => {
  await using home = await makeHome();
  const user = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-userhome-" }));
  try {
    await writeHooksJson(join(user, ".codex"), { PreToolUse: [group([cmd(echoHook({}))])] });
    await Deno.mkdir(join(user, ".claude"));
    await Deno.mkdir(join(user, "work"));
    const r = await runCli(["project", "status", join(user, "work"), "--home", home.path], { env: { HOME: user } });
    assertEquals(r.code, 1);
    assertStringIncludes(r.stderr, "no project found");
    // Another HOME: the same folder is an ordinary repository's .codex.
    const other = await runCli(["project", "status", join(user, "work"), "--home", home.path], {
      env: { HOME: "/nonexistent-home" },
    });
    assertEquals([other.code, other.stdout.trim()], [
      0,
      `${user}: not trusted (run: mind-hooks project trust ${user})`,
    ]);
  } finally {
    await Deno.remove(user, { recursive: true }).catch(() => {});
  }
});

Deno.test("foreign layers: a host's own mind-hooks entry is skipped; adapter mode leaves the delegating host's layer to it", async () => {
  await using home = await makeHome();
  const repo = await foreignRepo();
  try {
    // `mind-hooks install claude --project` wrote a delegating entry next to the repo's own hook.
    const settings = JSON.parse(await Deno.readTextFile(join(repo.root, ".claude", "settings.json")));
    // Both forms: the bare call (before SPEC §6 r4) and the fail-closed guard install writes now.
    settings.hooks.PreToolUse[0].hooks.push(cmd("mind-hooks dispatch --protocol claude"));
    settings.hooks.PreToolUse[0].hooks.push(
      cmd(registeredCommand("claude", "PreToolUse", "/opt/bin/mind-hooks", "mind-hooks install claude", "posix")),
    );
    await Deno.writeTextFile(join(repo.root, ".claude", "settings.json"), JSON.stringify(settings));
    await runCli(["project", "trust", repo.root, "--home", home.path]);
    await trustAll(home.path, repo.root);
    const r = await dispatch(home.path, bash(repo.root));
    assertEquals(r.runs.length, 4);
    // Both recognised, and said once for the file (issue 36: one line, not one per entry).
    const said = r.warnings.filter((w) => w.code === "W_DELEGATING_HOOK");
    assertEquals(said.length, 1);
    assertStringIncludes(said[0].message, "2 mind-hooks entries");

    // Claude Code runs .claude/ itself: through the adapter only the codex-project hooks (and mind's) run.
    const claudeInput = {
      session_id: "s-adapter",
      transcript_path: "/tmp/claude-transcript.jsonl",
      cwd: repo.root,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "t1",
      permission_mode: "default",
    };
    const viaClaude = await runCli(["dispatch", "--protocol", "claude", "--home", home.path], {
      stdin: JSON.stringify(claudeInput),
    });
    assertEquals(viaClaude.code, 0, viaClaude.stderr);
    assertEquals(viaClaude.json().hookSpecificOutput.additionalContext, "codex-toml\n\ncodex-json");
    const viaCodex = await runCli(["dispatch", "--protocol", "codex", "--home", home.path], {
      stdin: JSON.stringify({ ...claudeInput, turn_id: "t", model: "m" }),
    });
    assertEquals(viaCodex.json().hookSpecificOutput.additionalContext, "claude-settings\n\nclaude-local");
  } finally {
    await repo.cleanup();
  }
});
