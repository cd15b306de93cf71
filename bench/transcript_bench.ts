/**
 * Transcript append throughput (§15: "transcript appends sustain tens of thousands of events per
 * second in `serve`").
 *
 * Run: `deno run -A bench/transcript_bench.ts [--quick]`
 *
 * Measures, in a fresh temp home:
 * - one process, `TranscriptWriter`, each append awaited before the next (worst case for batching);
 * - one process, `TranscriptWriter`, appends pipelined as `serve` receives them;
 * - one process, `appendTranscript` (open, lock, write, close per line), awaited one by one;
 * - 8 processes appending to one session at once, with each API.
 *
 * Every run checks afterwards that the file holds exactly the lines written.
 *
 * @module
 */

import { appendTranscript, transcriptPath } from "../src/session/transcript.ts";
import type { AppendResult, TranscriptEntry } from "../src/session/transcript_line.ts";
import { TranscriptWriter } from "../src/session/transcript_writer.ts";

type Mode = "writer-seq" | "writer-pipelined" | "append-seq";

/** A typical small event: one chat message of about 100 bytes. */
function entry(sessionId: string, seq: number): TranscriptEntry {
  return {
    sessionId,
    event: "message.created",
    turnId: "turn-0001",
    actor: "assistant",
    payload: {
      content: `message number ${seq}: the quick brown fox jumps over the lazy dog`,
    },
  };
}

/** Appends `count` lines in `mode`; returns [start, end] in epoch ms. */
async function run(
  home: string,
  sessionId: string,
  count: number,
  mode: Mode,
): Promise<[number, number]> {
  const writer = mode === "append-seq" ? null : new TranscriptWriter(home);
  const start = performance.timeOrigin + performance.now();
  let results: AppendResult[] = [];
  if (mode === "writer-pipelined") {
    results = await Promise.all(
      Array.from(
        { length: count },
        (_, seq) => writer!.append(entry(sessionId, seq)),
      ),
    );
  } else {
    for (let seq = 0; seq < count; seq++) {
      results.push(
        writer ? await writer.append(entry(sessionId, seq)) : await appendTranscript(home, entry(sessionId, seq)),
      );
    }
  }
  await writer?.close();
  const end = performance.timeOrigin + performance.now();
  const failed = results.filter((r) => !r.ok).length;
  if (failed > 0) throw new Error(`${failed} appends failed`);
  return [start, end];
}

/** Lines in a session's transcript. */
async function lineCount(home: string, sessionId: string): Promise<number> {
  const text = await Deno.readTextFile(await transcriptPath(home, sessionId));
  return text.split("\n").length - 1;
}

function rate(count: number, ms: number): string {
  return `${Math.round(count / (ms / 1000)).toLocaleString("en-US").padStart(9)} appends/s`;
}

/** One process, in this process. */
async function single(
  home: string,
  label: string,
  mode: Mode,
  count: number,
): Promise<void> {
  const sessionId = `bench_${mode}`;
  const [start, end] = await run(home, sessionId, count, mode);
  const lines = await lineCount(home, sessionId);
  if (lines !== count) {
    throw new Error(`${label}: ${lines} lines, expected ${count}`);
  }
  console.log(
    `${label.padEnd(48)} ${rate(count, end - start)}  (${count} in ${(end - start).toFixed(0)} ms)`,
  );
}

/**
 * `processes` child processes at once on one session. The rate is measured from the first child's
 * first append to the last child's last, so the runtime's start-up is not counted.
 */
async function concurrent(
  home: string,
  label: string,
  mode: Mode,
  processes: number,
  count: number,
): Promise<void> {
  const sessionId = `bench_concurrent_${mode}`;
  const self = new URL(import.meta.url).pathname;
  const children = Array.from(
    { length: processes },
    () =>
      new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          self,
          "--worker",
          home,
          sessionId,
          String(count),
          mode,
        ],
        stdout: "piped",
        stderr: "inherit",
      }).output(),
  );
  const spans = (await Promise.all(children)).map((output) => {
    if (output.code !== 0) throw new Error(`${label}: a worker failed`);
    return JSON.parse(new TextDecoder().decode(output.stdout)) as [
      number,
      number,
    ];
  });
  const start = Math.min(...spans.map((s) => s[0]));
  const end = Math.max(...spans.map((s) => s[1]));
  const total = processes * count;
  const lines = await lineCount(home, sessionId);
  if (lines !== total) {
    throw new Error(`${label}: ${lines} lines, expected ${total}`);
  }
  console.log(
    `${label.padEnd(48)} ${rate(total, end - start)}  (${total} in ${(end - start).toFixed(0)} ms)`,
  );
}

async function main(): Promise<void> {
  const quick = Deno.args.includes("--quick");
  const scale = quick ? 0.1 : 1;
  const n = (count: number) => Math.round(count * scale);
  const home = await Deno.makeTempDir({ prefix: "transcript_bench_" });
  try {
    console.log(
      `deno ${Deno.version.deno}, ${Deno.build.os}/${Deno.build.arch}, ${navigator.hardwareConcurrency} CPUs`,
    );
    await single(
      home,
      "1 process, TranscriptWriter, awaited each",
      "writer-seq",
      n(100_000),
    );
    await single(
      home,
      "1 process, TranscriptWriter, pipelined",
      "writer-pipelined",
      n(200_000),
    );
    await single(
      home,
      "1 process, appendTranscript, awaited each",
      "append-seq",
      n(20_000),
    );
    await concurrent(
      home,
      "8 processes, TranscriptWriter, awaited each",
      "writer-seq",
      8,
      n(20_000),
    );
    await concurrent(
      home,
      "8 processes, TranscriptWriter, pipelined",
      "writer-pipelined",
      8,
      n(50_000),
    );
    await concurrent(
      home,
      "8 processes, appendTranscript, awaited each",
      "append-seq",
      8,
      n(5_000),
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

if (Deno.args[0] === "--worker") {
  const [, home, sessionId, count, mode] = Deno.args;
  console.log(
    JSON.stringify(await run(home, sessionId, Number(count), mode as Mode)),
  );
} else {
  await main();
}
