/**
 * What verifying pinned files costs a dispatch (SPEC §3.5; the bar: 10 pinned files of 10 KB add
 * at most 1 ms). Run: `deno run -A bench/pins_bench.ts [--quick]`.
 *
 * A trusted project whose PreToolUse hook runs `.mind/hooks/guard.sh`, one of 10 files of 10 KB in
 * that folder (all pinned), against the same hook whose script lies outside the project (a pin
 * scope with nothing to pin: the tokeniser runs, nothing is read). Measured:
 * 1. a one-shot dispatch's check, each in a fresh process (cold code, as `mind-hooks dispatch` runs
 *    it): with the home's hash cache valid (a stat per file: the usual case), with no cache (the
 *    first dispatch after a file changed: read and SHA-256 the 10 files, and read the command again),
 *    and the baseline; the check's cost is the difference to the baseline (both load the hasher; the
 *    command reader is loaded only when a hook's kept reading is missing or stale, SPEC §3.5 r3);
 * 2. the same checks in a warm process, and `serve`'s (its in-memory cache);
 * 3. a whole one-shot dispatch's engine time in fresh processes (the hook's own run subtracted), pinned
 *    against baseline, pair by pair.
 * @module
 */
import { loadCatalog } from "../src/config/discovery.ts";
import { checkPins } from "../src/config/pinning.ts";
import { verdictOf } from "../src/trust/verdict.ts";
import { FileHashCache } from "../src/trust/pins.ts";

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname).replace(/\/$/, "");
const CLI = ["run", "-q", "-P", "--no-prompt", "--config", `${ROOT}/deno.json`, `${ROOT}/main.ts`];
const QUICK = Deno.args.includes("--quick");
const N = QUICK ? 200 : 2000;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

async function run(args: string[], env: Record<string, string> = {}): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...CLI, ...args],
    env: { SHELL: "/bin/sh", MIND_REQUIREMENTS: "/nonexistent/r.toml", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** 10 KB of a shell script: a real first line, then comment lines. */
function tenKb(first: string): string {
  let text = first + "\n";
  while (text.length < 10_240) text += "# helper line padding the file to ten kilobytes\n";
  return text.slice(0, 10_239) + "\n";
}

const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-pins-bench-" }));
const home = `${base}/home`;
const repo = `${base}/repo`;
const outside = `${base}/outside`;
await Deno.mkdir(home);
await Deno.mkdir(`${repo}/.mind/hooks`, { recursive: true });
await Deno.mkdir(outside);
await Deno.writeTextFile(`${repo}/.mind/hooks/guard.sh`, tenKb("cat >/dev/null"));
for (let i = 1; i < 10; i++) await Deno.writeTextFile(`${repo}/.mind/hooks/lib${i}.sh`, tenKb(`helper${i}() { :; }`));
await Deno.writeTextFile(`${outside}/guard.sh`, tenKb("cat >/dev/null"));
const hooks = (command: string) =>
  JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } });
await Deno.writeTextFile(`${repo}/.mind/hooks.json`, hooks("sh .mind/hooks/guard.sh"));
await run(["project", "trust", repo, "--home", home]);
const trusted = await run(["trust", "--all", "--home", home, "--cwd", repo]);
// `trust --all` says how many files it pinned in its summary (SPEC §14 r3).
const pinned = Number(/(\d+) pinned files?/.exec(trusted)?.[1] ?? 0);
if (pinned !== 10) throw new Error(`expected 10 pinned files, got ${pinned}:\n${trusted}`);

// 1 and 2: the check in process.
const loaded = await loadCatalog({ home, cwd: repo, requirements: "/nonexistent/r.toml", env: Deno.env.toObject() });
if (!loaded.ok) throw new Error(loaded.error);
const catalog = loaded.value;
const hook = catalog.handlers[0];
const sample = async (cache?: FileHashCache): Promise<number[]> => {
  const ms: number[] = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const verdict = verdictOf(catalog, hook, await checkPins([hook], { cache }));
    ms.push(performance.now() - t);
    if (verdict.status !== "trusted") throw new Error(`the hook is ${verdict.status}: ${verdict.modifiedReason}`);
  }
  return ms;
};
await sample(); // warm the JIT, as a long-lived process is
const cold = await sample();
const cache = new FileHashCache();
await checkPins([hook], { cache });
await new Promise((r) => setTimeout(r, 1100)); // files changed within a second are not cached
const warm = await sample(cache);

