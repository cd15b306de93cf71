/**
 * `install` never writes through links it should not (issue 22 item 11), through the real CLI in its
 * sandbox: a project install refuses a settings file or a host folder whose real location leaves the
 * project (a repository committing `.claude/settings.json` as a link to `~/.claude/settings.json`, or
 * `.claude`/`.github` linked outside) and reads nothing there; a link that stays inside the project is
 * written through. A user install writes through the user's own link (a dotfile manager's), which stays.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { denoDir, runCli } from "./helpers/cli.ts";

const POSIX = Deno.build.os !== "windows";

/** A temp root with `home/` (the OS home), `proj/`, `bin/mind-hooks` and the environment install sees. */
async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-links-" }));
  for (const d of ["home", "proj", "bin", "dotfiles"]) await Deno.mkdir(`${root}/${d}`);
  await Deno.writeTextFile(`${root}/bin/mind-hooks`, "#!/bin/sh\n", { mode: 0o755 });
  const env = { HOME: `${root}/home`, PATH: `${root}/bin:/usr/bin:/bin`, DENO_DIR: denoDir() };
  const install = (args: string[]) => runCli(["install", ...args], { env, cwd: `${root}/proj` });
  return { root, env, install, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

/** The user's Claude Code settings, holding a secret a repository must never get a copy of. */
const USER_SETTINGS = `{\n  "env": { "ANTHROPIC_API_KEY": "sk-secret" }\n}\n`;

Deno.test({
  name: "install --project: a settings file linked to the user's own is refused; neither file changes",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    await Deno.mkdir(`${t.root}/home/.claude`);
    await Deno.writeTextFile(`${t.root}/home/.claude/settings.json`, USER_SETTINGS);
    await Deno.mkdir(`${t.root}/proj/.claude`);
    await Deno.symlink(`${t.root}/home/.claude/settings.json`, `${t.root}/proj/.claude/settings.json`);
    for (const extra of [[], ["--dry-run"], ["--sync"]]) {
      const r = await t.install(["claude", "--project", `${t.root}/proj`, ...extra]);
      assertEquals(r.code, 1, r.stdout);
      assertEquals(
        r.stderr.trim(),
        `mind-hooks: ${t.root}/proj/.claude/settings.json leads outside the project (to ${t.root}/home/.claude/settings.json): ` +
          `a project install writes only inside ${t.root}/proj; nothing was written`,
      );
      assertEquals(r.stdout, "", "the user's settings were shown");
    }
    assertEquals(await Deno.readTextFile(`${t.root}/home/.claude/settings.json`), USER_SETTINGS);
    assert((await Deno.lstat(`${t.root}/proj/.claude/settings.json`)).isSymlink);
    // --local, into settings.local.json linked the same way.
    await Deno.symlink(`${t.root}/home/.claude/settings.json`, `${t.root}/proj/.claude/settings.local.json`);
    const local = await t.install(["claude", "--local"]);
    assertEquals(local.code, 1);
    assertStringIncludes(local.stderr, "leads outside the project");
  },
});

Deno.test({
  name:
    "install --project: a .claude or .github folder linked outside the project is refused; nothing is written there",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    await Deno.mkdir(`${t.root}/elsewhere`);
    await Deno.symlink(`${t.root}/elsewhere`, `${t.root}/proj/.claude`);
    await Deno.symlink(`${t.root}/elsewhere`, `${t.root}/proj/.github`);
    for (const host of ["claude", "copilot"]) {
      const r = await t.install([host, "--project", `${t.root}/proj`]);
      assertEquals(r.code, 1, r.stdout);
      assertStringIncludes(r.stderr, `leads outside the project (to ${t.root}/elsewhere/`);
    }
    assertEquals([...Deno.readDirSync(`${t.root}/elsewhere`)], []);
  },
});

Deno.test({
  name: "install --project: a link that stays inside the project is written through, and stays a link",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    await Deno.mkdir(`${t.root}/proj/config`);
    await Deno.writeTextFile(`${t.root}/proj/config/claude.json`, `{ "model": "x" }\n`);
    await Deno.mkdir(`${t.root}/proj/.claude`);
    await Deno.symlink("../config/claude.json", `${t.root}/proj/.claude/settings.json`);
    const r = await t.install(["claude", "--project", `${t.root}/proj`]);
    assertEquals(r.code, 0, r.stderr);
    assert((await Deno.lstat(`${t.root}/proj/.claude/settings.json`)).isSymlink);
    const text = await Deno.readTextFile(`${t.root}/proj/config/claude.json`);
    assertStringIncludes(text, `"model": "x"`);
    // The launcher by the absolute path found on PATH, inside the guard (SPEC §6 r4).
    assertStringIncludes(text, `; ${t.root}/bin/mind-hooks dispatch --protocol claude; s=$?;`);
  },
});

Deno.test({
  name: "install --user: a dotfile manager's link is written through and stays; uninstall leaves it holding {}",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    await Deno.writeTextFile(`${t.root}/dotfiles/claude-settings.json`, USER_SETTINGS);
    await Deno.mkdir(`${t.root}/home/.claude`);
    await Deno.symlink(`${t.root}/dotfiles/claude-settings.json`, `${t.root}/home/.claude/settings.json`);
    const r = await t.install(["claude", "--user"]);
    assertEquals(r.code, 0, r.stderr);
    assert((await Deno.lstat(`${t.root}/home/.claude/settings.json`)).isSymlink, "the link was replaced by a file");
    const text = await Deno.readTextFile(`${t.root}/dotfiles/claude-settings.json`);
    assertStringIncludes(text, `"ANTHROPIC_API_KEY": "sk-secret"`);
    // The launcher by the absolute path found on PATH, inside the guard (SPEC §6 r4).
    assertStringIncludes(text, `; ${t.root}/bin/mind-hooks dispatch --protocol claude; s=$?;`);
    const u = await t.install(["claude", "--user", "--uninstall"]);
    assertEquals(u.code, 0, u.stderr);
    assert((await Deno.lstat(`${t.root}/home/.claude/settings.json`)).isSymlink);
    assertEquals(await Deno.readTextFile(`${t.root}/dotfiles/claude-settings.json`), USER_SETTINGS);

    // A link that leads nowhere is said, not replaced.
    await Deno.mkdir(`${t.root}/home/.codex`);
    await Deno.symlink(`${t.root}/dotfiles/missing.json`, `${t.root}/home/.codex/hooks.json`);
    const dangling = await t.install(["codex", "--user"]);
    assertEquals(dangling.code, 1);
    assertStringIncludes(
      dangling.stderr,
      `hooks.json is a link to ${t.root}/dotfiles/missing.json, which does not exist`,
    );
  },
});
