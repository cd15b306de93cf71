/**
 * `mind-hooks test --untrusted`, recorded events and `--replay` end to end (SPEC §16): untrusted hooks run
 * only in a throw-away copy and never gain trust; `[hooks] record = true` (user config only) writes each
 * dispatched event 0600, masked and bounded; a replay shows a newly trusted deny guard as
 * "allowed then, denied now".
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, dispatch, event, group, makeHome, makeProject, runCli, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { join } from "node:path";

/** A project whose PreToolUse hook writes a file where it runs, and denies `git push --force`. */
const GUARD = `touch written-by-hook; cat | grep -q 'push --force' && { echo 'no force push' >&2; exit 2; }; exit 0`;

async function setUp(opts: { trustProject: boolean }) {
  const home = await makeHome();
  const project = await makeProject();
  if (opts.trustProject) {
    const r = await runCli(["project", "trust", "--home", home.path], { cwd: project.path });
    assertEquals(r.code, 0, r.stderr);
  }
  return {
    home,
    project,
    [Symbol.asyncDispose]: async () => {
      await home.cleanup();
      await project.cleanup();
    },
  };
}

const CASE = `[[case]]\nname = "force push is denied"\ncommand = "git push --force"\ndecision = "deny"\n`;

Deno.test("test --untrusted (§16): runs them in a throw-away copy after saying which; the project and config.toml untouched", async () => {
  await using s = await setUp({ trustProject: false });
  await writeHooksJson(s.project.mindDir, { PreToolUse: [group([cmd(GUARD)], "Bash")] });
  await Deno.mkdir(join(s.project.mindDir, "tests"));
  await Deno.writeTextFile(join(s.project.mindDir, "tests", "push.toml"), CASE);
  await Deno.writeTextFile(join(s.home.path, "config.toml"), "# mine\n");
  const before = await Deno.readTextFile(join(s.home.path, "config.toml"));
  const args = ["test", "--home", s.home.path, "--cwd", s.project.path];

  // Not trusted: the project's hooks do not load, the case fails.
  const plain = await runCli(args);
  assertEquals(plain.code, 1, plain.stdout + plain.stderr);
  assertStringIncludes(plain.stdout, "decision none, expected deny");
  assertStringIncludes(plain.stdout, `note: project ${s.project.path} is not trusted: its hooks do not load`);

  // No terminal and no --yes: nothing runs.
  const asked = await runCli([...args, "--untrusted"]);
  assertEquals(asked.code, 1);
  assertStringIncludes(asked.stderr, "pass --yes");

  const res = await runCli([...args, "--untrusted", "--yes"]);
  assertEquals(res.code, 0, res.stdout + res.stderr);
  assertMatch(
    res.stdout,
    /^1 hook run untrusted in a throw-away copy of the project \(.+\):\n {2}\.mind\/hooks\.json:PreToolUse:0:0 {2}touch/,
  );
  assertStringIncludes(res.stdout, "1 passed, 0 failed");
  // What it wrote stayed in the copy, which is gone; no trust was recorded anywhere.
  for await (const e of Deno.readDir(s.project.path)) {
    assert(e.name !== "written-by-hook", "the hook wrote into the project");
  }
  assertEquals(await Deno.readTextFile(join(s.home.path, "config.toml")), before);
  const copy = /copy of the project \((.+)\):/.exec(res.stdout)![1];
  let left = true;
  await Deno.stat(copy).catch(() => (left = false));
  assert(!left, `the copy ${copy} was left behind`);
  const list = await runCli(["list", "--home", s.home.path, "--cwd", s.project.path]);
  assertStringIncludes(list.stdout, "NOT trusted");
});

/** Dispatches one PreToolUse Bash event of session `session` in the project. */
function pushEvent(cwd: string, session: string, command: string, extra: Record<string, unknown> = {}) {
  return event("PreToolUse", {
    session_id: session,
    cwd,
    tool_name: "Bash",
    tool_input: { command, ...extra },
  });
}

Deno.test("recording (§16): user config only, 0600, secrets and record_redact keys masked, test runs not recorded", async () => {
  await using s = await setUp({ trustProject: true });
  await writeHooksJson(s.project.mindDir, { PreToolUse: [group([cmd("exit 0")], "Bash")] });
  // A project cannot switch it on.
  await Deno.writeTextFile(join(s.project.mindDir, "config.toml"), "[hooks]\nrecord = true\n");
  await trustAll(s.home.path, s.project.path);
  const recordings = join(s.home.path, "recordings");
  await dispatch(s.home.path, pushEvent(s.project.path, "rec-off", "ls"));
  let exists = true;
  await Deno.stat(recordings).catch(() => (exists = false));
  assert(!exists, "a project switched recording on");

  const config = join(s.home.path, "config.toml");
  await Deno.writeTextFile(
    config,
    (await Deno.readTextFile(config)) + '\n[hooks]\nrecord = true\nrecord_redact = ["^auth", "cookie$"]\n',
  );
  const secrets = { API_TOKEN: "t0", db_password: "p1", authHeader: "a2", session_cookie: "c3", keep: "visible" };
  await dispatch(s.home.path, pushEvent(s.project.path, "rec-on", "echo hi", secrets));
  const file = join(recordings, "rec-on.jsonl");
  assertEquals((await Deno.stat(file)).mode! & 0o777, 0o600);
  const [line] = (await Deno.readTextFile(file)).trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(line.event.tool_input, {
    command: "echo hi",
    API_TOKEN: "<masked>",
    db_password: "<masked>",
    authHeader: "<masked>",
    session_cookie: "<masked>",
    keep: "visible",
  });
  assertEquals(line.event.session_id, "rec-on");
  assertEquals(line.decision, null);

  // A test run's own dispatches are not recorded.
  await Deno.mkdir(join(s.project.mindDir, "tests"));
  await Deno.writeTextFile(join(s.project.mindDir, "tests", "a.toml"), `[[case]]\nname = "a"\ncommand = "ls"\n`);
  const t = await runCli(["test", "--home", s.home.path, "--cwd", s.project.path]);
  assertEquals(t.code, 0, t.stdout + t.stderr);
  const names = [];
  for await (const e of Deno.readDir(recordings)) names.push(e.name);
  assertEquals(names, ["rec-on.jsonl"]);
});