// 1: the first check of fresh processes (what `mind-hooks dispatch` pays), interleaved.
const repo2 = `${base}/repo2`;
await Deno.mkdir(`${repo2}/.mind`, { recursive: true });
await Deno.writeTextFile(`${repo2}/.mind/hooks.json`, hooks(`sh ${outside}/guard.sh`));
await run(["project", "trust", repo2, "--home", home]);
await run(["trust", "--all", "--home", home, "--cwd", repo2]);
const probe = `${base}/probe.ts`;
await Deno.writeTextFile(
  probe,
  `import { loadCatalog } from ${JSON.stringify(`${ROOT}/src/config/discovery.ts`)};
import { checkPins } from ${JSON.stringify(`${ROOT}/src/config/pinning.ts`)};
import { verdictOf } from ${JSON.stringify(`${ROOT}/src/trust/verdict.ts`)};
const [home, cwd] = Deno.args;
const loaded = await loadCatalog({ home, cwd, requirements: "/nonexistent/r.toml", env: {} });
if (!loaded.ok) throw new Error(loaded.error);
const c = loaded.value;
const t = performance.now();
const pins = await checkPins([c.handlers[0]], { home });
console.log(performance.now() - t, verdictOf(c, c.handlers[0], pins).status);`,
);
const fresh = async (cwd: string, dropCache: boolean): Promise<number> => {
  if (dropCache) {
    // Only the pinned hook's cache (its file hashes and its kept reading): the baseline keeps its own.
    for (const e of Deno.readDirSync(`${home}/hooks/trusted`)) {
      const path = `${home}/hooks/trusted/${e.name}`;
      if (e.name.endsWith(".hashes.json") && Deno.readTextFileSync(path).includes(`${repo}/`)) Deno.removeSync(path);
    }
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${ROOT}/deno.json`, probe, home, cwd],
    stdout: "piped",
  }).output();
  const [ms, status] = new TextDecoder().decode(out.stdout).trim().split(" ");
  if (status !== "trusted") throw new Error(`probe: ${status}`);
  return Number(ms);
};
await fresh(repo, false); // the files are over a second old now: this one writes the cache
const freshCached: number[] = [];
const freshUncached: number[] = [];
const freshBase: number[] = [];
for (let i = 0; i < (QUICK ? 8 : 30); i++) {
  freshBase.push(await fresh(repo2, false));
  freshCached.push(await fresh(repo, false));
  freshUncached.push(await fresh(repo, true));
  await fresh(repo, false); // restore the cache
}
const diffs = (xs: number[]) => xs.map((x, i) => x - freshBase[i]);

const fmt = (x: number) => `${x.toFixed(3)} ms`;
console.log(`verifying 10 pinned files of 10 KB`);
console.log(`| case | median | p95 |`);
console.log(`| --- | ---: | ---: |`);
const row = (name: string, xs: number[]) =>
  console.log(`| ${name} | ${fmt(quantile(xs, 0.5))} | ${fmt(quantile(xs, 0.95))} |`);
row("fresh process, baseline: a pin scope with nothing to pin (its reading kept)", freshBase);
row("fresh process, hash cache valid (the usual dispatch), over the baseline", diffs(freshCached));
row("fresh process, no cache (files hashed, command read again), over the baseline", diffs(freshUncached));
row(`warm process, no cache (${N} checks)`, cold);
row(`serve, in-memory cache (${N} checks)`, warm);

// 3: whole dispatches in fresh processes, minus the hook's own run (its `duration_ms`): the engine's
// part of a one-shot dispatch, pinned against nothing to pin, interleaved. (A whole-process timing
// is dominated by the hook and the runtime's start, whose noise here is larger than the difference.)
const whole = `${base}/whole.ts`;
await Deno.writeTextFile(
  whole,
  `import { engineDispatch } from ${JSON.stringify(`${ROOT}/src/engine/dispatch.ts`)};
import { resolveSettings } from ${JSON.stringify(`${ROOT}/src/engine/settings.ts`)};
const [home, cwd] = Deno.args;
const event = { session_id: "bench", transcript_path: null, cwd, hook_event_name: "PreToolUse", model: "m",
  turn_id: "t", permission_mode: "default", tool_name: "exec_command", tool_use_id: "u", tool_input: { cmd: "ls" } };
const settings = resolveSettings({ home, requirements: "/nonexistent/r.toml" }, Deno.env.toObject(), cwd);
const t = performance.now();
const out = await engineDispatch(event, settings, { log: false });
const ms = performance.now() - t;
if (!out.ok || out.result.runs[0].status !== "completed") throw new Error(JSON.stringify(out));
console.log(ms - out.result.runs[0].duration_ms!);`,
);
const engine = async (cwd: string): Promise<number> => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${ROOT}/deno.json`, whole, home, cwd],
    env: { SHELL: "/bin/sh" },
    stdout: "piped",
  }).output();
  return Number(new TextDecoder().decode(out.stdout).trim());
};
const wholePinned: number[] = [];
const wholeBase: number[] = [];
for (let i = 0; i < (QUICK ? 8 : 30); i++) {
  wholeBase.push(await engine(repo2));
  wholePinned.push(await engine(repo));
}
console.log(`\n| a one-shot dispatch's engine time, hook run excluded (fresh processes) | median | p95 |`);
console.log(`| --- | ---: | ---: |`);
row("the same hook, nothing to pin", wholeBase);
row("10 pinned files of 10 KB (hash cache valid)", wholePinned);
row("difference, pair by pair", wholePinned.map((x, i) => x - wholeBase[i]));
await Deno.remove(base, { recursive: true });
