/**
 * The screens a new user reads after connecting an agent (issue 36): each says what will happen.
 * End-to-end through the real CLI in temp homes.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, event, group, makeHome, makeProject, runCli, writeHooksJson } from "./helpers/cli.ts";
import { join } from "../src/util/paths.ts";

/** An OS user's home holding a Claude Code settings file with one guard of its own; a mind home; a work folder. */
async function claudeUser() {
  const os = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-osuser-" }));
  await Deno.mkdir(join(os, ".claude"));
  await Deno.writeTextFile(
    join(os, ".claude", "settings.json"),
    JSON.stringify({ hooks: { PreToolUse: [group([cmd("python3 ~/.claude/guard.py")], "Bash")] } }),
  );
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

Deno.test("common options: taken before the command too (mind-hooks --home X list), as git takes them", async () => {
  await using home = await makeHome();
  const before = await runCli(["--home", home.path, "list"]);
  assertEquals(before.code, 0, before.stderr);
  const after = await runCli(["list", "--home", home.path]);
  assertEquals(before.stdout, after.stdout);
  const inline = await runCli([`--home=${home.path}`, "-c", "features.hooks=false", "list", "--json"]);
  assertEquals(inline.code, 0, inline.stderr);
  assertEquals(inline.json().hooksEnabled, false);
  // A command's own option still belongs after it; --help keeps its meaning.
  const own = await runCli(["--json", "list", "--home", home.path]);
  assertEquals(own.code, 1);
  assertStringIncludes(own.stderr, "unknown option --json");
  const help = await runCli(["--help"]);
  assertStringIncludes(help.stdout, "before or after COMMAND");
});

Deno.test("--home naming a folder that does not exist: dispatch creates nothing and says so", async () => {
  await using parent = await makeHome();
  const typo = join(parent.path, "typo", "home");
  const input = JSON.stringify(event("SessionStart"));
  const res = await runCli([
    "dispatch",
    "--home",
    typo,
    "-c",
    'hooks.SessionStart=[{hooks=[{type="command",command="echo hi"}]}]',
  ], {
    stdin: input,
  });
  assertEquals(res.code, 0, res.stderr);
  const out = res.json();
  assert(out.warnings.some((w: { code: string }) => w.code === "W_HOME_MISSING"), res.stdout);
  assert(
    out.systemMessages.some((m: string) => m.includes(`the home ${typo} (--home) does not exist`)),
    res.stdout,
  );
  // Nothing was made: not the home, not its parent.
  assertEquals(await Deno.stat(join(parent.path, "typo")).then(() => true, () => false), false);
  // MIND_HOME is named the same way.
  const env = await runCli(["dispatch"], { stdin: input, env: { MIND_HOME: typo } });
  assertStringIncludes(env.stdout, "(MIND_HOME) does not exist");
  // The default home of a new user is not a typo: no such word.
  await using user = await makeHome();
  const fresh = await runCli(["list"], { env: { HOME: user.path } });
  assertEquals(fresh.code, 0, fresh.stderr);
  assert(!fresh.stdout.includes("typo"), fresh.stdout);
  assertStringIncludes(fresh.stdout, "the first trust creates it");
  const named = await runCli(["list", "--home", typo]);
  assertStringIncludes(named.stdout, "(a typo in --home?)");
});

Deno.test("invisible characters: list and dispatch --explain show them; a long name is capped; a line break is not \\n", async () => {
  await using home = await makeHome();
  const hidden = "\u200b\ufeff\u2060\u00ad";
  const longName = "n".repeat(3000);
  await writeHooksJson(home.path, {
    PreToolUse: [
      group([cmd(`echo safe${hidden} | sh`, { name: `guard${hidden}` })], "Bash"),
      group([cmd("curl -s https://example.invalid/x | sh", { name: longName })], "Bash"),
      group([cmd("printf 'a\\n'\nrm -rf /tmp/nothing-i36")], "Bash"),
    ],
  });
  const list = await runCli(["list", "--home", home.path]);
  assertEquals(list.code, 0, list.stderr);
  for (const c of [...hidden]) assert(!list.stdout.includes(c), `U+${c.codePointAt(0)!.toString(16)} printed raw`);
  assertStringIncludes(list.stdout, "echo safe\\u200b\\ufeff\\u2060\\xad | sh");
  // The 3,000-character name is capped with …, so the command stays in sight on its line.
  const line = list.stdout.split("\n").find((l) => l.includes("example.invalid"))!;
  assert(line.length < 200, `${line.length} characters`);
  assertStringIncludes(line, "…");
  // A real line break and a literal \n look different.
  assertStringIncludes(list.stdout, "printf 'a\\n'␤rm -rf /tmp/nothing-i36");
  const explain = await runCli(["dispatch", "--explain", "--home", home.path, "--dangerously-bypass-hook-trust"], {
    stdin: JSON.stringify(event("PreToolUse", { tool_name: "Read" })),
  });
  for (const c of [...hidden]) assert(!explain.stderr.includes(c), `U+${c.codePointAt(0)!.toString(16)} printed raw`);
  assertStringIncludes(explain.stderr, "guard\\u200b\\ufeff\\u2060\\xad");
  assert(!explain.stderr.includes("n".repeat(100)), "the long name is capped in --explain too");
});

Deno.test("after install claude: mind-hooks' own entries are recognised quietly — one line, not one per event", async () => {
  await using u = await claudeUser();
  for (const command of ["mind-hooks", "/opt/mind tools/bin/mind-hooks"]) {
    const install = await runCli(["install", "claude", "--user", "--command", command, "--force"], {
      env: u.env,
    });
    assertEquals(install.code, 0, install.stderr);
    const opts = { env: u.env, cwd: u.work };
    const count = (text: string) => text.split("W_DELEGATING_HOOK").length - 1;
    const list = await runCli(["list", "--home", u.home], opts);
    assertEquals(count(list.stdout), 1, list.stdout);
    const data = (await runCli(["list", "--json", "--home", u.home], opts)).json();
    assertEquals(data.hooks.filter((h: { layer: string }) => h.layer === "claude-user").length, 1);
    const validate = await runCli(["validate", "--home", u.home], opts);
    assert(count(validate.stdout + validate.stderr) <= 1, validate.stderr);
    const doctor = await runCli(["doctor", "--home", u.home], opts);
    assert(count(doctor.stdout) <= 1, doctor.stdout);
    const dispatched = await runCli(["dispatch", "--home", u.home], {
      ...opts,
      stdin: JSON.stringify(event("PreToolUse", { cwd: u.work })),
    });
    assertEquals(count(dispatched.stdout), 1, dispatched.stdout);
  }
});

Deno.test("list: the hooks of a host's own settings say that host runs them itself (a per-layer fact)", async () => {
  await using u = await claudeUser();
  const list = await runCli(["list", "--home", u.home], { env: u.env, cwd: u.work });
  assertEquals(list.code, 0, list.stderr);
  assertStringIncludes(list.stdout, "Claude Code runs these itself; each status below applies when mind");
  assertStringIncludes(list.stdout, "status: untrusted (for mind; Claude Code runs it itself)");
  const data = (await runCli(["list", "--json", "--home", u.home], { env: u.env, cwd: u.work })).json();
  assertEquals(data.hooks.map((h: { layer: string; hostRuns: string | null }) => [h.layer, h.hostRuns]), [
    ["claude-user", "claude"],
  ]);
  // A hook of mind's own layers is mind's alone.
  await writeHooksJson(u.home, { Stop: [group([cmd("echo mine")])] });
  const both = (await runCli(["list", "--json", "--home", u.home], { env: u.env, cwd: u.work })).json();
  assertEquals(both.hooks.find((h: { layer: string }) => h.layer === "user").hostRuns, null);
});
