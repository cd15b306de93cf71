/**
 * `deno task bench`: the performance targets of issue 15 (P1a–P7) and the `serve` soak (P8), each measured and printed with its
 * target and ✓/✗. Whole processes, their cases interleaved (each round runs every case once, so a
 * slow moment of a busy machine hits all of them alike), medians.
 *
 * Options: `--runs N` (rounds of the one-shot cases, default 30), `--quick` (fewer of everything),
 * `--bin PATH` (a compiled mind-hooks instead of `deno run main.ts`) with `--hello-bin PATH` (the
 * compiled bench/hello.ts, its baseline), `--no-host` (skip P7, the real Claude Code), `--install-host` (install
 * Claude Code first, as the interop tests do).
 *
 * P7 runs the real Claude Code when the interop tests installed it (tests/interop/harness.ts); the
 * row says so when it is not there.
 * @module
 */
import { cliWords, median, ROOT, runBare, ServeClient, SHELL, timeRun } from "./lib.ts";
import { parseArgs } from "../src/util/args.ts";
import { serveSoak, SOAK_BOUND_MIB } from "./serve_soak.ts";
import { daemonBench } from "./daemon_bench.ts";

const { options } = parseArgs(Deno.args, {
  runs: { type: "string" },
  quick: { type: "boolean" },
  bin: { type: "string" },
  "hello-bin": { type: "string" },
  "no-host": { type: "boolean" },
  "install-host": { type: "boolean" },
});
const QUICK = options.quick === true;
const RUNS = Number(options.runs ?? (QUICK ? 10 : 30));
const BIN = options.bin as string | undefined;
const CLI = cliWords(BIN);
const HELLO = options["hello-bin"]
  ? [options["hello-bin"] as string]
  : [Deno.execPath(), "run", "-q", "-P", "--no-prompt", "--config", `${ROOT}/deno.json`, `${ROOT}/bench/hello.ts`];
Deno.env.set("SHELL", SHELL);
const ENV = {
  SHELL,
  PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  MIND_REQUIREMENTS: "/nonexistent/requirements.toml",
  // P1–P6 measure the one-shot path: no daemon answers them (the issue-32 rows measure it).
  MIND_HOOKS_DAEMON: "off",
};

async function mind(args: string[], stdin = ""): Promise<void> {
  await timeRun([...CLI, ...args], stdin, ENV);
}

type Hooks = Record<string, unknown[]>;
const group = (matcher: string, commands: string[]) => ({
  matcher,
  hooks: commands.map((command) => ({ type: "command", command })),
});

/** A temp home with `hooks` (every hook trusted), and optionally a trusted project holding `projectHooks`. */
async function setUp(hooks: Hooks, projectHooks?: Hooks): Promise<{ home: string; cwd: string; dirs: string[] }> {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-bench-home-" }));
  const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-bench-cwd-" }));
  await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify({ hooks }));
  if (projectHooks) {
    await Deno.mkdir(`${cwd}/.mind`);
    await Deno.writeTextFile(`${cwd}/.mind/hooks.json`, JSON.stringify({ hooks: projectHooks }));
    await mind(["project", "trust", cwd, "--home", home]);
  }
  await mind(["trust", "--all", "--home", home, "--cwd", cwd]);
  return { home, cwd, dirs: [home, cwd] };
}

function toolEvent(cwd: string, i = 0): string {
  return JSON.stringify({
    session_id: "bench",
    transcript_path: null,
    cwd,
    hook_event_name: "PreToolUse",
    model: "m",
    turn_id: `t${i}`,
    permission_mode: "default",
    tool_name: "exec_command",
    tool_use_id: `u${i}`,
    tool_input: { cmd: "ls" },
  });
}

const NO_MATCH: Hooks = { PostToolUse: [group("Edit", ["true"])] };
const THOUSAND: Hooks = {
  PostToolUse: Array.from(
    { length: 100 },
    (_, g) => group(`tool_${g}`, Array.from({ length: 10 }, (_, h) => `echo ${g}-${h}`)),
  ),
};
const TRIVIAL = "true";
const SLEEP = "sleep 0.2";

