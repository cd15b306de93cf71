/**
 * The screens a new user reads after connecting an agent (issue 36): each says what will happen.
 * End-to-end through the real CLI in temp homes.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, event, group, makeHome, runCli, writeHooksJson } from "./helpers/cli.ts";
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

Deno.test("doctor: the checks first, the permission table last; nothing to fix says the warnings; a broken trust store has one fix", async () => {
  await using home = await makeHome();
  const bare = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-bare-" }));
  try {
    const hermetic = { HOME: bare, PATH: "/usr/bin:/bin" };
    await writeHooksJson(home.path, { Stop: [group([cmd("true", { colour: "blue" })])] });
    assertEquals((await runCli(["trust", "--all", "--home", home.path], { cwd: bare, env: hermetic })).code, 0);
    const ok = await runCli(["doctor", "--home", home.path], { cwd: bare, env: hermetic });
    assertEquals(ok.code, 0, ok.stdout);
    const lines = ok.stdout.trimEnd().split("\n");
    assertEquals(lines[0], "configuration");
    assert(lines.indexOf("sandbox") > lines.indexOf("hosts"), ok.stdout);
    assertEquals(lines.at(-1), "nothing to fix; 1 warning(s) to read: mind-hooks list");
    // A trust store that does not parse: one fix, the file's, and no other that disagrees with it.
    await Deno.writeTextFile(join(home.path, "config.toml"), "[hooks\nstate = 1\n");
    const bad = await runCli(["doctor", "--home", home.path], { cwd: bare, env: hermetic });
    assertEquals(bad.code, 1);
    const fixes = bad.stdout.split("\n").filter((l) => l.startsWith("fix:"));
    assertEquals(fixes.length, 1, bad.stdout);
    assertStringIncludes(fixes[0], "config.toml");
    assert(!fixes[0].includes("still loads"), fixes[0]);
  } finally {
    await Deno.remove(bare, { recursive: true });
  }
});

Deno.test("logs --status and --event filter the runs; a wrong value is a usage error", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    PreToolUse: [group([cmd("exit 3")], "Bash")],
    Stop: [group([cmd("true")])],
  });
  assertEquals((await runCli(["trust", "--all", "--home", home.path])).code, 0);
  for (const ev of [event("PreToolUse", { tool_name: "Bash" }), event("Stop")]) {
    assertEquals((await runCli(["dispatch", "--home", home.path], { stdin: JSON.stringify(ev) })).code, 0);
  }
  const runs = (args: string[]) =>
    runCli(["logs", "--json", "--home", home.path, ...args]).then((r) =>
      r.stdout.trim().split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)).filter((x) => x.kind === "run")
    );
  assertEquals((await runs(["--status", "failed"])).map((r) => r.event), ["PreToolUse"]);
  assertEquals((await runs(["--event", "Stop"])).map((r) => r.status), ["completed"]);
  assertEquals((await runs(["--status", "failed,completed"])).length, 2);
  const none = await runCli(["logs", "--home", home.path, "--event", "Stop", "--status", "failed"]);
  assertEquals(none.code, 1);
  assertStringIncludes(none.stderr, "--status failed --event Stop");
  const bad = await runCli(["logs", "--home", home.path, "--status", "ok"]);
  assertEquals(bad.code, 1);
  assertStringIncludes(bad.stderr, "--status ok: expected completed, blocked, failed, skipped, started");
});

Deno.test("mind-hooks explain points at dispatch --explain", async () => {
  const r = await runCli(["explain"]);
  assertEquals(r.code, 1);
  assertStringIncludes(r.stderr, "did you mean mind-hooks dispatch --explain < event.json");
});

Deno.test("docs: review.md's try-it copies into a folder of its own; README's undo uses what the tour installed", async () => {
  const repoRoot = new URL("../", import.meta.url).pathname;
  const readme = await Deno.readTextFile(`${repoRoot}README.md`);
  const review = await Deno.readTextFile(`${repoRoot}docs/review.md`);
  // The folders the tour makes (mkdir, or cd into a new one).
  const tourFolders = new Set([...readme.matchAll(/mkdir (?:-p )?(~\/[\w.-]+)/g)].map((m) => m[1]));
  assert(tourFolders.has("~/my-repo"), [...tourFolders].join(", "));
  const copies = [...review.matchAll(/^cp -r \S+ (~\/[\w.-]+)/gm)].map((m) => m[1]);
  assert(copies.length > 0, "review.md has its try-it line");
  for (const to of copies) assert(!tourFolders.has(to), `review.md copies into ${to}, which the tour made`);
  // The tour runs Deno as npx -y deno@…; a bare `deno` is never installed by it.
  const undo = readme.slice(readme.indexOf("To undo the tour"));
  assert(!/[`\s]deno task/.test(undo.slice(0, 300)), undo.slice(0, 300));
});
