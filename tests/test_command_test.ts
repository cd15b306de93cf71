/**
 * `mind-hooks test` end to end (SPEC §16): the real CLI on a real project whose guard
 * (fixtures/testing/guard.sh) denies, rewrites and stays silent; each expectation kind met and unmet,
 * the short form of every event, `--junit` (the XML's structure checked), `--only`, bad test files,
 * `--init`.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  echoHook,
  EVENT_NAMES,
  group,
  makeHome,
  makeProject,
  REPO,
  runCli,
  trustAll,
  writeHooksJson,
} from "./helpers/cli.ts";
import { parseXml, type XmlElement } from "./helpers/xml.ts";
import { join } from "node:path";

const FIXTURES = join(REPO, "fixtures", "testing");

/** A trusted project: an every-event hook at group 0 of each event, the guard and the context hooks after it. */
async function guardedProject() {
  const home = await makeHome();
  const project = await makeProject();
  await Deno.copyFile(join(FIXTURES, "guard.sh"), join(project.mindDir, "guard.sh"));
  const every = group([cmd("cat >/dev/null")]);
  const hooks: Record<string, unknown[]> = Object.fromEntries(EVENT_NAMES.map((e) => [e, [every]]));
  hooks.PreToolUse.push(group([cmd(`sh "$MIND_PROJECT_DIR/.mind/guard.sh"`)], "Bash|Write"));
  hooks.UserPromptSubmit.push(group([cmd(echoHook({
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "deploys need a ticket" },
  }))]));
  hooks.PreCompact.push(group([cmd(echoHook({ continue: false, stopReason: "not now" }))]));
  await writeHooksJson(project.mindDir, hooks as never);
  const trusted = await runCli(["project", "trust", "--home", home.path], { cwd: project.path });
  assertEquals(trusted.code, 0, trusted.stderr);
  await trustAll(home.path, project.path);
  const test = (args: string[]) => runCli(["test", "--home", home.path, "--cwd", project.path, ...args]);
  return {
    home,
    project,
    test,
    [Symbol.asyncDispose]: async () => {
      await home.cleanup();
      await project.cleanup();
    },
  };
}

Deno.test("test (§16): every expectation kind met — decision, reason, context, continue, updatedInput, runs, hosts", async () => {
  await using p = await guardedProject();
  const res = await p.test([join(FIXTURES, "passing.toml")]);
  assertEquals(res.code, 0, res.stdout + res.stderr);
  const lines = res.stdout.trim().split("\n");
  assertEquals(lines.length, 12, res.stdout);
  for (const line of lines.slice(0, 11)) assertMatch(line, /^ok {3}\S*passing\.toml: .+ \(\d+ ms\)$/);
  assertEquals(lines[11], "11 passed, 0 failed");
});

Deno.test("test (§16): every expectation kind unmet is a FAIL line saying what differs; exit 1", async () => {
  await using p = await guardedProject();
  const res = await p.test([join(FIXTURES, "failing.toml")]);
  assertEquals(res.code, 1, res.stderr);
  const out = res.stdout;
  assertStringIncludes(out, "FAIL");
  assertStringIncludes(out, "wrong decision: decision none, expected deny");
  assertStringIncludes(out, 'wrong reason: reason "rm -rf is not allowed" does not match /^nope/');
  assertStringIncludes(out, 'missing context: context lacks "not said" (got ["deploys need a ticket"])');
  assertStringIncludes(out, "wrong continue: continue false, expected true");
  assertStringIncludes(
    out,
    'wrong rewrite: updatedInput {"command":"git push --dry-run"}, expected {"command":"git push --force"}',
  );
  assertMatch(out, /wrong run status: project:\S+hooks\.json:PreToolUse:1:0 completed, expected blocked/);
  assertStringIncludes(out, "wrong decision through claude: decision none, expected deny");
  assert(out.trimEnd().endsWith("0 passed, 7 failed"), out);
});

