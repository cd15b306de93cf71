/**
 * Adapter overhead: what a tool call costs when a host runs a bare trivial hook directly, versus the same
 * hook routed through `mind-hooks dispatch --protocol <host>`, for Claude Code, Codex, Gemini CLI and
 * Copilot CLI.
 *
 * 1. Dispatch side (always): the host's own PreToolUse stdin (captured from the real CLIs) piped into
 *    `sh -c 'cat >/dev/null'` vs into `mind-hooks dispatch --protocol <host>` running that same hook.
 * 2. Real hosts, per tool call (those the interop tests installed, see tests/interop/harness.ts): a whole
 *    non-interactive run against the loopback mock with 1 and with 6 tool calls, in three set-ups — no
 *    hooks; the trivial hook registered directly on every tool event the host raises per call (PreToolUse,
 *    PostToolUse, and Copilot's permissionRequest); mind-hooks' delegating entries on every event `install`
 *    registers, the trivial hook behind them on PreToolUse. The per-call cost is the slope (T6 − T1) / 5 of
 *    the median run times, so session start and end, which both set-ups pay once, drop out.
 *
 * Run: deno run -A bench/adapter_bench.ts [--runs N] [--host-runs N] [--hosts claude,codex,gemini,copilot]
 * @module
 */
import { fileURLToPath } from "node:url";
import { ADAPTERS } from "../src/adapter/hosts.ts";
import { hostEvents } from "../src/adapter/hosts.ts";
import { EVENTS } from "../src/events/registry.ts";
import type { Host as HostName } from "../src/adapter/host_names.ts";

const REPO = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");
const arg = (name: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
};
const RUNS = Number(arg("--runs") ?? 20);
const HOST_RUNS = Number(arg("--host-runs") ?? 3);
const HOSTS = (arg("--hosts") ?? "claude,codex,gemini,copilot").split(",") as HostName[];
const TRIVIAL = "cat >/dev/null";
const FEW = 1;
const MANY = 6;

/** The host's own PreToolUse stdin, captured from the real CLI. */
const PRE_FIXTURE: Record<HostName, string> = {
  claude: "claude/PreToolUse.json",
  codex: "codex/PreToolUse.json",
  gemini: "gemini/BeforeTool.json",
  copilot: "copilot/PreToolUse.json",
};

async function timeSpawn(cmd: string, args: string[], stdin: string, env?: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const child = new Deno.Command(cmd, { args, stdin: "piped", stdout: "null", stderr: "null", env }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(stdin));
  await w.close();
  const st = await child.status;
  if (!st.success) throw new Error(`${cmd} ${args.join(" ")} exited ${st.code}`);
  return performance.now() - t0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${median(s).toFixed(1)} ms (min ${s[0].toFixed(1)}, max ${s.at(-1)!.toFixed(1)}, n=${s.length})`;
}

const TRIVIAL_HOOKS = JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: TRIVIAL }] }] } });
const home = await Deno.makeTempDir({ prefix: "adapter_bench_" });
await Deno.writeTextFile(`${home}/hooks.json`, TRIVIAL_HOOKS);
const deno = [Deno.execPath(), "run", "-q", "-P", "--no-prompt", "--config", `${REPO}/deno.json`];
const main = Deno.env.get("MIND_HOOKS_TEST_MAIN") ?? `${REPO}/main.ts`;
await new Deno.Command(deno[0], { args: [...deno.slice(1), main, "trust", "--all", "--home", home] }).output();

console.log(`# adapter overhead — dispatch side (${RUNS} runs each)`);
for (const host of HOSTS) {
  const input = JSON.parse(await Deno.readTextFile(`${REPO}/fixtures/adapter/${PRE_FIXTURE[host]}`));
  input.cwd = home;
  const stdin = JSON.stringify(input);
  const direct: number[] = [];
  const routed: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    direct.push(await timeSpawn("sh", ["-c", TRIVIAL], stdin));
    routed.push(
      await timeSpawn(deno[0], [...deno.slice(1), main, "dispatch", "--protocol", host, "--home", home], stdin),
    );
  }
  console.log(`${host}: direct hook    ${stats(direct)}`);
  console.log(
    `${host}: via mind-hooks ${stats(routed)}  → +${(median(routed) - median(direct)).toFixed(1)} ms per hook call`,
  );
}