Deno.test("recording (§16): at most 10 MiB per session and 200 MiB in all, the oldest sessions removed first", async () => {
  await using s = await setUp({ trustProject: false });
  await Deno.writeTextFile(join(s.home.path, "config.toml"), "[hooks]\nrecord = true\n");
  const dir = join(s.home.path, "recordings");
  await Deno.mkdir(dir);
  const MiB = 1024 * 1024;
  // Sparse files: their sizes count, their blocks cost nothing.
  const sized = async (name: string, size: number, age: number) => {
    const path = join(dir, name);
    const f = await Deno.open(path, { write: true, create: true, mode: 0o600 });
    await f.truncate(size);
    f.close();
    const t = new Date(Date.now() - age * 1000);
    await Deno.utime(path, t, t);
    return path;
  };
  const oldest = await sized("old-1.jsonl", 95 * MiB, 300);
  const older = await sized("old-2.jsonl", 95 * MiB, 200);
  const full = await sized("full.jsonl", 10 * MiB - 10, 100);
  await dispatch(s.home.path, pushEvent(s.project.path, "full", "ls"));
  assertEquals((await Deno.stat(full)).size, 10 * MiB - 10, "a full session took another event");
  await dispatch(s.home.path, pushEvent(s.project.path, "new", "ls"));
  const left: string[] = [];
  for await (const e of Deno.readDir(dir)) left.push(e.name);
  assertEquals(left.sort(), ["full.jsonl", "new.jsonl", "old-2.jsonl"]);
  let total = 0;
  for (const n of left) total += (await Deno.stat(join(dir, n))).size;
  assert(total <= 200 * MiB, `${total} bytes left`);
  // The oldest went first; the next one fit.
  assertEquals([oldest, older].map((p) => p.split("/").pop()), ["old-1.jsonl", "old-2.jsonl"]);
});

Deno.test("test --replay (§16): a newly trusted deny guard shows as allowed then, denied now; exit 1", async () => {
  await using s = await setUp({ trustProject: true });
  await writeHooksJson(s.project.mindDir, { PreToolUse: [group([cmd("exit 0")], "Bash")] });
  await trustAll(s.home.path, s.project.path);
  const config = join(s.home.path, "config.toml");
  await Deno.writeTextFile(config, (await Deno.readTextFile(config)) + "\n[hooks]\nrecord = true\n");
  for (const c of ["git push --force", "ls"]) await dispatch(s.home.path, pushEvent(s.project.path, "work", c));

  // The guard is added: not trusted yet, so today's configuration decides as before.
  await writeHooksJson(s.project.mindDir, { PreToolUse: [group([cmd("exit 0"), cmd(GUARD)], "Bash")] });
  const replay = (args: string[]) => runCli(["test", "--home", s.home.path, "--cwd", s.project.path, ...args]);
  const unchanged = await replay(["--replay", "work"]);
  assertEquals(unchanged.code, 0, unchanged.stdout + unchanged.stderr);
  assertStringIncludes(unchanged.stdout, 'PreToolUse Bash "git push --force": allowed then, allowed now (unchanged)');

  await trustAll(s.home.path, s.project.path);
  const changed = await replay(["--replay", "work"]);
  assertEquals(changed.code, 1, changed.stderr);
  assertEquals(changed.stdout.trim().split("\n"), [
    'PreToolUse Bash "git push --force": allowed then, denied now by .mind/hooks.json:PreToolUse:0:1',
    'PreToolUse Bash "ls": allowed then, allowed now (unchanged)',
    "2 events replayed, 1 decision changed",
  ]);
  const since = await replay(["--since", "1h"]);
  assertEquals(since.code, 1);
  assertStringIncludes(since.stdout, "allowed then, denied now");
  // Nothing the replayed hooks wrote reached the project; the replay itself was not recorded.
  for await (const e of Deno.readDir(s.project.path)) assert(e.name !== "written-by-hook", "written into the project");
  const names: string[] = [];
  for await (const e of Deno.readDir(join(s.home.path, "recordings"))) names.push(e.name);
  assertEquals(names, ["work.jsonl"]);
});
