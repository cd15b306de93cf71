/**
 * `mind-hooks install claude|codex` through the real CLI (in its sandbox): a launcher the host could not start is
 * refused with exit 1 and nothing written unless `--force`; `--local` writes Claude Code's settings.local.json;
 * uninstall leaves no empty file or folder behind; the printed paths are clean; Codex gets its `Interrupt` entry
 * and a Codex Interrupt comes back in Codex's form. Plus unit tables of the launcher lookup.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, echoHook, group, runCli, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { launcherCandidates, launcherProgram } from "../src/util/launcher.ts";
import { fail, ok } from "../src/util/result.ts";
import { HOST_EVENTS } from "../src/adapter/hosts.ts";
import { registeredCommand } from "../src/adapter/settings.ts";

const POSIX = Deno.build.os !== "windows";
/** The Deno cache: with HOME pointing at a temp dir, Deno would otherwise fetch every npm dependency again. */
const DENO_DIR: string = JSON.parse(
  new TextDecoder().decode((await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output()).stdout),
).denoDir;

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** A temp root with `home/`, `proj/` and `bin/` (empty) and the environment install sees. */
async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-install-" }));
  for (const d of ["home", "proj", "bin"]) await Deno.mkdir(`${root}/${d}`);
  const env = { HOME: `${root}/home`, PATH: `${root}/bin:/usr/bin:/bin`, DENO_DIR };
  const launcher = async (name = "mind-hooks", mode = 0o755) => {
    await Deno.writeTextFile(`${root}/bin/${name}`, "#!/bin/sh\n");
    await Deno.chmod(`${root}/bin/${name}`, mode);
    return `${root}/bin/${name}`;
  };
  return { root, env, launcher, cleanup: () => Deno.remove(root, { recursive: true }) };
}

Deno.test({
  name: "install: a launcher that is neither on PATH nor an executable absolute path is refused; nothing is written",
  ignore: !POSIX,
  async fn() {
    const t = await layout();
    try {
      const settings = `${t.root}/proj/.claude/settings.json`;
      const cases: [string[], string][] = [
        [
          [],
          `mind-hooks: "mind-hooks" is not on PATH, so Claude Code could not start "mind-hooks dispatch --protocol claude"`,
        ],
        [["--command", "./mind-hooks"], `mind-hooks: "./mind-hooks" is a relative path, which the host would resolve`],
        [["--command", `${t.root}/nowhere/mind-hooks`], `mind-hooks: ${t.root}/nowhere/mind-hooks does not exist`],
        [["--dry-run"], `mind-hooks: "mind-hooks" is not on PATH`],
      ];
      for (const [extra, message] of cases) {
        const r = await runCli(["install", "claude", "--project", `${t.root}/proj`, ...extra], { env: t.env });
        assertEquals([r.code, r.stdout], [1, ""], extra.join(" "));
        assert(r.stderr.startsWith(message), r.stderr);
        assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
        assertStringIncludes(r.stderr, "or --force; nothing was written");
        assertEquals(await exists(`${t.root}/proj/.claude`), false, "a folder was created");
      }
      // An existing settings file is left byte for byte; a launcher that is there but not executable is refused.
      await Deno.mkdir(`${t.root}/proj/.claude`);
      await Deno.writeTextFile(settings, `{ "model": "x" }\n`);
      const plain = await t.launcher("mind-hooks", 0o644);
      const r = await runCli(["install", "claude", "--project", `${t.root}/proj`], { env: t.env });
      assertEquals(r.code, 1);
      assert(r.stderr.startsWith(`mind-hooks: ${plain} is not executable`), r.stderr);
      assertEquals(await Deno.readTextFile(settings), `{ "model": "x" }\n`);
      const codex = await runCli(["install", "codex"], { env: t.env });
      assertEquals(codex.code, 1);
      assertStringIncludes(codex.stderr, `so Codex could not start "mind-hooks dispatch --protocol codex"`);
      assertEquals(await exists(`${t.root}/home/.codex`), false);

      // --force registers it anyway; so does an executable on PATH, or an absolute executable path.
      const forced = await runCli(["install", "claude", "--project", `${t.root}/proj`, "--force"], { env: t.env });
      assertEquals(forced.code, 0, forced.stderr);
      // Found nowhere, the bare name is guarded by a look-up on the host's PATH (SPEC §6 r4).
      assertStringIncludes(
        await Deno.readTextFile(settings),
        `"command": "command -v mind-hooks >/dev/null 2>&1 || { echo 'mind-hooks not found: mind-hooks is not on PATH: ` +
          `run mind-hooks install claude --project ${t.root}/proj' >&2; exit 2; }; mind-hooks dispatch --protocol claude;`,
      );
      await Deno.chmod(plain, 0o755);
      const onPath = await runCli(["install", "codex"], { env: t.env });
      assertEquals(onPath.code, 0, onPath.stderr);
      const quoted = await t.launcher("mind hooks");
      const absolute = await runCli(
        ["install", "codex", "--command", `'${quoted}' --profile work`],
        { env: { ...t.env, PATH: "/usr/bin:/bin" } },
      );
      assertEquals(absolute.code, 0, absolute.stderr);
      assertStringIncludes(
        await Deno.readTextFile(`${t.root}/home/.codex/hooks.json`),
        `; '${quoted}' --profile work dispatch --protocol codex; s=$?;`,
      );
      // Uninstalling needs no launcher at all.
      const un = await runCli(["install", "codex", "--uninstall"], { env: { ...t.env, PATH: "/nonexistent" } });
      assertEquals(un.code, 0, un.stderr);
    } finally {
      await t.cleanup();
    }
  },
});

