/**
 * Tests of the observation log (SPEC §12): what `dispatch` writes to `$MIND_HOME/logs/hooks.jsonl`
 * (one line per discovery warning and per handler run, never a hook's stdin or output), and
 * rotation at the size limit keeping 3 files (unit tests with a small limit).
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { cmd, dispatch, event, group, makeHome, PYTHON, sessionId, shq, writeHooksJson } from "./helpers/cli.ts";
import {
  appendLog,
  LOG_FIELD_MAX,
  LOG_FILES_KEPT,
  LOG_ROTATE_BYTES,
  type LogEntry,
  logPath,
  parseLogLine,
  rotateIfNeeded,
} from "../src/log/observation.ts";

const SECRET_IN = "PROMPT-SECRET-4f1c";
const SECRET_OUT = "OUTPUT-SECRET-9a2e";
const SECRET_ERR = "STDERR-SECRET-77d0";

function readLog(home: string): Record<string, unknown>[] {
  return Deno.readTextFileSync(logPath(home)).trimEnd().split("\n").map((l) => JSON.parse(l));
}

Deno.test({
  name: "dispatch logs one line per discovery warning and per handler run, without stdin or output",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    // The hooks echo their stdin (which holds the prompt) into their output and stderr.
    const echoing = `${shq(PYTHON)} -c ${
      shq(
        `import json,sys; d=json.load(sys.stdin); print(json.dumps({"systemMessage": "${SECRET_OUT} " + d["prompt"], "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "${SECRET_OUT} " + d["prompt"]}}))`,
      )
    }`;
    const failing = `cat; echo ${SECRET_ERR} >&2; exit 1`;
    await writeHooksJson(home.path, {
      UserPromptSubmit: [group([cmd(echoing, { bogusField: true }), cmd(failing)])],
    });
    const r = await dispatch(
      home.path,
      event("UserPromptSubmit", { session_id: sessionId("log"), prompt: `please ${SECRET_IN}` }),
      ["--dangerously-bypass-hook-trust"],
    );
    assertEquals(r.runs.map((x) => x.status), ["completed", "failed"]);
    assert(r.warnings.some((w) => w.code === "W_UNKNOWN_FIELD"), "the config should raise W_UNKNOWN_FIELD");
    assert(r.additionalContext[0].includes(SECRET_IN), "the hook did not see the prompt");

    const lines = readLog(home.path);
    assertEquals(lines.length, r.warnings.length + r.runs.length, "one line per warning and per run");
    const warnings = lines.filter((l) => l.kind === "warning");
    assertEquals(
      warnings.map((w) => [w.code, w.message, w.source]),
      r.warnings.map((w) => [w.code, w.message, w.source]),
    );
    const runs = lines.filter((l) => l.kind === "run");
    assertEquals(
      runs.map((l) => [l.key, l.event, l.status, l.reason, l.exit_code]),
      r.runs.map((x) => [x.key, "UserPromptSubmit", x.status, x.reason, x.exit_code]),
    );
    assertEquals(runs[1].reason, "exit 1");
    for (const l of runs) {
      assertEquals(typeof l.duration_ms, "number");
      assert(typeof l.timestamp === "string" && !Number.isNaN(Date.parse(l.timestamp as string)), "bad timestamp");
    }
    const text = Deno.readTextFileSync(logPath(home.path));
    for (const secret of [SECRET_IN, SECRET_OUT, SECRET_ERR]) {
      assert(!text.includes(secret), `the log holds ${secret}`);
    }

    // The next dispatch appends; the file keeps growing line by line.
    await dispatch(home.path, event("UserPromptSubmit", { session_id: sessionId("log") }), [
      "--dangerously-bypass-hook-trust",
    ]);
    assertEquals(readLog(home.path).length, 2 * lines.length);
  },
});

const run = (i: number): LogEntry & { kind: "run" } => ({
  kind: "run",
  key: `user:/h/hooks.json:Stop:0:${i}`,
  event: "Stop",
  status: "completed",
  duration_ms: i,
  reason: null,
  exit_code: 0,
});

/** The log files present, sorted (the rotation lock file is not a log file). */
function logFiles(home: string): string[] {
  return [...Deno.readDirSync(join(home, "logs"))].map((e) => e.name).filter((n) => !n.startsWith(".")).sort();
}