// Real hosts, when installed.
const { BIN, canIsolateNetwork, cli, GEMINI_SETTINGS, hostEnv, launcher, makeRunDirs, runHost } = await import(
  "../tests/interop/harness.ts"
);
const installed: HostName[] = [];
for (const h of HOSTS) if (await Deno.stat(BIN[h]).then(() => true, () => false)) installed.push(h);
for (const h of HOSTS.filter((h) => !installed.includes(h))) {
  console.log(`\n# ${h}: not installed (run deno task test:interop once); dispatch side only`);
}

/** The host's own settings file under its folder. */
const SETTINGS_FILE: Record<HostName, string> = {
  claude: "settings.json",
  codex: "hooks.json",
  gemini: "settings.json",
  copilot: "settings.json",
};

/** The trivial hook on every tool event of the host, in the host's own entry shape. */
function directHooks(host: HostName): Record<string, unknown> {
  const spec = ADAPTERS[host].install;
  const hooks: Record<string, unknown> = {};
  for (const { event, hostEvent } of hostEvents(host)) {
    if (EVENTS[event].matcher.kind !== "tool") continue;
    const handler = { ...spec.handler(event, TRIVIAL), ...(spec.commandField === "bash" ? { bash: TRIVIAL } : {}) };
    hooks[hostEvent] = [spec.layout === "flat" ? handler : { matcher: "*", hooks: [handler] }];
  }
  return hooks;
}

type Mode = "none" | "direct" | "routed";

async function oneRun(host: HostName, mode: Mode, calls: number): Promise<number> {
  const dirs = await makeRunDirs(host, `bench-${mode}`);
  const env = hostEnv(host, dirs);
  if (mode === "routed") {
    await Deno.writeTextFile(`${dirs.mind}/hooks.json`, TRIVIAL_HOOKS);
    await cli(["trust", "--all", "--home", dirs.mind], env);
    await cli(["install", host, "--user", "--command", launcher()], env);
  } else if (mode === "direct") {
    const base = host === "gemini" ? GEMINI_SETTINGS : {};
    const settings = { ...base, hooks: directHooks(host) };
    await Deno.writeTextFile(`${dirs.hostDir}/${SETTINGS_FILE[host]}`, JSON.stringify(settings, null, 2));
  }
  const r = await runHost(host, dirs, {
    command: "echo hi {n} > ran.txt",
    finalText: "DONE",
    prompt: "go",
    numbered: true,
    toolTurns: calls,
    extraArgs: host === "codex" && mode !== "none" ? ["--dangerously-bypass-hook-trust"] : [],
  });
  if (r.code !== 0) throw new Error(`${host} ${mode}: exit ${r.code}\n${r.stderr.slice(-1000)}`);
  await Deno.remove(dirs.root, { recursive: true });
  return r.durationMs;
}

if (installed.length > 0) {
  console.log(
    `\n# real hosts — per tool call: slope of ${FEW} vs ${MANY} calls per run, ${HOST_RUNS} runs each (network ${
      await canIsolateNetwork() ? "isolated" : "not isolated"
    })`,
  );
}
for (const host of installed) {
  const times: Record<string, number[]> = {};
  for (let i = 0; i < HOST_RUNS; i++) {
    // Interleaved, so that a slow moment of the machine hits every set-up alike.
    for (const mode of ["none", "direct", "routed"] as const) {
      for (const calls of [FEW, MANY]) (times[`${mode}${calls}`] ??= []).push(await oneRun(host, mode, calls));
    }
  }
  const perCall = (mode: Mode) => (median(times[`${mode}${MANY}`]) - median(times[`${mode}${FEW}`])) / (MANY - FEW);
  const tools = Object.keys(directHooks(host)).join(" + ");
  for (const mode of ["none", "direct", "routed"] as const) {
    const label = mode === "none"
      ? "no hooks"
      : mode === "direct"
      ? `trivial hook on ${tools}`
      : "mind-hooks installed";
    console.log(
      `${host}: ${label.padEnd(64)} ${FEW} call ${median(times[`${mode}${FEW}`]).toFixed(0)} ms, ${MANY} calls ${
        median(times[`${mode}${MANY}`]).toFixed(0)
      } ms → ${perCall(mode).toFixed(0)} ms per tool call`,
    );
  }
  console.log(
    `${host}: mind-hooks costs ${(perCall("routed") - perCall("direct")).toFixed(0)} ms per tool call more than ` +
      `the bare hook (${(perCall("routed") - perCall("none")).toFixed(0)} ms more than no hooks)`,
  );
}
await Deno.remove(home, { recursive: true });