Deno.test({
  name: "install claude --local writes .claude/settings.local.json of the project (default: the current directory)",
  ignore: !POSIX,
  async fn() {
    const t = await layout();
    try {
      await t.launcher();
      const here = await runCli(["install", "claude", "--local"], { env: t.env, cwd: `${t.root}/proj` });
      assertEquals(here.code, 0, here.stderr);
      const local = `${t.root}/proj/.claude/settings.local.json`;
      assert(here.stdout.startsWith(`${local}: Claude Code now delegates`), here.stdout);
      assertEquals(await exists(`${t.root}/proj/.claude/settings.json`), false, "settings.json untouched");
      const events = Object.keys(JSON.parse(await Deno.readTextFile(local)).hooks);
      assertEquals(events, [...HOST_EVENTS.claude]);
      await Deno.mkdir(`${t.root}/other`);
      const there = await runCli(["install", "claude", "--local", "--project", `${t.root}/other`], { env: t.env });
      assertEquals(there.code, 0, there.stderr);
      assert(await exists(`${t.root}/other/.claude/settings.local.json`));
      for (
        const [args, message] of [
          [["install", "codex", "--local"], "mind-hooks: --local is for claude (.claude/settings.local.json)"],
          [["install", "claude", "--local", "--user"], "mind-hooks: --user and --local exclude each other"],
          [["install", "claude", "--project", `${t.root}/missing`], `mind-hooks: --project ${t.root}/missing: no such`],
        ] as const
      ) {
        const r = await runCli([...args], { env: t.env, cwd: `${t.root}/proj` });
        assertEquals(r.code, 1, args.join(" "));
        assert(r.stderr.startsWith(message), r.stderr);
      }
      assertEquals(await exists(`${t.root}/missing`), false);
    } finally {
      await t.cleanup();
    }
  },
});

Deno.test({
  name: "install then uninstall leaves no file or folder it created; files that hold more are kept",
  ignore: !POSIX,
  async fn() {
    const t = await layout();
    try {
      await t.launcher();
      for (
        const [host, scope, folder] of [
          ["claude", ["--project", `${t.root}/proj`], `${t.root}/proj/.claude`],
          ["claude", ["--local"], `${t.root}/proj/.claude`],
          ["codex", ["--project", `${t.root}/proj`], `${t.root}/proj/.codex`],
          ["claude", [], `${t.root}/home/.claude`],
          ["codex", [], `${t.root}/home/.codex`],
        ] as const
      ) {
        const opts = { env: t.env, cwd: `${t.root}/proj` };
        const inst = await runCli(["install", host, ...scope], opts);
        assertEquals(inst.code, 0, inst.stderr);
        assert(await exists(folder), `${host} ${scope.join(" ")}: no ${folder}`);
        const un = await runCli(["install", host, ...scope, "--uninstall"], opts);
        assertEquals(un.code, 0, un.stderr);
        assertStringIncludes(
          un.stdout,
          `the file held nothing else and was deleted, and so was the empty folder ${folder}`,
        );
        assertEquals(await exists(folder), false, `${host} ${scope.join(" ")}: ${folder} left behind`);
      }
      // A settings file with other settings, or a folder with other files, stays.
      await Deno.mkdir(`${t.root}/proj/.claude`);
      await Deno.writeTextFile(`${t.root}/proj/.claude/settings.json`, `{\n  "model": "opus"\n}\n`);
      await Deno.writeTextFile(`${t.root}/proj/.claude/notes.md`, "mine\n");
      await Deno.mkdir(`${t.root}/proj/.codex`);
      await Deno.writeTextFile(`${t.root}/proj/.codex/config.toml`, "");
      for (const host of ["claude", "codex"]) {
        assertEquals((await runCli(["install", host, "--project", `${t.root}/proj`], { env: t.env })).code, 0);
        const un = await runCli(["install", host, "--project", `${t.root}/proj`, "--uninstall"], { env: t.env });
        assertEquals(un.code, 0, un.stderr);
      }
      assertEquals(await Deno.readTextFile(`${t.root}/proj/.claude/settings.json`), `{\n  "model": "opus"\n}\n`);
      assertEquals(await exists(`${t.root}/proj/.claude/notes.md`), true);
      assertEquals(await exists(`${t.root}/proj/.codex/hooks.json`), false);
      assertEquals(await exists(`${t.root}/proj/.codex/config.toml`), true);
      // A folder named by CODEX_HOME is the user's: emptied, it stays.
      const codexHome = `${t.root}/codex-home`;
      await Deno.mkdir(codexHome);
      const env = { ...t.env, CODEX_HOME: codexHome };
      assertEquals((await runCli(["install", "codex"], { env })).code, 0);
      const un = await runCli(["install", "codex", "--uninstall"], { env });
      assertEquals([un.code, await exists(codexHome), await exists(`${codexHome}/hooks.json`)], [0, true, false]);
    } finally {
      await t.cleanup();
    }
  },
});

