/**
 * Many processes appending to one session's transcript at once (src/session/transcript.ts's file
 * lock, one-shot and through the writer): every line whole, once, in each process's order. The
 * unit tests are beside the modules (src/session/transcript*_test.ts).
 */

import { assertEquals } from "./helpers/assert.ts";
import { readValidLines, uuidV7, withHome } from "./helpers/transcript.ts";
import { fileURLToPath } from "node:url";
import { transcriptPath } from "../src/session/transcript.ts";

const WORKER = fileURLToPath(
  new URL("./helpers/transcript_worker.ts", import.meta.url),
);

/** Runs `processes` workers appending `count` lines each to one session, all at once. */
async function runWorkers(
  home: string,
  sessionId: string,
  processes: number,
  count: number,
  mode: "append" | "writer",
): Promise<void> {
  const children = Array.from(
    { length: processes },
    (_, worker) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          WORKER,
          home,
          sessionId,
          String(worker),
          String(count),
          mode,
        ],
        stdout: "inherit",
        stderr: "inherit",
      }).output(),
  );
  for (const output of await Promise.all(children)) {
    assertEquals(output.code, 0, "a worker failed");
  }
}

/** Checks that every worker's lines are all there, once each, in order, and all valid. */
async function assertAllLines(
  path: string,
  processes: number,
  count: number,
): Promise<void> {
  const lines = await readValidLines(path);
  assertEquals(lines.length, processes * count);
  const next = new Array(processes).fill(0);
  for (const line of lines) {
    const { worker, seq, text } = line.payload as {
      worker: number;
      seq: number;
      text: string;
    };
    assertEquals(seq, next[worker], `worker ${worker} out of order`);
    assertEquals(text, "x".repeat(seq % 97));
    assertEquals(line.actor, `worker-${worker}`);
    next[worker]++;
  }
  assertEquals(next, new Array(processes).fill(count));
}

Deno.test("8 processes × 2,000 appendTranscript calls: 16,000 whole lines", async () => {
  await withHome(async (home) => {
    const id = uuidV7(new Date());
    await runWorkers(home, id, 8, 2000, "append");
    await assertAllLines(await transcriptPath(home, id), 8, 2000);
  });
});

Deno.test("8 processes × 2,000 TranscriptWriter appends: 16,000 whole lines", async () => {
  await withHome(async (home) => {
    await runWorkers(home, "sid_plain_writer", 8, 2000, "writer");
    await assertAllLines(
      await transcriptPath(home, "sid_plain_writer"),
      8,
      2000,
    );
  });
});