const plain = await setUp(NO_MATCH);
const project = await setUp(NO_MATCH, NO_MATCH);
const thousand = await setUp(NO_MATCH, THOUSAND);
const one = await setUp({ PreToolUse: [group("Bash", [TRIVIAL])] });
const eight = await setUp({ PreToolUse: [group("Bash", Array(8).fill(TRIVIAL))] });
const sleepOne = await setUp({ PreToolUse: [group("Bash", [SLEEP])] });
const sleep64 = await setUp({
  PreToolUse: [group("Bash", Array.from({ length: 64 }, (_, i) => `${SLEEP}; echo ${i}`))],
});
const all = [plain, project, thousand, one, eight, sleepOne, sleep64];

/** Interleaved rounds of whole-process cases; returns each case's times. */
async function interleave(
  cases: Record<string, () => Promise<number>>,
  rounds: number,
): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const names = Object.keys(cases);
  for (let r = -2; r < rounds; r++) {
    // Rotate the order too, so that no case always follows the same one.
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + Math.max(r, 0)) % names.length];
      const ms = await cases[name]();
      if (r >= 0) out[name].push(ms);
    }
  }
  return out;
}

const dispatchCase = (s: { home: string; cwd: string }) => () =>
  timeRun([...CLI, "dispatch", "--home", s.home], toolEvent(s.cwd), ENV);

console.error(`bench: one-shot cases, ${RUNS} interleaved rounds${BIN ? ` (binary ${BIN})` : ""}…`);
const oneShot = await interleave({
  hello: () => timeRun(HELLO, "", ENV),
  P1a: dispatchCase(plain),
  P1b: dispatchCase(project),
  P2: dispatchCase(one),
  bare: () => runBare(TRIVIAL, toolEvent(one.cwd)),
  P5: dispatchCase(thousand),
  P6: dispatchCase(eight),
}, RUNS);

console.error("bench: 64 hooks × sleep 0.2 s…");
const sleeps = await interleave({ one: dispatchCase(sleepOne), many: dispatchCase(sleep64) }, QUICK ? 3 : 10);

console.error("bench: serve…");
const serveRounds = QUICK ? 60 : 300;
const serveOne = new ServeClient(["--home", one.home], BIN);
const serveEight = new ServeClient(["--home", eight.home], BIN);
const serve: Record<string, number[]> = { one: [], bareOne: [], eight: [], bareEight: [] };
for (let i = -20; i < serveRounds; i++) {
  const ev = JSON.parse(toolEvent(one.cwd, i));
  const t0 = performance.now();
  const r1 = await serveOne.call("dispatch", ev);
  const d1 = performance.now() - t0;
  const b1 = await runBare(TRIVIAL, JSON.stringify(ev), one.cwd);
  const t1 = performance.now();
  const r8 = await serveEight.call("dispatch", { ...ev, cwd: eight.cwd });
  const d8 = performance.now() - t1;
  const t2 = performance.now();
  await Promise.all(Array.from({ length: 8 }, () => runBare(TRIVIAL, JSON.stringify(ev), eight.cwd)));
  const b8 = performance.now() - t2;
  const runs = (r: unknown) => ((r as { result: { runs: unknown[] } }).result.runs.length);
  if (runs(r1) !== 1 || runs(r8) !== 8) throw new Error(`serve ran ${runs(r1)} and ${runs(r8)} hooks`);
  if (i < 0) continue;
  serve.one.push(d1 - b1);
  serve.bareOne.push(b1);
  serve.eight.push(d8 - b8);
  serve.bareEight.push(b8);
}
await serveOne.close();
await serveEight.close();

