/**
 * Child process for the transcript concurrency tests and benchmark: appends `count` lines to one
 * session's transcript and exits 0 when every append succeeded.
 *
 * Usage: `deno run -A tests/helpers/transcript_worker.ts HOME SESSION_ID WORKER COUNT append|writer`
 *
 * Each line's payload is `{ worker, seq }`, so the parent can check that every line arrived once
 * and in order per worker.
 *
 * @module
 */

import { appendTranscript } from "../../src/session/transcript.ts";
import type { TranscriptEntry } from "../../src/session/transcript_line.ts";
import { TranscriptWriter } from "../../src/session/transcript_writer.ts";

const [home, sessionId, workerText, countText, mode] = Deno.args;
const worker = Number(workerText);
const count = Number(countText);

/** The seq-th line of this worker. */
function entry(seq: number): TranscriptEntry {
  return {
    sessionId,
    event: "tool.completed",
    turnId: `turn-${worker}`,
    actor: `worker-${worker}`,
    payload: { worker, seq, text: "x".repeat(seq % 97) },
  };
}

let failures = 0;
if (mode === "writer") {
  // Pipelined, as `serve` sees requests: the writer batches what piles up between writes.
  const writer = new TranscriptWriter(home);
  const results = await Promise.all(
    Array.from({ length: count }, (_, seq) => writer.append(entry(seq))),
  );
  failures = results.filter((r) => !r.ok).length;
  await writer.close();
} else {
  for (let seq = 0; seq < count; seq++) {
    if (!(await appendTranscript(home, entry(seq))).ok) failures++;
  }
}
if (failures > 0) console.error(`${failures} appends failed`);
Deno.exit(failures > 0 ? 1 : 0);
