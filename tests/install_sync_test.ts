/**
 * `install --sync` cannot go stale silently (SPEC §6 r3), through the real CLI in its sandbox: installs are
 * recorded in `$MIND_HOME/installs.json`; `trust`, `untrust`, `enable`, `disable` and `project trust`
 * re-sync every recorded `--sync` install whose needed events or tools changed (one line each, the host's
 * settings file rewritten in place); a session start through each adapter names a trusted hook whose event
 * or tool its host was not told about.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, denoDir, group, type Json, runCli, sessionId, writeHooksJson } from "./helpers/cli.ts";
import { hostSessionStart, PROTOCOL_HOSTS, viaProtocol } from "./helpers/front_ends.ts";
import { makeWorld, Tmux, tmuxAvailable } from "../fixtures/review/harness.ts";
import { buildPlan } from "../src/sandbox/plan.ts";
import { COMMANDS, parseCommandLine } from "../src/cli/commands.ts";
import { atomicTempPath } from "../src/util/paths.ts";

const POSIX = Deno.build.os !== "windows";

/** A temp root: the OS home (with `.mind/`), a project, a launcher on PATH. */
async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-sync-" }));
  for (const d of ["home/.mind", "proj/.mind", "bin"]) await Deno.mkdir(`${root}/${d}`, { recursive: true });
  await Deno.writeTextFile(`${root}/bin/mind-hooks`, "#!/bin/sh\n", { mode: 0o755 });
  const env = { HOME: `${root}/home`, PATH: `${root}/bin:/usr/bin:/bin`, DENO_DIR: denoDir() };
  const mind = `${root}/home/.mind`;
  const cli = (args: string[], cwd = `${root}/home`) => runCli(args, { env, cwd });
  const settings = `${root}/home/.claude/settings.json`;
  const registered = async (file = settings) => {
    const hooks = JSON.parse(await Deno.readTextFile(file)).hooks as Record<string, { matcher?: string }[]>;
    return Object.fromEntries(Object.entries(hooks).map(([e, g]) => [e, g.map((x) => x.matcher ?? null)]));
  };
  const installs = async () => JSON.parse(await Deno.readTextFile(`${mind}/installs.json`)).installs as Json[];
  return {
    root,
    env,
    mind,
    cli,
    settings,
    registered,
    installs,
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }),
  };
}

