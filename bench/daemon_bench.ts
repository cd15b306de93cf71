/**
 * The targets of issue 32 (the warm daemon and the cold path), as ratios measured side by side in one
 * run: every whole-process case once per round, the rounds interleaved (and their order rotated), so
 * a busy moment of a shared machine hits them all alike; medians. "hello" is `deno run` of a one-line
 * script (bench/hello.ts). `deno task bench` prints these rows after its own; alone:
 * `deno run -A bench/daemon_bench.ts [--runs N] [--soak N]`.
 *
 * - D1 warm: a no-match dispatch answered by the daemon, vs hello (≤ 1.3×)
 * - D2 warm: one trivial trusted project hook, dispatch − the hook bare, vs hello (≤ 1.3×); a
 *   project's hook is a stranger's: the daemon runs it in its warm sandbox Worker of that project's
 *   plan (src/sandbox/warm.ts). D2u: the same hook in the user layer.
 * - D3 warm: 1,000 trusted handlers, no match, vs D1 (≤ 1.1×)
 * - C1 cold (no daemon): no-match vs hello (≤ 2.0×); C2: one trivial project hook over the bare hook,
 *   vs hello (≤ 3.0×); C3: 64 hooks × sleep 0.2 s vs one such hook (≤ 1.5×)
 * - R: the daemon's resident memory after N events sent on its socket (≤ 150 MiB)
 * @module
 */
import { cliWords, median, ROOT, runBare, SHELL, timeRun } from "./lib.ts";
import { LineReader, type Reply, send, socketPath, VERSION } from "../src/daemon/client.ts";

type Hooks = Record<string, unknown[]>;
const group = (matcher: string, commands: string[]) => ({
  matcher,
  hooks: commands.map((command) => ({ type: "command", command })),
});

/** One row: id, what, measured, target, met (null: not measured). */
export type DaemonRow = [id: string, what: string, measured: string, target: string, ok: boolean | null];

/** Options of one run. */
export type DaemonBenchOptions = { rounds: number; soakEvents: number; bin?: string; hello: string[] };

const TRIVIAL = "true";
const SLEEP = "sleep 0.2";
const NO_MATCH: Hooks = { PostToolUse: [group("Edit", ["true"])] };
const THOUSAND: Hooks = {
  PostToolUse: Array.from(
    { length: 100 },
    (_, g) => group(`tool_${g}`, Array.from({ length: 10 }, (_, h) => `echo ${g}-${h}`)),
  ),
};

function toolEvent(cwd: string, i = 0): string {
  return JSON.stringify({
    session_id: "bench-daemon",
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

/** Measures the issue-32 targets; returns the rows (and stops every daemon it started). */
export async function daemonBench(o: DaemonBenchOptions): Promise<DaemonRow[]> {
  const cli = cliWords(o.bin);
  const base = { SHELL, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", MIND_REQUIREMENTS: "/nonexistent/req.toml" };
  const cold = { ...base, MIND_HOOKS_DAEMON: "off" };
  const warm = { ...base };
  const dirs: string[] = [];
  const setUp = async (hooks: Hooks, projectHooks?: Hooks) => {
    const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-bench-home-" }));
    const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-bench-cwd-" }));
    dirs.push(home, cwd);
    await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify({ hooks }));
    if (projectHooks) {
      await Deno.mkdir(`${cwd}/.mind`);
      await Deno.writeTextFile(`${cwd}/.mind/hooks.json`, JSON.stringify({ hooks: projectHooks }));
      await timeRun([...cli, "project", "trust", cwd, "--home", home], "", cold);
    }
    await timeRun([...cli, "trust", "--all", "--home", home, "--cwd", cwd], "", cold);
    return { home, cwd };
  };
  const plain = await setUp(NO_MATCH);
  const thousand = await setUp(THOUSAND);
  const project = await setUp(NO_MATCH, { PreToolUse: [group("exec_command", [TRIVIAL])] });
  const user = await setUp({ PreToolUse: [group("exec_command", [TRIVIAL])] });
  const sleepOne = await setUp({ PreToolUse: [group("exec_command", [SLEEP])] });
  const sleep64 = await setUp({
    PreToolUse: [group("exec_command", Array.from({ length: 64 }, (_, i) => `${SLEEP}; echo ${i}`))],
  });
  const warmHomes = [plain, thousand, project, user];
  for (const s of warmHomes) await timeRun([...cli, "daemon", "start", "--home", s.home], "", warm);
  const run = (s: { home: string; cwd: string }, env: Record<string, string>) => () =>
    timeRun([...cli, "dispatch", "--home", s.home], toolEvent(s.cwd), env, s.cwd);
  try {
    console.error(`bench: issue 32, ${o.rounds} interleaved rounds…`);
    const t = await interleave({
      hello: () => timeRun(o.hello, "", base),
      D1: run(plain, warm),
      D2: run(project, warm),
      D2u: run(user, warm),
      D3: run(thousand, warm),
      C1: run(plain, cold),
      C2: run(project, cold),
      bare: () => runBare(TRIVIAL, toolEvent(project.cwd), project.cwd),
    }, o.rounds);
    console.error("bench: issue 32, 64 hooks × sleep 0.2 s (cold)…");
    const s = await interleave({ one: run(sleepOne, cold), many: run(sleep64, cold) }, Math.max(3, o.rounds >> 2));
    console.error(`bench: issue 32, daemon memory after ${o.soakEvents.toLocaleString("en-US")} events…`);
    const rss = await soak(plain, o.soakEvents);
    return rows(t, s, rss, o.soakEvents);
  } finally {
    for (const s of warmHomes) await timeRun([...cli, "daemon", "stop", "--home", s.home], "", warm).catch(() => {});
    for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
  }
}

/** Interleaved rounds of whole-process cases (two warm-up rounds dropped); each case's times. */
async function interleave(cases: Record<string, () => Promise<number>>, rounds: number) {
  const names = Object.keys(cases);
  const out: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = -2; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + Math.max(r, 0)) % names.length];
      const ms = await cases[name]();
      if (r >= 0) out[name].push(ms);
    }
  }
  return out;
}

