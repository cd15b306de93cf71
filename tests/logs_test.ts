/**
 * `mind-hooks logs` (issue 16) over the observation log (SPEC §12): one line per run and warning,
 * oldest first across the rotated files; `--session`, `--key` (a key or any tail of one), `--since`
 * (ISO-8601 or a duration) and `--json`; `--follow` prints new records as dispatches log them, across
 * a rotation, until SIGINT. Real dispatches in a temp home; the pure parts: src/cli/logs_test.ts.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cmd, dispatch, event, group, makeHome, REPO, runCli, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { join } from "node:path";

Deno.test("logs: real dispatches, filtered by session, key tail, since; JSON lines; rotated files first", async () => {
  await using home = await makeHome();
  const file = await writeHooksJson(home.path, {
    Stop: [group([cmd("true"), cmd("exit 3")])],
    SessionStart: [group([cmd("true")])],
  });
  await trustAll(home.path);
  await dispatch(home.path, event("Stop", { session_id: "alpha" }));
  await dispatch(home.path, event("SessionStart", { session_id: "beta" }));
  // One record per entry: its continuation lines (indented) joined to it; every line fits 80 columns.
  const logs = async (...args: string[]) => {
    const r = await runCli(["logs", "--home", home.path, ...args]);
    assertEquals([r.code, r.stderr], [0, ""], args.join(" "));
    const lines = r.stdout.split("\n").filter((l) => l !== "");
    assert(lines.every((l) => l.length <= 80), r.stdout);
    return lines.join("\n").replace(/\n {4}/g, "  ").split("\n").map((l) =>
      l.replace(/^\d\d:\d\d:\d\d /, "T ").replace(/^── \d{4}-\d\d-\d\d · /, "── DAY · ").replace(/ +\d+ ms/, " N ms")
    );
  };
  const stop0 = `user:${file}:Stop:0:0`;
  assertEquals(await logs(), [
    "── DAY · session alpha",
    `T  completed N ms  ${file}:Stop:0:0`,
    `T  failed N ms  ${file}:Stop:0:1  (exit 3)`,
    "── DAY · session beta",
    `T  completed N ms  ${file}:SessionStart:0:0`,
  ]);
  assertEquals(await logs("--session", "beta"), [
    "── DAY · session beta",
    `T  completed N ms  ${file}:SessionStart:0:0`,
  ]);
  assertEquals((await logs("--key", "Stop:0:1")).length, 2);
  assertEquals((await logs("--since", "1h")).length, 5);
  // A filter that selects nothing says so, and exits 1 (as grep does).
  const none = await runCli(["logs", "--home", home.path, "--since", "2999-01-01"]);
  assertEquals([none.code, none.stdout, none.stderr], [1, "", "no log entry matched --since 2999-01-01\n"]);
  const nope = await runCli(["logs", "--home", home.path, "--key", "nope"]);
  assertEquals([nope.code, nope.stdout, nope.stderr], [1, "", "no log entry matched --key nope\n"]);
  const json = (await runCli(["logs", "--json", "--home", home.path, "--key", "hooks.json:Stop:0:0"])).stdout;
  const records = json.trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(records.map((r) => [r.kind, r.key, r.status, r.session_id]), [["run", stop0, "completed", "alpha"]]);
  // An older generation is printed first; a torn or foreign line is skipped.
  const old = { timestamp: "2020-01-01T00:00:00.000Z", kind: "run", key: stop0, event: "Stop", status: "skipped" };
  await Deno.writeTextFile(
    join(home.path, "logs", "hooks.jsonl.1"),
    `${JSON.stringify({ ...old, duration_ms: null, reason: "untrusted", exit_code: null })}\n{"torn\n`,
  );
  assertEquals((await logs("--key", stop0)).slice(0, 2), [
    "── DAY · no session",
    `T  skipped         -  ${file}:Stop:0:0  (untrusted)`,
  ]);
  const bad = await runCli(["logs", "--home", home.path, "--since", "yesterday"]);
  assertEquals([bad.code, bad.stdout], [1, ""]);
  assert(bad.stderr.startsWith("mind-hooks: --since yesterday: expected an ISO-8601 time"), bad.stderr);
});

Deno.test("logs: no log yet says so on stderr, exit 0; with a filter, exit 1", async () => {
  await using home = await makeHome();
  const r = await runCli(["logs", "--home", home.path]);
  assertEquals([r.code, r.stdout, r.stderr], [
    0,
    "",
    `no hook has run yet (${home.path}/logs/hooks.jsonl does not exist)\n`,
  ]);
  const key = await runCli(["logs", "--home", home.path, "--key", "nope"]);
  assertEquals([key.code, key.stdout, key.stderr], [
    1,
    "",
    `no log entry matched --key nope (no hook has run yet: ${home.path}/logs/hooks.jsonl does not exist)\n`,
  ]);
});

Deno.test("logs --follow: new records appear as dispatches log them, across a rotation; SIGINT ends it", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, { Stop: [group([cmd("true")])] });
  await trustAll(home.path);
  await dispatch(home.path, event("Stop", { session_id: "first" }));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", join(REPO, "deno.json"), join(REPO, "main.ts")]
      .concat(["logs", "--follow", "--home", home.path]),
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const waitFor = async (text: string) => {
    const end = Date.now() + 15_000;
    while (!seen.includes(text)) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${text}; got:\n${seen}`);
      const { value, done } = await reader.read();
      if (done) throw new Error(`ended before ${text}; got:\n${seen}`);
      seen += value;
    }
  };
  try {
    await waitFor("session first");
    await dispatch(home.path, event("Stop", { session_id: "second" }));
    await waitFor("session second");
    // Rotation: the live file moves to .1 and a new one starts.
    const live = join(home.path, "logs", "hooks.jsonl");
    await Deno.rename(live, `${live}.1`);
    await dispatch(home.path, event("Stop", { session_id: "third" }));
    await waitFor("session third");
    child.kill("SIGINT");
    const { code } = await child.status;
    assertEquals(code, 0);
    assertEquals(seen.split("\n").filter((l) => l.includes("session ")).map((l) => l.split("session ")[1]), [
      "first",
      "second",
      "third",
    ]);
  } finally {
    reader.releaseLock();
    await child.stdout.cancel().catch(() => {});
    await child.stderr.cancel().catch(() => {});
    try {
      child.kill("SIGKILL");
    } catch { /* already ended */ }
  }
});

Deno.test("logs: what a log line holds is shown escaped for the terminal; --json stays JSON", async () => {
  await using home = await makeHome();
  await Deno.mkdir(join(home.path, "logs"));
  const hostile = "evil\u001b[2J\u202egnp.exe\u0085\u2028next";
  const record = {
    timestamp: "2026-01-02T12:00:00.000Z",
    kind: "run",
    key: `user:/h/${hostile}:Stop:0:0`,
    event: "Stop",
    status: "failed",
    duration_ms: 1,
    reason: hostile,
    exit_code: 1,
    session_id: "s",
  };
  await Deno.writeTextFile(join(home.path, "logs", "hooks.jsonl"), JSON.stringify(record) + "\n");
  const human = (await runCli(["logs", "--home", home.path])).stdout;
  const json = (await runCli(["logs", "--json", "--home", home.path])).stdout;
  // deno-lint-ignore no-control-regex -- control characters are what must not be there
  const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/;
  assertEquals([unsafe.test(human), unsafe.test(json)], [false, false]);
  assert(human.includes("evil\\x1b[2J\\u202egnp.exe\\x85\\u2028next"), human);
  assertEquals(JSON.parse(json), record);
});