Deno.test({
  name:
    "install --sync (r3): recorded; trust re-syncs what a hook added since needs, one line; a full install and uninstall are recorded too",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    await writeHooksJson(t.mind, { PreToolUse: [group([cmd("true")], "Bash")] });
    const i = await t.cli(["install", "claude", "--sync"]);
    assertEquals(i.code, 0, i.stderr);
    assertEquals(await t.installs(), [{
      host: "claude",
      file: t.settings,
      project: null,
      local: false,
      launcher: `${t.root}/bin/mind-hooks`,
      sync: true,
      searchFrom: `${t.root}/home`,
      events: { SessionStart: null, SessionEnd: null, PreToolUse: "Bash|exec_command|shell_command|write_stdin" },
    }]);
    // A guard added after the sync: trusting it re-syncs the install, and says so in one line.
    await writeHooksJson(t.mind, {
      PreToolUse: [group([cmd("true")], "Bash")],
      PostToolUse: [group([cmd("sh fmt.sh")], "Edit")],
    });
    const trust = await t.cli(["trust", "--all", "--home", t.mind]);
    assertEquals(trust.code, 0, trust.stderr);
    // Past trust's own summary (its first line and the indented ones): the re-sync, in one line.
    assertEquals(trust.stdout.trim().split("\n").filter((l) => !l.startsWith("trusted ") && !l.startsWith("  ")), [
      `${t.settings}: Claude Code re-synced (--sync): adds PostToolUse (Edit|apply_patch)`,
    ]);
    assertEquals(await t.registered(), {
      SessionEnd: [null],
      SessionStart: [null],
      PreToolUse: ["Bash|exec_command|shell_command|write_stdin"],
      PostToolUse: ["Edit|apply_patch"],
    });
    assertEquals((await t.installs())[0].events, {
      SessionStart: null,
      SessionEnd: null,
      PreToolUse: "Bash|exec_command|shell_command|write_stdin",
      PostToolUse: "Edit|apply_patch",
    });
    // The re-sync's sandbox holds the settings file and its temp file, never the folder (Claude Code's
    // credentials are in ~/.claude).
    const plan = await buildPlan({
      command: "trust",
      needs: COMMANDS.get("trust")!.sandbox,
      args: parseCommandLine("trust", ["--all", "--home", t.mind]),
      env: t.env,
      processCwd: `${t.root}/home`,
    });
    const writes = plan.write as string[];
    assert(writes.includes(t.settings) && writes.includes(atomicTempPath(t.settings, Deno.pid)), writes.join("\n"));
    assert(!writes.includes(`${t.root}/home/.claude`), writes.join("\n"));
    // Nothing changed since: untrust, disable and enable say nothing more.
    const key = `user:${t.mind}/hooks.json:PostToolUse:0:0`;
    for (const action of ["untrust", "disable", "enable"]) {
      const r = await t.cli([action, key, "--home", t.mind]);
      assertEquals([r.code, r.stdout.trim().split("\n").length], [0, 1], `${action}: ${r.stdout}`);
    }
    // A hook removed: disable re-syncs it away.
    await writeHooksJson(t.mind, { PostToolUse: [group([cmd("sh fmt.sh")], "Edit")] });
    const d = await t.cli(["disable", key, "--home", t.mind]);
    assertStringIncludes(
      d.stdout,
      `${t.settings}: Claude Code re-synced (--sync): drops PreToolUse (Bash|exec_command|shell_command|write_stdin)`,
    );

    // A full install is recorded as registering everything; uninstalling forgets it.
    const codex = await t.cli(["install", "codex"]);
    assertEquals(codex.code, 0, codex.stderr);
    const rec = (await t.installs()).find((r) => r.host === "codex")!;
    assertEquals([rec.sync, (rec.events as Json).PreToolUse, (rec.events as Json).Stop], [false, "*", null]);
    const un = await t.cli(["install", "codex", "--uninstall"]);
    assertEquals(un.code, 0, un.stderr);
    assertEquals((await t.installs()).map((r) => r.host), ["claude"]);

    // Entries removed by hand: the next re-sync forgets the install instead of putting them back.
    await Deno.writeTextFile(t.settings, "{}\n");
    await writeHooksJson(t.mind, { Stop: [group([cmd("true")])] });
    const gone = await t.cli(["trust", "--all", "--home", t.mind]);
    assertStringIncludes(gone.stdout, `${t.settings}: no mind-hooks entries any more; forgotten`);
    assertEquals(await Deno.readTextFile(t.settings), "{}\n");
    assertEquals(await t.installs(), []);
  },
});

Deno.test({
  name: "install --sync --project (r3): project trust re-syncs the project's install (the sandbox grants its folder)",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    const proj = `${t.root}/proj`;
    await writeHooksJson(`${proj}/.mind`, { Stop: [group([cmd("true")])] });
    const i = await t.cli(["install", "gemini", "--sync", "--project", proj], proj);
    assertEquals(i.code, 0, i.stderr);
    const file = `${proj}/.gemini/settings.json`;
    // The project is not trusted yet, so its hooks are not in reach: only SessionStart is delegated.
    assertEquals(Object.keys(await t.registered(file)), ["SessionStart"]);
    await writeHooksJson(`${proj}/.mind`, { Stop: [group([cmd("true")])], PreToolUse: [group([cmd("true")], "Bash")] });
    const r = await t.cli(["project", "trust", proj, "--home", t.mind], proj);
    assertEquals(r.code, 0, r.stderr);
    assertStringIncludes(r.stdout, `${file}: Gemini CLI re-synced (--sync): adds SessionEnd, BeforeTool, AfterAgent\n`);
    assertEquals(Object.keys(await t.registered(file)).sort(), [
      "AfterAgent",
      "BeforeTool",
      "SessionEnd",
      "SessionStart",
    ]);
  },
});

