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

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
const CLI = ["run", "-q", "-P", "--no-prompt", "--config", `${ROOT}/deno.json`, `${ROOT}/main.ts`];
const SHELL = "/bin/sh";
const HOOK = "cat >/dev/null";
const QUICK = Deno.args.includes("--quick");

type Json = Record<string, unknown>;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/**
 * A minimal JSON-RPC client over a serve child. It reads lines directly (no stream pipeline, no
 * promise map) so that the client's own machinery adds as little as possible to the round trips.
 */
class Client {
  readonly child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  #buf = "";
  #id = 0;

  constructor(args: string[]) {
    this.child = new Deno.Command(Deno.execPath(), {
      args: [...CLI, "serve", ...args],
      env: { SHELL },
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#writer = this.child.stdin.getWriter();
    this.#reader = this.child.stdout.getReader();
  }

  async #readLine(): Promise<Json> {
    let nl: number;
    while ((nl = this.#buf.indexOf("\n")) < 0) {
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("serve closed its stdout");
      this.#buf += this.#decoder.decode(value, { stream: true });
    }
    const line = this.#buf.slice(0, nl);
    this.#buf = this.#buf.slice(nl + 1);
    return JSON.parse(line);
  }

  /** Sends many requests in one write; returns every response (in completion order). */
  async batch(method: string, params: Json[]): Promise<Json[]> {
    let text = "";
    for (const p of params) text += JSON.stringify({ jsonrpc: "2.0", id: ++this.#id, method, params: p }) + "\n";
    await this.#writer.write(this.#encoder.encode(text));
    const out: Json[] = [];
    while (out.length < params.length) {
      const m = await this.#readLine();
      if (m.error) throw new Error(JSON.stringify(m.error));
      if (m.id !== undefined) out.push(m);
    }
    return out;
  }

  async call(method: string, params: Json): Promise<Json> {
    return (await this.batch(method, [params]))[0];
  }

  async close(): Promise<void> {
    await this.call("shutdown", {}).catch(() => {});
    await this.#writer.close().catch(() => {});
    await this.#reader.cancel().catch(() => {});
    await this.child.status;
  }
}

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
async function runBare(stdin: string): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(SHELL, {
    args: ["-lc", HOOK],
    cwd: "/",
    env: { SHELL, MIND_HOOK_EVENT: "UserPromptSubmit" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  await child.output();
  return performance.now() - started;
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