console.error(`bench: serve soak (${QUICK ? "20,000" : "100,000"} events)…`);
const soakEvents = QUICK ? 20_000 : 100_000;
const soak = await serveSoak({ events: soakEvents, cli: CLI });

const p7 = options["no-host"] ? { skipped: "--no-host" } : await claudeCost();

// The issue-32 targets: the warm daemon and the cold path, ratios measured side by side in one run.
const daemonRows = await daemonBench({ rounds: RUNS, soakEvents: QUICK ? 20_000 : 100_000, bin: BIN, hello: HELLO });

for (const s of all) for (const d of s.dirs) await Deno.remove(d, { recursive: true }).catch(() => {});

// ---------------------------------------------------------------------------------------------
// The table

const m = (k: string) => median(oneShot[k]);
const ms = (x: number) => `${x.toFixed(1)} ms`;
/** A difference, its sign always shown: `+1.2 ms`, `-3.4 ms`. */
const signedMs = (x: number) => `${x < 0 ? "" : "+"}${ms(x)}`;
const hello = m("hello");
type Row = [id: string, what: string, measured: string, target: string, ok: boolean | null];
const rows: Row[] = [
  [
    "P1a",
    "no-match dispatch, no project, vs Deno hello",
    `${(m("P1a") / hello).toFixed(2)}× (${ms(m("P1a"))})`,
    "≤ 1.5×",
    m("P1a") / hello <= 1.5,
  ],
  [
    "P1b",
    "no-match dispatch, trusted project (no Worker: none of its hooks matches), vs hello",
    `${(m("P1b") / hello).toFixed(2)}× (${ms(m("P1b"))})`,
    "≤ 2.0×",
    m("P1b") / hello <= 2.0,
  ],
  [
    "P2",
    "one trivial hook: dispatch − the same hook bare, vs hello",
    `${((m("P2") - m("bare")) / hello).toFixed(2)}× (${ms(m("P2"))} − ${ms(m("bare"))})`,
    "≤ 1.5×",
    (m("P2") - m("bare")) / hello <= 1.5,
  ],
  [
    "P3",
    "serve: one trivial hook, overhead over the hook bare",
    `${median(serve.one).toFixed(2)} ms (bare ${ms(median(serve.bareOne))})`,
    "≤ 0.5 ms",
    median(serve.one) <= 0.5,
  ],
  [
    "P4",
    "64 hooks × sleep 0.2 s, vs one such hook",
    `${(median(sleeps.many) / median(sleeps.one)).toFixed(2)}× (${ms(median(sleeps.many))} / ${
      ms(median(sleeps.one))
    })`,
    "≤ 1.3×",
    median(sleeps.many) / median(sleeps.one) <= 1.3,
  ],
  [
    "P5",
    "1,000 trusted handlers configured (trusted project), no match, vs P1b",
    `${(m("P5") / m("P1b")).toFixed(2)}× (${ms(m("P5"))})`,
    "≤ 1.2×",
    m("P5") / m("P1b") <= 1.2,
  ],
  [
    "P6a",
    "8 trivial hooks on one event: one-shot total vs hello",
    `${(m("P6") / hello).toFixed(2)}× (${ms(m("P6"))})`,
    "≤ 2.5×",
    m("P6") / hello <= 2.5,
  ],
  [
    "P6b",
    "8 trivial hooks on one event: serve total over the 8 run bare",
    `${median(serve.eight).toFixed(2)} ms (bare ${ms(median(serve.bareEight))})`,
    "≤ 3 ms",
    median(serve.eight) <= 3,
  ],
  [
    "P8",
    `serve soak: resident memory after ${
      soakEvents.toLocaleString("en-US")
    } events (16 pipelined), then after 150 × 1 MiB requests`,
    `${soak.afterEvents.toFixed(0)} MiB, then ${soak.afterLarge.toFixed(0)} MiB (peak ${soak.peakMib.toFixed(0)} MiB)`,
    `≤ ${SOAK_BOUND_MIB} MiB`,
    soak.afterEvents <= SOAK_BOUND_MIB,
  ],
  ...daemonRows,
  "perCall" in p7
    ? [
      "P7",
      "adapter, real Claude Code, per tool call: mind-hooks' entries (`install --sync`), no matching mind hook, over no hook, vs hello",
      `${(p7.perCall / hello).toFixed(2)}× (${signedMs(p7.perCall)} per call; every event registered: ${
        signedMs(p7.everyEvent)
      })`,
      "≤ 1.3×",
      p7.perCall / hello <= 1.3,
    ]
    : ["P7", "adapter, real Claude Code, per tool call, vs hello", `not measured: ${p7.skipped}`, "≤ 1.3×", null],
];