Deno.test({
  name:
    "session start through each adapter (r3): a trusted hook on an event its host was not told about is named, with the fix",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    // Each host synced where no hook is in reach: only SessionStart (and what the user hooks need).
    await writeHooksJson(t.mind, { PreToolUse: [group([cmd("true")], "Bash")] });
    for (const host of PROTOCOL_HOSTS) {
      const r = await t.cli(["install", host, "--sync"]);
      assertEquals(r.code, 0, r.stderr);
    }
    // A trusted project with a PostToolUse Edit guard, opened later: no install was synced from there.
    const proj = `${t.root}/proj`;
    await writeHooksJson(`${proj}/.mind`, { PostToolUse: [group([cmd("true")], "Edit")] });
    assertEquals((await t.cli(["project", "trust", proj, "--home", t.mind], proj)).code, 0);
    assertEquals((await t.cli(["trust", "--all", "--home", t.mind], proj)).code, 0);
    const names = { claude: "Claude Code", codex: "Codex", gemini: "Gemini CLI", copilot: "Copilot CLI" };
    const hostEvent = { claude: "PostToolUse", codex: "PostToolUse", gemini: "AfterTool", copilot: "PostToolUse" };
    for (const host of PROTOCOL_HOSTS) {
      const { stdout, cli } = await viaProtocol(host, t.mind, hostSessionStart(host, proj, sessionId("sync")), {
        env: t.env,
      });
      const line = `mind-hooks: 1 hook on ${hostEvent[host]} Edit will not fire under ${names[host]}: ` +
        `run mind-hooks install ${host} --sync`;
      assertEquals(stdout?.systemMessage, line, host);
      if (host === "copilot") assertEquals([cli.code, cli.stderr.trim()], [2, line]);
    }
    // The user's own PreToolUse Bash hook was registered: nothing is said for it; from the home nothing at all.
    const home = await viaProtocol("claude", t.mind, hostSessionStart("claude", `${t.root}/home`, sessionId("s")), {
      env: t.env,
    });
    assertEquals(home.stdout, null);
    // Re-synced from the project, Claude Code is told: the line goes.
    const re = await t.cli(["install", "claude", "--sync"], proj);
    assertEquals(re.code, 0, re.stderr);
    const after = await viaProtocol("claude", t.mind, hostSessionStart("claude", proj, sessionId("s")), { env: t.env });
    assert(after.stdout === null, JSON.stringify(after.stdout));
  },
});

Deno.test({
  name: "install --sync (r3): leaving review re-syncs a recorded install, one line under the restored screen",
  ignore: !POSIX || !(await tmuxAvailable()),
  async fn() {
    const w = await makeWorld();
    try {
      const os = `${w.root}/os`;
      await Deno.mkdir(`${os}/bin`, { recursive: true });
      await Deno.writeTextFile(`${os}/bin/mind-hooks`, "#!/bin/sh\n", { mode: 0o755 });
      const env = { HOME: os, PATH: `${os}/bin:/usr/bin:/bin`, DENO_DIR: denoDir(), MIND_HOME: w.home };
      await writeHooksJson(w.home, { PreToolUse: [group([cmd("true")], "Bash")] });
      const i = await runCli(["install", "claude", "--sync"], { env, cwd: os });
      assertEquals(i.code, 0, i.stderr);
      await writeHooksJson(w.home, { PreToolUse: [group([cmd("true")], "Bash")], Stop: [group([cmd("true")])] });
      const t = await Tmux.start(w, ["review", ...w.opts], { cwd: os });
      try {
        await t.waitFor((x) => x.includes("mind-hooks review ·"), "the review screen");
        await t.keys("q");
        const s = await t.waitFor((x) => x.includes("EXIT="), "the exit");
        assertStringIncludes(s, `${os}/.claude/settings.json: Claude Code re-synced (--sync): adds Stop`);
        assertStringIncludes(await Deno.readTextFile(`${os}/.claude/settings.json`), `"Stop"`);
      } finally {
        await t.kill();
      }
    } finally {
      await w.cleanup();
    }
  },
});