Deno.test({ name: "install prints clean paths (no ./, .., // or trailing /)", ignore: !POSIX }, async () => {
  const t = await layout();
  try {
    await t.launcher();
    await Deno.mkdir(`${t.root}/proj/sub`);
    const file = `${t.root}/proj/.claude/settings.json`;
    for (
      const [project, cwd] of [
        [".", `${t.root}/proj`],
        ["./", `${t.root}/proj`],
        ["sub/..", `${t.root}/proj`],
        [`${t.root}//proj/`, t.root],
        ["../../proj", `${t.root}/proj/sub`],
      ]
    ) {
      const r = await runCli(["install", "claude", "--project", project, "--dry-run"], { env: t.env, cwd });
      assertEquals(r.code, 0, r.stderr);
      assert(r.stdout.startsWith(`--- /dev/null\n+++ ${file}\n`), `${project}: ${r.stdout.slice(0, 200)}`);
    }
    const home = await runCli(["install", "codex", "--dry-run"], { env: { ...t.env, HOME: `${t.root}/home/` } });
    assert(home.stdout.startsWith(`--- /dev/null\n+++ ${t.root}/home/.codex/hooks.json\n`), home.stdout);
  } finally {
    await t.cleanup();
  }
});

Deno.test(
  { name: "install codex registers Interrupt; a Codex Interrupt comes back as Codex reads it", ignore: !POSIX },
  async () => {
    const t = await layout();
    try {
      await t.launcher();
      assertEquals((await runCli(["install", "codex"], { env: t.env })).code, 0);
      const hooks = JSON.parse(await Deno.readTextFile(`${t.root}/home/.codex/hooks.json`)).hooks;
      const launcher = `${t.root}/bin/mind-hooks`;
      assertEquals(hooks.Interrupt, [{
        hooks: [{
          type: "command",
          command: registeredCommand("codex", "Interrupt", launcher, "mind-hooks install codex"),
        }],
      }]);
      assertEquals((await runCli(["install", "claude"], { env: t.env })).code, 0);
      const claude = JSON.parse(await Deno.readTextFile(`${t.root}/home/.claude/settings.json`)).hooks;
      assertEquals("Interrupt" in claude, false, "Claude Code has no Interrupt event");

      // What Codex sends on an interrupted turn (codex-rs/hooks InterruptCommandInput), through a mind hook.
      const mind = `${t.root}/mind`;
      await writeHooksJson(mind, { Interrupt: [group([cmd(echoHook({ systemMessage: "interrupted: saved" }))])] });
      await trustAll(mind);
      const input = {
        session_id: "019a-codex",
        turn_id: "turn-7",
        transcript_path: null,
        cwd: `${t.root}/proj`,
        hook_event_name: "Interrupt",
        model: "gpt-5.2-codex",
        permission_mode: "default",
      };
      const r = await runCli(["dispatch", "--protocol", "codex", "--home", mind], { stdin: JSON.stringify(input) });
      assertEquals([r.code, r.stderr], [0, ""]);
      assertEquals(JSON.parse(r.stdout), { systemMessage: "interrupted: saved" });
    } finally {
      await t.cleanup();
    }
  },
);