Deno.test("test (§16): the short form of every event reaches its hooks, filled in as a host would", async () => {
  await using p = await guardedProject();
  const dir = await Deno.makeTempDir({ prefix: "mind-hooks-tests-" });
  try {
    const cases = EVENT_NAMES.map((e) =>
      `[[case]]\nname = "${e}"\nevent = "${e}"\nruns = { "hooks.json:${e}:0:0" = "completed" }\n`
    );
    await Deno.writeTextFile(join(dir, "events.toml"), cases.join("\n"));
    const res = await p.test([dir]);
    assertEquals(res.code, 0, res.stdout + res.stderr);
    assertStringIncludes(res.stdout, `${EVENT_NAMES.length} passed, 0 failed`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The children of `el` named `name`. */
const children = (el: XmlElement, name: string) => el.children.filter((c) => c.name === name);

Deno.test("test --junit (§16): JUnit XML with one testsuite per file and a failure per failed case", async () => {
  await using p = await guardedProject();
  const report = join(p.home.path, "report.xml");
  const res = await p.test(["--junit", report, join(FIXTURES, "passing.toml"), join(FIXTURES, "failing.toml")]);
  assertEquals(res.code, 1, res.stderr);
  const root = parseXml(await Deno.readTextFile(report));
  assertEquals(root.name, "testsuites");
  assertEquals([root.attrs.tests, root.attrs.failures, root.attrs.errors], ["18", "7", "0"]);
  const suites = children(root, "testsuite");
  assertEquals(suites.map((s) => s.attrs.name.split("/").pop()), ["passing.toml", "failing.toml"]);
  for (const suite of suites) {
    const cases = children(suite, "testcase");
    assertEquals(String(cases.length), suite.attrs.tests);
    assertEquals(String(cases.filter((c) => children(c, "failure").length === 1).length), suite.attrs.failures);
    for (const c of cases) {
      assert(c.attrs.name && c.attrs.classname && /^\d+\.\d{3}$/.test(c.attrs.time), JSON.stringify(c.attrs));
    }
  }
  const failure = children(children(suites[1], "testcase")[0], "failure")[0];
  assertEquals(failure.attrs.message, "decision none, expected deny");
});

Deno.test("test --only (§16): the named hook runs alone; the others are not run", async () => {
  await using p = await guardedProject();
  const res = await p.test(["--only", "hooks.json:PreToolUse:1:0", join(FIXTURES, "passing.toml")]);
  assertEquals(res.code, 1, res.stderr);
  assertMatch(res.stdout, /ok {3}\S+: rm -rf is denied with its reason/);
  assertMatch(res.stdout, /FAIL \S+: a prompt gets the team's context: context lacks "deploys need a ticket"/);
  assertMatch(res.stdout, /FAIL \S+: compaction is stopped: decision none, expected stop/);
  const unknown = await p.test(["--only", "NoSuch:0:0"]);
  assertEquals(unknown.code, 1);
  assertMatch(unknown.stderr, /^mind-hooks: --only: unknown hook key: NoSuch:0:0/);
});

Deno.test("test (§16): a bad test file is one line naming file, line and column; nothing runs", async () => {
  await using p = await guardedProject();
  const dir = await Deno.makeTempDir({ prefix: "mind-hooks-tests-" });
  try {
    const bad = join(dir, "bad.toml");
    const cases: [string, RegExp][] = [
      ['[[case]]\nname = "x"\ncommand = "ls"\ndecision = "maybe"\n', /bad\.toml:4:1: case\[0\]\.decision: /],
      ['[[case]]\nname = "x"\ncommand = "ls"\ndecison = "deny"\n', /bad\.toml:1:1: case\[0\]: unknown key decison/],
      ['[[case]]\nname = "x"\ncommand = [\n', /bad\.toml:\d+:\d+: TOML does not parse/],
      ['[[case]]\nname = "x"\nreason = "("\ncommand = "ls"\n', /reason "\(" is not a regular expression/],
    ];
    for (const [text, expected] of cases) {
      await Deno.writeTextFile(bad, text);
      const res = await p.test([bad]);
      assertEquals(res.code, 1, text);
      const said = res.stderr.trim() || res.stdout.trim();
      assertMatch(said, expected);
      if (res.stderr.trim()) assertEquals(res.stderr.trim().split("\n").length, 1, res.stderr);
    }
    const none = await runCli(["test", "--home", p.home.path], { cwd: dir });
    assertEquals(none.code, 1);
    assertStringIncludes(none.stderr, "mind-hooks: no test files");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("test --init (§16): a starter file with one case per hook, which mind-hooks test then runs", async () => {
  await using p = await guardedProject();
  const init = await p.test(["--init"]);
  assertEquals(init.code, 0, init.stderr);
  const path = join(p.project.path, ".mind", "tests", "hooks.toml");
  assertStringIncludes(init.stdout, `wrote ${path}: ${EVENT_NAMES.length + 3} cases, one per hook`);
  const text = await Deno.readTextFile(path);
  assertStringIncludes(
    text,
    `event = "PreToolUse"\ntool = "Bash"\ncommand = "echo hello"\nruns = { ".mind/hooks.json:PreToolUse:0:0" = "completed" }\ndecision = "none"`,
  );
  assertStringIncludes(text, `runs = { ".mind/hooks.json:PreCompact:1:0" = "blocked" }\ndecision = "stop"`);
  const again = await p.test(["--init"]);
  assertEquals(again.code, 1);
  assertStringIncludes(again.stderr, "exists");
  const res = await p.test([]);
  assertEquals(res.code, 0, res.stdout + res.stderr);
  assertStringIncludes(res.stdout, `${EVENT_NAMES.length + 3} passed, 0 failed`);
});

Deno.test("test (§16): hooks not trusted do not run, as in dispatch", async () => {
  await using p = await guardedProject();
  const untrust = await runCli(["untrust", "--all", "--home", p.home.path, "--cwd", p.project.path]);
  assertEquals(untrust.code, 0, untrust.stderr);
  const res = await p.test([join(FIXTURES, "passing.toml")]);
  assertEquals(res.code, 1);
  assertMatch(res.stdout, /FAIL \S+: rm -rf is denied with its reason: decision none, expected deny/);
  assertStringIncludes(res.stdout, `note: ${EVENT_NAMES.length + 3} hooks await trust and will not run`);
});