const date = new Date().toISOString().slice(0, 10);
console.log(
  `mind-hooks benchmark, ${date}: ${BIN ? "compiled binary" : "deno run main.ts"}, Deno ${Deno.version.deno}, ` +
    `${navigator.hardwareConcurrency} cores, ${RUNS} interleaved rounds (medians); Deno hello ${ms(hello)}`,
);
console.log("");
console.log("| # | case | measured | target | |");
console.log("| --- | --- | --- | --- | --- |");
for (const [id, what, measured, target, ok] of rows) {
  console.log(`| ${id} | ${what} | ${measured} | ${target} | ${ok === null ? "–" : ok ? "✓" : "✗"} |`);
}

// ---------------------------------------------------------------------------------------------
// P7: the real Claude Code

/**
 * The per-tool-call cost of mind-hooks' delegating entries (`install claude`) when no mind hook
 * matches, over Claude Code with no hooks: the slope of 1 vs 6 tool calls per run (session start and
 * end, paid once, drop out), median of interleaved runs.
 */
async function claudeCost(): Promise<{ perCall: number; everyEvent: number } | { skipped: string }> {
  const harness = await import("../tests/interop/harness.ts");
  if (options["install-host"]) {
    const problem = (await harness.ensurePackages(["claude"])).claude;
    if (problem) return { skipped: problem };
  }
  if (!(await Deno.stat(harness.BIN.claude).then(() => true, () => false))) {
    return { skipped: "Claude Code is not installed (deno task test:interop installs it)" };
  }
  console.error("bench: the real Claude Code…");
  const launcher = BIN ?? harness.launcher();
  const run = async (mode: "none" | "routed" | "synced", calls: number) => {
    const dirs = await harness.makeRunDirs("claude", `bench-${mode}`);
    const env = harness.hostEnv("claude", dirs);
    if (mode !== "none") {
      await Deno.writeTextFile(`${dirs.mind}/hooks.json`, JSON.stringify({ hooks: NO_MATCH }));
      await timeRun([...CLI, "trust", "--all", "--home", dirs.mind], "", env);
      const sync = mode === "synced" ? ["--sync"] : [];
      await timeRun([...CLI, "install", "claude", "--user", "--command", launcher, ...sync], "", { ...env }, dirs.work);
    }
    const r = await harness.runHost("claude", dirs, {
      command: "echo hi {n} > ran.txt",
      finalText: "DONE",
      prompt: "go",
      numbered: true,
      toolTurns: calls,
    });
    await Deno.remove(dirs.root, { recursive: true });
    if (r.code !== 0) throw new Error(`claude ${mode}: exit ${r.code}\n${r.stderr.slice(-1000)}`);
    return r.durationMs;
  };
  const times: Record<string, number[]> = {};
  for (let i = 0; i < (QUICK ? 2 : 5); i++) {
    for (const mode of ["none", "routed", "synced"] as const) {
      for (const calls of [1, 6]) (times[`${mode}${calls}`] ??= []).push(await run(mode, calls));
    }
  }
  const slope = (mode: string) => (median(times[`${mode}6`]) - median(times[`${mode}1`])) / 5;
  return { perCall: slope("synced") - slope("none"), everyEvent: slope("routed") - slope("none") };
}