Deno.test("rotation: at the limit the log moves to .1, .1 to .2, and the oldest is dropped", async () => {
  assertEquals([LOG_ROTATE_BYTES, LOG_FILES_KEPT], [10 * 1024 * 1024, 3]);
  const home = await Deno.makeTempDir();
  try {
    const limit = 400;
    const lineBytes = new TextEncoder().encode(JSON.stringify({ timestamp: new Date().toISOString(), ...run(10) }))
      .length + 1;
    // Write many single-line batches; check the invariants after every one.
    for (let i = 10; i < 60; i++) {
      await appendLog(home, [run(i)], limit);
      const files = logFiles(home);
      assert(files.length <= 3, `more than 3 files: ${files}`);
      for (const f of files) {
        const size = Deno.statSync(join(home, "logs", f)).size;
        assert(size < limit + lineBytes, `${f} grew to ${size} bytes past the ${limit}-byte limit`);
      }
    }
    assertEquals(logFiles(home), ["hooks.jsonl", "hooks.jsonl.1", "hooks.jsonl.2"]);
    // Generations are in order and contiguous: .2 holds the oldest kept lines, then .1, then the live file.
    const read = (f: string) =>
      Deno.readTextFileSync(join(home, "logs", f)).trimEnd().split("\n").map((l) => JSON.parse(l).duration_ms);
    const all = [...read("hooks.jsonl.2"), ...read("hooks.jsonl.1"), ...read("hooks.jsonl")];
    assertEquals(all, Array.from({ length: all.length }, (_, k) => 60 - all.length + k));
    assert(all.length < 50, "nothing was dropped");
    assertEquals(all.at(-1), 59);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("rotateIfNeeded: under the limit nothing moves; a missing file is fine; kept = 1 drops the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "hooks.jsonl");
    await rotateIfNeeded(path, 10); // missing: no error, nothing created
    assertEquals([...Deno.readDirSync(dir)].length, 0);
    await Deno.writeTextFile(path, "123456789");
    await rotateIfNeeded(path, 10);
    assertEquals(Deno.readTextFileSync(path), "123456789", "rotated under the limit");
    await Deno.writeTextFile(path, "0", { append: true }); // exactly at the limit
    await rotateIfNeeded(path, 10);
    assertEquals(Deno.readTextFileSync(`${path}.1`), "1234567890");
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.startsWith("hooks")).sort(), [
      "hooks.jsonl.1",
    ]);
    await Deno.writeTextFile(path, "abcdefghij");
    await rotateIfNeeded(path, 10, 1);
    assert(!(await Deno.stat(path).then(() => true, () => false)), "kept = 1 must drop the live file");
    assertEquals(Deno.readTextFileSync(`${path}.1`), "1234567890", "kept = 1 must not touch other files");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("concurrent rotations do not lose a generation", async () => {
  // Rotations racing on one file over the limit: exactly one may happen, or the older generation
  // is pushed out by a second rotation of the just-rotated file. Repeated, as a race may not show
  // on the first try.
  for (let trial = 0; trial < 10; trial++) {
    const home = await Deno.makeTempDir();
    try {
      const path = logPath(home);
      await Deno.mkdir(join(home, "logs"));
      await Deno.writeTextFile(`${path}.1`, "previous generation\n");
      await Deno.writeTextFile(path, "x".repeat(100) + "\n");
      await Promise.all(Array.from({ length: 8 }, () => rotateIfNeeded(path, 50)));
      assertEquals(Deno.readTextFileSync(`${path}.2`), "previous generation\n", `trial ${trial}`);
      assertEquals(Deno.readTextFileSync(`${path}.1`), "x".repeat(100) + "\n", `trial ${trial}`);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  }
});

Deno.test("appendLog: long reasons are cut; an unwritable home is not an error", async () => {
  const home = await Deno.makeTempDir();
  try {
    await appendLog(home, [{ ...run(1), status: "failed", reason: "r".repeat(5000) }]);
    const [line] = readLog(home);
    assertEquals((line.reason as string).length, LOG_FIELD_MAX + 1);
    assertEquals(Object.keys(line), [
      "timestamp",
      "kind",
      "key",
      "event",
      "status",
      "duration_ms",
      "reason",
      "exit_code",
    ]);
    // A home that is a regular file: nothing can be written, and nothing is thrown.
    const file = join(home, "a-file");
    await Deno.writeTextFile(file, "");
    await appendLog(file, [run(2)]);
    await appendLog(home, []); // nothing to log: the file is untouched
    assertEquals(readLog(home).length, 1);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a torn last line (a full disk, a crash) does not swallow the next record: it is closed first", async () => {
  const home = await Deno.makeTempDir();
  try {
    await appendLog(home, [run(1)]);
    // What a write cut short by a full disk leaves: the start of a line, no line break.
    const torn = JSON.stringify({ timestamp: new Date().toISOString(), ...run(2) }).slice(0, 40);
    await Deno.writeTextFile(logPath(home), torn, { append: true });
    await appendLog(home, [run(3), run(4)]);
    const lines = Deno.readTextFileSync(logPath(home)).split("\n");
    assertEquals(lines.at(-1), "", "the log ends with a line break");
    const record = (l: string) => {
      const r = parseLogLine(l);
      return r?.kind === "run" ? r.duration_ms : `torn: ${l}`;
    };
    assertEquals(lines.slice(0, -1).map(record), [
      1,
      `torn: ${torn}`,
      3,
      4,
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