Deno.test("launcher lookup: the program is the first shell word; its candidates follow PATH (and PATHEXT)", () => {
  assertEquals(
    [
      "mind-hooks",
      "  /opt/mind-hooks dispatch",
      `'/a b/mind-hooks' --x`,
      `"/a \\"b\\"/m" y`,
      `/a\\ b/m y`,
      `deno run -A main.ts`,
    ].map(launcherProgram),
    ["mind-hooks", "/opt/mind-hooks", "/a b/mind-hooks", `/a "b"/m`, "/a b/m", "deno"],
  );
  assertEquals(
    launcherCandidates("mind-hooks", { PATH: "/u/bin::relative:/bin/" }, "posix"),
    ok(["/u/bin/mind-hooks", "/bin/mind-hooks"]),
  );
  assertEquals(launcherCandidates("/opt/mh", { PATH: "/bin" }, "posix"), ok(["/opt/mh"]));
  for (const p of ["~/bin/mh", "$HOME/bin/mh", "${HOME}/bin/mh"]) {
    assertEquals(launcherCandidates(p, { HOME: "/home/u" }, "posix"), ok(["/home/u/bin/mh"]), p);
  }
  assertEquals(
    launcherCandidates("bin/mh", {}, "posix"),
    fail(`"bin/mh" is a relative path, which the host would resolve from another directory`),
  );
  assertEquals(
    launcherCandidates("mind-hooks", { Path: "C:\\bin;rel", PATHEXT: ".EXE;.CMD" }, "windows"),
    ok(["C:\\bin\\mind-hooks.exe", "C:\\bin\\mind-hooks.cmd"]),
  );
  assertEquals(launcherCandidates("C:\\x\\mind-hooks.exe", {}, "windows"), ok(["C:\\x\\mind-hooks.exe"]));
  assertEquals(launcherCandidates("", {}, "posix"), fail("the launcher is empty"));
});

Deno.test({
  name:
    "install --sync: only the events hooks are on and Claude Code's tools they name, and SessionStart always (r3); re-synced",
  ignore: !POSIX,
  async fn() {
    const t = await layout();
    try {
      const mind = `${t.root}/home/.mind`;
      const settings = `${t.root}/home/.claude/settings.json`;
      const launcher = await t.launcher();
      const sync = () =>
        runCli(["install", "claude", "--sync", "--command", launcher], { env: t.env, cwd: `${t.root}/proj` });
      const registered = async () => {
        const hooks = JSON.parse(await Deno.readTextFile(settings)).hooks as Record<string, { matcher?: string }[]>;
        return Object.fromEntries(
          Object.entries(hooks).map(([e, groups]) => [e, groups.map((g) => g.matcher ?? null)]),
        );
      };
      await writeHooksJson(mind, { PreToolUse: [group([cmd("true")], "Bash")] });
      let r = await sync();
      assertEquals(r.code, 0, r.stderr);
      assertStringIncludes(r.stdout, "now delegates PreToolUse, SessionEnd, SessionStart to");
      assertEquals(await registered(), {
        SessionEnd: [null],
        SessionStart: [null],
        PreToolUse: ["Bash|exec_command|shell_command|write_stdin"],
      });
      // A hook on another event, and one whose matcher is a regex: every tool for that event.
      await writeHooksJson(mind, {
        PreToolUse: [group([cmd("true")], "Bash")],
        PostToolUse: [group([cmd("true")], "mcp__.*")],
        Stop: [group([cmd("true")])],
      });
      r = await sync();
      assertEquals(r.code, 0, r.stderr);
      assertEquals(await registered(), {
        SessionEnd: [null],
        SessionStart: [null],
        PreToolUse: ["Bash|exec_command|shell_command|write_stdin"],
        PostToolUse: ["*"],
        Stop: [null],
      });
      // Running it again changes nothing.
      assertStringIncludes((await sync()).stdout, "already delegates to mind-hooks; nothing changed");
      // No hook left: only SessionStart stays (r3), so that a session start can still say what will not run.
      await writeHooksJson(mind, {});
      r = await sync();
      assertEquals(r.code, 0, r.stderr);
      assertStringIncludes(
        r.stdout,
        "no mind hook is configured in reach of here (--sync): only SessionStart is delegated",
      );
      assertEquals(await registered(), { SessionStart: [null] });
    } finally {
      await t.cleanup();
    }
  },
});

Deno.test({
  name: "install --sync --project DIR: the hooks of the project DIR lies in are found (the sandbox grants its chain)",
  ignore: !POSIX,
  async fn() {
    const t = await layout();
    try {
      const mind = `${t.root}/home/.mind`;
      const sub = `${t.root}/proj/sub`;
      await Deno.mkdir(sub);
      await writeHooksJson(`${t.root}/proj/.mind`, { PreToolUse: [group([cmd("true")], "Edit")] });
      const trust = await runCli(["project", "trust", `${t.root}/proj`, "--home", mind], { env: t.env });
      assertEquals(trust.code, 0, trust.stderr);
      const launcher = await t.launcher();
      const r = await runCli(["install", "claude", "--sync", "--project", sub, "--command", launcher], { env: t.env });
      assertEquals(r.code, 0, r.stderr);
      const hooks = JSON.parse(await Deno.readTextFile(`${sub}/.claude/settings.json`)).hooks;
      assertEquals(hooks.PreToolUse.map((g: { matcher: string }) => g.matcher), ["Edit|apply_patch"]);
    } finally {
      await t.cleanup();
    }
  },
});
