/**
 * `doctor` checks the hosts (issue 25 item 3), through the real CLI in its sandbox: a host installed but
 * delegating nowhere (missing), a `--sync` install gone stale, a launcher that no longer runs, and a
 * healthy install — each problem with the one command that fixes it. A project's own launcher is never
 * run.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, denoDir, group, runCli, writeHooksJson } from "./helpers/cli.ts";

const POSIX = Deno.build.os !== "windows";

/** A temp OS home with `.mind/`, a `claude` command and a `mind-hooks` launcher on PATH. */
async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-doctor-" }));
  for (const d of ["home/.mind", "bin", "proj/.mind"]) await Deno.mkdir(`${root}/${d}`, { recursive: true });
  await Deno.writeTextFile(`${root}/bin/claude`, "#!/bin/sh\n", { mode: 0o755 });
  await Deno.writeTextFile(`${root}/bin/mind-hooks`, `#!/bin/sh\necho "mind-hooks 0.1.0"\n`, { mode: 0o755 });
  const env = { HOME: `${root}/home`, PATH: `${root}/bin:/usr/bin:/bin`, DENO_DIR: denoDir() };
  const cli = (args: string[], cwd = `${root}/home`) => runCli(args, { env, cwd });
  /** The hosts section and the fix lines of `doctor`. */
  const doctor = async (cwd = `${root}/home`) => {
    const r = await cli(["doctor"], cwd);
    const out = r.stdout.split("\n");
    const at = out.indexOf("hosts");
    const end = out.indexOf("", at);
    return {
      code: r.code,
      hosts: out.slice(at + 1, end),
      fixes: out.filter((l) => l.startsWith("fix: ")),
      stderr: r.stderr,
    };
  };
  return { root, env, cli, doctor, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

Deno.test({
  name: "doctor: an installed host that delegates nowhere is a problem, with the install command",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    const d = await t.doctor();
    assertEquals(d.code, 1, d.stderr);
    assertEquals(d.hosts[0], `  Claude Code: installed (${t.root}/bin/claude); does not delegate to mind-hooks`);
    assertStringIncludes(d.hosts[1], "Codex: not installed");
    assertEquals(d.fixes, ["fix: no host delegates to mind-hooks: run mind-hooks install claude"]);
  },
});

Deno.test({
  name: "doctor: a healthy install — it delegates, the launcher runs, --sync is in step: nothing to fix",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    const i = await t.cli(["install", "claude", "--sync"]);
    assertEquals(i.code, 0, i.stderr);
    const settings = `${t.root}/home/.claude/settings.json`;
    const d = await t.doctor();
    assertEquals(d.hosts.slice(0, 3), [
      `  Claude Code: installed (${t.root}/bin/claude); delegates to mind-hooks from user settings (${settings})`,
      `    launcher "${t.root}/bin/mind-hooks": runs (mind-hooks 0.1.0)`,
      `    ${settings} (--sync): in step`,
    ]);
    assertEquals([d.code, d.fixes], [0, []], d.stderr);
  },
});

Deno.test({
  name: "doctor: a stale --sync install and a launcher that no longer runs are named with their fixes",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    assertEquals((await t.cli(["install", "claude", "--sync"])).code, 0);
    const settings = `${t.root}/home/.claude/settings.json`;
    // A guard added since (not trusted through mind-hooks, so nothing re-synced it).
    await writeHooksJson(`${t.root}/home/.mind`, { PostToolUse: [group([cmd("true")], "Edit")] });
    let d = await t.doctor();
    assertEquals(d.hosts[2], `    ${settings} (--sync): STALE`);
    assert(
      d.fixes.includes(
        `fix: ${settings} is stale (--sync; adds SessionEnd, PostToolUse (Edit|apply_patch)): run mind-hooks install claude --sync`,
      ),
      d.fixes.join("\n"),
    );
    // The launcher breaks (an npx cache cleaned, a binary moved).
    await Deno.writeTextFile(`${t.root}/bin/mind-hooks`, "#!/bin/sh\necho 'exec: deno: not found' >&2\nexit 127\n");
    d = await t.doctor();
    const launcher = `${t.root}/bin/mind-hooks`;
    assertEquals(d.hosts[1], `    launcher "${launcher}": does NOT run (exit 127: exec: deno: not found)`);
    assert(
      d.fixes.includes(
        `fix: Claude Code calls "${launcher}", which does not run as Claude Code would start it (exit 127: exec: ` +
          `deno: not found): run mind-hooks install claude (it writes the launcher's absolute path), or give ` +
          `--command /absolute/path/to/mind-hooks`,
      ),
      d.fixes.join("\n"),
    );
    await Deno.remove(launcher);
    d = await t.doctor();
    assertEquals(d.hosts[1], `    launcher "${launcher}": does NOT run (${launcher} does not exist)`);
  },
});

Deno.test({
  name:
    "doctor: a bare launcher on doctor's PATH but not a login shell's is found NOT to run, as the host would start it",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    // What install wrote before SPEC §6 r4: a bare name, found on the terminal's PATH only.
    await Deno.mkdir(`${t.root}/home/.claude`);
    await Deno.writeTextFile(
      `${t.root}/home/.claude/settings.json`,
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: "mind-hooks dispatch --protocol claude" }] }] },
      }),
    );
    const d = await t.doctor();
    assertEquals(
      d.hosts[1],
      `    launcher "mind-hooks": does NOT run (a clean login shell (env -i HOME=… sh -lc) does not find "mind-hooks")`,
    );
    assertEquals(d.code, 1);
    assertStringIncludes(d.fixes.join("\n"), "run mind-hooks install claude (it writes the launcher's absolute path)");
    // Installed again, the entry names the launcher's absolute path, and a login shell starts it.
    assertEquals((await t.cli(["install", "claude"])).code, 0);
    const again = await t.doctor();
    assertEquals(again.hosts[1], `    launcher "${t.root}/bin/mind-hooks": runs (mind-hooks 0.1.0)`);
    assertEquals([again.code, again.fixes], [0, []], again.stderr);
  },
});

Deno.test({
  name: "doctor: a project's delegating entry is reported, and its launcher (a stranger's) is not run",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    const marker = `${t.root}/ran.txt`;
    await Deno.mkdir(`${t.root}/proj/.claude`);
    const evil = `touch ${marker}; mind-hooks`;
    await Deno.writeTextFile(
      `${t.root}/proj/.claude/settings.json`,
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: `${evil} dispatch --protocol claude` }] }] },
      }),
    );
    const d = await t.doctor(`${t.root}/proj`);
    assertEquals(d.hosts.slice(0, 2), [
      `  Claude Code: installed (${t.root}/bin/claude); delegates to mind-hooks from this project (${t.root}/proj/.claude/settings.json)`,
      `    launcher "${evil}" (from the project's file): not run`,
    ]);
    assertEquals(await Deno.stat(marker).then(() => true, () => false), false, "the project's launcher ran");
  },
});

Deno.test({
  name: "doctor: its grants say why in the user's words — no SPEC section a binary user does not have",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    const proj = `${t.root}/proj`;
    await writeHooksJson(`${proj}/.mind`, { Stop: [group([cmd("true")])] });
    assertEquals(await t.cli(["project", "trust", proj]).then((r) => r.code), 0);
    const r = await t.cli(["doctor"], proj);
    assertStringIncludes(
      r.stdout,
      "the project's tree (the files its hooks run are pinned; trusted, or for review any)",
    );
    assertEquals(r.stdout.match(/SPEC §[\d.]+/g), null);
  },
});
