/**
 * The observation log's writer (src/log/observation.ts, SPEC §12) with a small limit: rotation
 * keeping 3 files, concurrent rotations, cut reasons, a torn last line. What `dispatch` writes there
 * is tests/log_test.ts.
 */
import { join } from "node:path";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { readLog } from "../../tests/helpers/log.ts";
import {
  appendLog,
  LOG_FIELD_MAX,
  LOG_FILES_KEPT,
  LOG_ROTATE_BYTES,
  type LogEntry,
  logPath,
  parseLogLine,
  rotateIfNeeded,
} from "./observation.ts";

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
