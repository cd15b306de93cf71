/**
 * `serve` performance (SPEC §15: "`serve` adds under 1 ms per event over running the hooks
 * themselves").
 *
 * Run: `deno run -A bench/serve_bench.ts [--quick]`
 *
 * Measures, in a fresh temp home:
 * 1. per-event overhead: the median round trip of a `dispatch` through `serve` whose only matching
 *    hook is a trivial command (`cat >/dev/null`), minus the median time to run that same command
 *    bare — spawned exactly as the engine spawns it (`$SHELL -lc`, the event JSON on stdin, stdout
 *    and stderr captured) — with the two interleaved so that machine drift hits both alike;
 * 2. the median round trip of a `dispatch` with no matching hook (pure engine cost per event);
 * 3. events per second through `serve` with no matching hook, 10,000 pipelined requests;
 * 4. for scale, the median one-shot `mind-hooks dispatch` with no matching hook (a process per event).
 *
 * Hooks run with `SHELL=/bin/sh` (the bare runs too): a login bash reads profile files that can take
 * hundreds of milliseconds on some machines, noise that would drown the sub-millisecond figure.
 * @module
 */

import { cliWords, median, percentile, runBare as runBareHook, ServeClient as Client, SHELL } from "./lib.ts";

const CLI = cliWords().slice(1);
const HOOK = "cat >/dev/null";
const QUICK = Deno.args.includes("--quick");

type Json = Record<string, unknown>;

function promptEvent(i: number): Json {
  return {
    session_id: "bench-session",
    transcript_path: null,
    cwd: "/",
    hook_event_name: "UserPromptSubmit",
    model: "m",
    turn_id: `t${i}`,
    permission_mode: "default",
    prompt: `prompt number ${i}`,
  };
}

function toolEvent(i: number): Json {
  return {
    session_id: "bench-session",
    transcript_path: null,
    cwd: "/",
    hook_event_name: "PreToolUse",
    model: "m",
    turn_id: `t${i}`,
    permission_mode: "default",
    tool_name: "read_file",
    tool_use_id: `u${i}`,
    tool_input: { path: "README.md" },
  };
}

/** Runs the hook command bare, the way the engine does (shell, stdin, captured output). */
function runBare(stdin: string): Promise<number> {
  return runBareHook(HOOK, stdin);
}

async function main(): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "serve_bench_" });
  try {
    // The hook only on UserPromptSubmit: PreToolUse events match nothing.
    await Deno.writeTextFile(
      `${home}/hooks.json`,
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: HOOK }] }] } }),
    );
    const args = ["--home", home, "--requirements", `${home}/none.toml`, "--dangerously-bypass-hook-trust"];
    const client = new Client(args);
    const rounds = QUICK ? 60 : 500;
    const warmup = 20;

    // 1. Overhead over the bare hook, interleaved.
    const viaServe: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < rounds + warmup; i++) {
      const ev = promptEvent(i);
      const t0 = performance.now();
      const res = await client.call("dispatch", ev);
      const dt = performance.now() - t0;
      const runs = (res.result as { runs: { status: string }[] }).runs;
      if (runs.length !== 1 || runs[0].status !== "completed") {
        throw new Error(`hook did not run: ${JSON.stringify(res)}`);
      }
      const b = await runBare(JSON.stringify(ev));
      if (i >= warmup) {
        viaServe.push(dt);
        bare.push(b);
      }
    }

    // 2. No matching hook, sequential round trips.
    const noHook: number[] = [];
    for (let i = 0; i < rounds + warmup; i++) {
      const t0 = performance.now();
      await client.call("dispatch", toolEvent(i));
      if (i >= warmup) noHook.push(performance.now() - t0);
    }

    // 3. Throughput with no matching hook, pipelined.
    const total = QUICK ? 2000 : 10000;
    await client.batch("dispatch", Array.from({ length: 200 }, (_, i) => toolEvent(i)));
    const t0 = performance.now();
    await client.batch("dispatch", Array.from({ length: total }, (_, i) => toolEvent(i)));
    const seconds = (performance.now() - t0) / 1000;
    await client.close();

    // 4. One-shot dispatch, for scale.
    const oneShot: number[] = [];
    for (let i = 0; i < (QUICK ? 5 : 15); i++) {
      const t = performance.now();
      const child = new Deno.Command(Deno.execPath(), {
        args: [...CLI, "dispatch", ...args],
        env: { SHELL },
        stdin: "piped",
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const w = child.stdin.getWriter();
      await w.write(new TextEncoder().encode(JSON.stringify(toolEvent(i))));
      await w.close();
      const out = await child.output();
      if (out.code !== 0) throw new Error(`one-shot dispatch exited ${out.code}`);
      oneShot.push(performance.now() - t);
    }

    // Paired differences cancel the drift of a busy machine better than a difference of medians.
    const overhead = median(viaServe.map((v, i) => v - bare[i]));
    const f = (x: number) => x.toFixed(3).padStart(8);
    console.log(`serve benchmark (${rounds} rounds after ${warmup} warm-up; SHELL=${SHELL}; hook: ${HOOK})`);
    console.log(
      `  dispatch via serve, 1 trivial hook   median ${f(median(viaServe))} ms   p90 ${f(percentile(viaServe, 90))} ms`,
    );
    console.log(
      `  the same hook run bare               median ${f(median(bare))} ms   p90 ${f(percentile(bare, 90))} ms`,
    );
    console.log(
      `  => serve overhead per event          median ${f(overhead)} ms   (median of paired differences; goal < 1 ms: ${
        overhead < 1 ? "met" : "NOT met"
      })`,
    );
    console.log(`     (difference of the medians:        ${f(median(viaServe) - median(bare))} ms)`);
    console.log(
      `  dispatch via serve, no matching hook median ${f(median(noHook))} ms   p90 ${f(percentile(noHook, 90))} ms`,
    );
    console.log(
      `  throughput, no matching hook         ${
        Math.round(total / seconds).toString().padStart(8)
      } events/s   (${total} pipelined in ${seconds.toFixed(2)} s)`,
    );
    console.log(`  one-shot dispatch, no matching hook  median ${f(median(oneShot))} ms   (a process per event)`);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) await main();
