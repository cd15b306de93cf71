/**
 * Reading any file the engine reads costs linear time in its size (SPEC §6 r4): an observation log
 * holding one 10 MB line is printed by `logs` (wrapped to 80 columns) and by `logs --json`, and a
 * transcript holding one 10 MB line by `transcript show`. Before, wrapping the record measured the
 * whole rest of the text again for every output line, and `logs` ran for minutes on it; the test
 * kills a run after two minutes, so such a hang fails instead of stalling the suite. The splitter's
 * work is counted in src/util/line_split_test.ts and src/serve/jsonrpc_test.ts.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { makeHome, runCli } from "./helpers/cli.ts";

const MB = 1024 * 1024;
/** Generous: a bound on the test, never on the engine (the linear reading takes a few seconds). */
const KILL_AFTER_MS = 120_000;

Deno.test("logs: an observation log with one 10 MB line is printed whole, wrapped and as JSON", async () => {
  await using home = await makeHome();
  await Deno.mkdir(`${home.path}/logs`, { recursive: true });
  const reason = "why ".repeat(10 * MB / 4);
  const record = {
    timestamp: "2026-12-01T10:00:00.000Z",
    kind: "run",
    session_id: "s1",
    key: "user:/h/hooks.json:Stop:0:0",
    event: "Stop",
    status: "failed",
    duration_ms: 3,
    exit_code: 1,
    reason,
  };
  await Deno.writeTextFile(`${home.path}/logs/hooks.jsonl`, JSON.stringify(record) + "\n");
  const human = await runCli(["logs", "--home", home.path], { killAfterMs: KILL_AFTER_MS });
  assertEquals([human.code, human.stderr], [0, ""]);
  const lines = human.stdout.split("\n").filter((l) => l !== "");
  assert(lines.every((l) => l.length <= 80), "every line fits 80 columns");
  assertEquals(lines.join("").replaceAll(" ", "").split("why").length - 1, 10 * MB / 4);
  const json = await runCli(["logs", "--json", "--home", home.path], { killAfterMs: KILL_AFTER_MS });
  assertEquals(json.code, 0, json.stderr);
  assertEquals(JSON.parse(json.stdout).reason.length, reason.length);
});

Deno.test("transcript show: a transcript with one 10 MB line is read", async () => {
  await using home = await makeHome();
  const path = (await runCli(["transcript", "path", "--session", "s1", "--home", home.path])).stdout.trim();
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  const line = {
    timestamp: "2026-08-01T10:20:30.123Z",
    event: "message.created",
    session_id: "s1",
    turn_id: "t1",
    actor: "user",
    payload: { content: "x".repeat(10 * MB) },
  };
  await Deno.writeTextFile(
    path,
    JSON.stringify(line) + "\n" + JSON.stringify({ ...line, payload: { content: "bye" } }) + "\n",
  );
  const r = await runCli(["transcript", "show", "--session", "s1", "--home", home.path], {
    killAfterMs: KILL_AFTER_MS,
  });
  assertEquals([r.code, r.stderr], [0, ""]);
  assert(r.stdout.includes("bye"), r.stdout.slice(-500));
});