/** `events` no-match events sent straight on the daemon's socket (as its client sends them); then its RSS in MiB. */
async function soak(s: { home: string; cwd: string }, events: number): Promise<number> {
  const { path } = socketPath(s.home);
  const status = async (): Promise<Reply> => {
    const conn = await Deno.connect({ transport: "unix", path });
    try {
      await send(conn, { type: "status" });
      return (await new LineReader(conn).next())!;
    } finally {
      conn.close();
    }
  };
  const build = (await status() as Reply & { type: "status" }).build;
  const env = { SHELL, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", MIND_REQUIREMENTS: "/nonexistent/req.toml" };
  for (let i = 0; i < events; i++) {
    const conn = await Deno.connect({ transport: "unix", path });
    try {
      const args = ["--home", s.home];
      await send(conn, {
        type: "dispatch",
        version: VERSION,
        build,
        args,
        cwd: s.cwd,
        env,
        stdin: toolEvent(s.cwd, i),
      });
      const reader = new LineReader(conn);
      const accepted = await reader.next();
      const answer = await reader.next();
      if (accepted?.type !== "accepted" || answer?.type !== "answer") {
        throw new Error(`event ${i}: ${JSON.stringify([accepted, answer])}`);
      }
    } finally {
      conn.close();
    }
  }
  const r = await status();
  return r.type === "status" ? r.rssBytes / 1024 / 1024 : NaN;
}

function rows(
  t: Record<string, number[]>,
  s: Record<string, number[]>,
  rssMib: number,
  soakEvents: number,
): DaemonRow[] {
  const m = (k: string) => median(t[k]);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const hello = m("hello");
  const ratio = (x: number, of: number) => `${(x / of).toFixed(2)}×`;
  const over = (k: string) => m(k) - m("bare");
  const many = median(s.many) / median(s.one);
  return [
    [
      "D1",
      "daemon warm: no-match dispatch, vs hello",
      `${ratio(m("D1"), hello)} (${ms(m("D1"))})`,
      "≤ 1.3×",
      m("D1") / hello <= 1.3,
    ],
    [
      "D2",
      "daemon warm: one trivial trusted project hook (its warm sandbox Worker), dispatch − the hook bare, vs hello",
      `${ratio(over("D2"), hello)} (${ms(m("D2"))} − ${ms(m("bare"))})`,
      "≤ 1.3×",
      over("D2") / hello <= 1.3,
    ],
    [
      "D2u",
      "daemon warm: the same hook in the user layer (answered by the daemon), − the hook bare, vs hello",
      `${ratio(over("D2u"), hello)} (${ms(m("D2u"))} − ${ms(m("bare"))})`,
      "(≤ 1.3×)",
      over("D2u") / hello <= 1.3,
    ],
    [
      "D3",
      "daemon warm: 1,000 trusted handlers, no match, vs D1",
      `${ratio(m("D3"), m("D1"))} (${ms(m("D3"))})`,
      "≤ 1.1×",
      m("D3") / m("D1") <= 1.1,
    ],
    [
      "C1",
      "cold (no daemon): no-match dispatch, vs hello",
      `${ratio(m("C1"), hello)} (${ms(m("C1"))})`,
      "≤ 2.0×",
      m("C1") / hello <= 2.0,
    ],
    [
      "C2",
      "cold: one trivial trusted project hook, dispatch − the hook bare, vs hello",
      `${ratio(over("C2"), hello)} (${ms(m("C2"))} − ${ms(m("bare"))})`,
      "≤ 3.0×",
      over("C2") / hello <= 3.0,
    ],
    [
      "C3",
      "cold: 64 hooks × sleep 0.2 s, vs one such hook",
      `${many.toFixed(2)}× (${ms(median(s.many))} / ${ms(median(s.one))})`,
      "≤ 1.5×",
      many <= 1.5,
    ],
    [
      "R",
      `daemon resident memory after ${soakEvents.toLocaleString("en-US")} no-match events`,
      `${rssMib.toFixed(0)} MiB`,
      "≤ 150 MiB",
      rssMib <= 150,
    ],
  ];
}

if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const i = Deno.args.indexOf(name);
    return i === -1 ? fallback : Number(Deno.args[i + 1]);
  };
  const hello = [
    Deno.execPath(),
    "run",
    "-q",
    "-P",
    "--no-prompt",
    "--config",
    `${ROOT}/deno.json`,
    `${ROOT}/bench/hello.ts`,
  ];
  const result = await daemonBench({ rounds: arg("--runs", 20), soakEvents: arg("--soak", 100_000), hello });
  console.log(
    `issue 32 targets, ${
      new Date().toISOString().slice(0, 10)
    }, Deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores`,
  );
  console.log("| # | case | measured | target | |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [id, what, measured, target, ok] of result) {
    console.log(`| ${id} | ${what} | ${measured} | ${target} | ${ok === null ? "–" : ok ? "✓" : "✗"} |`);
  }
}
