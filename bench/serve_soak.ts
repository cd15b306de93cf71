/**
 * The `serve` soak (SPEC §15 "memory stays bounded"): one long-lived `serve` (sandboxed, as a host
 * runs it) answers 100,000 pipelined dispatches, then 150 requests of 1 MiB each; its resident
 * memory (VmRSS from `/proc/<pid>/status`, Linux only) is sampled along the way, and the figure after
 * the 100,000 events is held against the bound of 150 MiB. The figure after the large requests is
 * shown, not held against it: what it adds is V8 growing its heap for 1 MiB strings (the live heap
 * after a collection stays under 10 MiB), not memory kept.
 *
 * `deno run -A bench/serve_soak.ts [EVENTS [PIPELINED]] [--main PATH]` prints the samples (`--main` runs another
 * checkout's main.ts, for before/after figures); `deno task bench` and `deno task bench:memory` run
 * it too.
 * @module
 */
import { cliWords, type Json, SHELL } from "./lib.ts";

/** The resident-memory bound the soak is held against, in MiB. */
export const SOAK_BOUND_MIB = 150;

/** One sample: events answered so far and the server's resident memory then. */
export type SoakSample = { events: number; rssMib: number };

/** What one soak measured. */
export type SoakReport = {
  samples: SoakSample[];
  /** RSS after the small events. */
  afterEvents: number;
  /** RSS after the 1 MiB requests as well. */
  afterLarge: number;
  /** Peak RSS (VmHWM) of the whole run. */
  peakMib: number;
  seconds: number;
};

/** A memory figure of `/proc/<pid>/status` (`VmRSS`, `VmHWM`) in MiB. */
async function procMib(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

/** Lines of a child's stdout, read as they come. */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buf = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    buf += text;
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      yield buf.slice(0, nl);
      buf = buf.slice(nl + 1);
    }
  }
}

/**
 * Runs the soak: `events` small dispatches (PreToolUse, no hook matches, 100 sessions in turn),
 * `pipelined` at a time (default 16: a host with parallel subagents), then `large`
 * UserPromptSubmit dispatches of 1 MiB each, one at a time.
 */
export async function serveSoak(
  opts: { events?: number; large?: number; cli?: string[]; sampleEvery?: number; pipelined?: number } = {},
): Promise<SoakReport> {
  const events = opts.events ?? 100_000;
  const large = opts.large ?? 150;
  const every = opts.sampleEvery ?? 10_000;
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-soak-home-" }));
  const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-soak-cwd-" }));
  const words = opts.cli ?? cliWords();
  const env = {
    SHELL,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    MIND_REQUIREMENTS: "/nonexistent/requirements.toml",
  };
  // A configured hook that matches none of the events: discovery and matching run for each.
  await Deno.writeTextFile(
    `${home}/hooks.json`,
    JSON.stringify({ hooks: { PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "true" }] }] } }),
  );
  const child = new Deno.Command(words[0], {
    args: [...words.slice(1), "serve", "--home", home, "--temp-dir", `${home}/tmp`],
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const answers = lines(child.stdout);
  const encoder = new TextEncoder();
  let id = 0;
  const send = async (params: Json[]) => {
    let text = "";
    for (const p of params) text += JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "dispatch", params: p }) + "\n";
    await writer.write(encoder.encode(text));
    for (let got = 0; got < params.length;) {
      const next = await answers.next();
      if (next.done) throw new Error("serve closed its stdout");
      const m = JSON.parse(next.value);
      if (m.error) throw new Error(`serve answered an error: ${JSON.stringify(m.error)}`);
      if (m.id !== undefined) got++;
    }
  };
  const base = { transcript_path: null, cwd, model: "m", permission_mode: "default" };
  const started = performance.now();
  const samples: SoakSample[] = [{ events: 0, rssMib: 0 }];
  try {
    await send([{ ...base, session_id: "soak-0", hook_event_name: "SessionStart", source: "startup" }]);
    samples[0].rssMib = await procMib(child.pid, "VmRSS");
    const BATCH = opts.pipelined ?? 16;
    for (let done = 0; done < events;) {
      const n = Math.min(BATCH, events - done);
      await send(Array.from({ length: n }, (_, i) => ({
        ...base,
        session_id: `soak-${(done + i) % 100}`,
        hook_event_name: "PreToolUse",
        turn_id: `t${done + i}`,
        tool_name: "exec_command",
        tool_use_id: `u${done + i}`,
        tool_input: { cmd: `ls ${done + i}` },
      })));
      done += n;
      if (done % every === 0 || done === events) {
        samples.push({ events: done, rssMib: await procMib(child.pid, "VmRSS") });
      }
    }
    const afterEvents = samples[samples.length - 1].rssMib;
    const prompt = "p".repeat(1024 * 1024);
    for (let i = 0; i < large; i++) {
      await send([{
        ...base,
        session_id: "soak-large",
        hook_event_name: "UserPromptSubmit",
        turn_id: `l${i}`,
        prompt,
      }]);
    }
    const afterLarge = await procMib(child.pid, "VmRSS");
    samples.push({ events: events + large, rssMib: afterLarge });
    const peakMib = await procMib(child.pid, "VmHWM");
    return { samples, afterEvents, afterLarge, peakMib, seconds: (performance.now() - started) / 1000 };
  } finally {
    await writer.close().catch(() => {});
    await child.status;
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.remove(cwd, { recursive: true }).catch(() => {});
  }
}

/** The soak's figures as lines. */
export function soakLines(r: SoakReport, large: number): string[] {
  const mib = (x: number) => `${x.toFixed(0)} MiB`;
  const last = r.samples[r.samples.length - 2] ?? r.samples[0];
  return [
    "serve soak            events     RSS",
    ...r.samples.slice(0, -1).map((s) =>
      `                      ${String(s.events).padStart(7)}  ${mib(s.rssMib).padStart(8)}`
    ),
    `after ${large} × 1 MiB requests      ${mib(r.afterLarge).padStart(8)}`,
    `peak (VmHWM)                  ${mib(r.peakMib).padStart(8)}`,
    `RSS after ${last.events.toLocaleString("en-US")} events: ${mib(r.afterEvents)} (bound ${SOAK_BOUND_MIB} MiB: ${
      r.afterEvents <= SOAK_BOUND_MIB ? "✓" : "✗"
    }), ${r.seconds.toFixed(0)} s`,
  ];
}

if (import.meta.main) {
  const mainAt = Deno.args.indexOf("--main");
  const main = mainAt >= 0 ? Deno.args[mainAt + 1] : undefined;
  const positional = Deno.args.filter((a, i) => a !== "--main" && (mainAt < 0 || i !== mainAt + 1));
  const events = Number(positional[0] ?? 100_000);
  const pipelined = positional[1] === undefined ? undefined : Number(positional[1]);
  const cli = main
    ? [Deno.execPath(), "run", "-q", "-P", "--no-prompt", "--config", `${main}/../deno.json`, main]
    : undefined;
  const report = await serveSoak({ events, cli, pipelined });
  for (const line of soakLines(report, 150)) console.log(line);
}
