/**
 * Adapter overhead: what a tool call costs when a host runs a plain trivial hook directly, versus the same
 * hook routed through `mind-hooks dispatch --protocol claude|codex`.
 *
 * 1. Dispatch side (always): the host's PreToolUse stdin (captured from the real CLIs) piped into
 *    `sh -c 'cat >/dev/null'` vs into `mind-hooks dispatch --protocol <host>` running that same hook.
 * 2. Real hosts (when the interop packages are installed, see tests/interop/harness.ts): a whole
 *    `claude -p` / `codex exec` run with one tool call, the trivial hook registered directly vs through
 *    mind-hooks on every event `install` registers. The difference over the events of one tool-call turn
 *    is the adapter's end-to-end cost.
 *
 * Run: deno run -A bench/adapter_bench.ts [--runs N] [--host-runs N]
 * @module
 */
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../", import.meta.url)).replace(/\/$/, "");
const argRuns = (name: string, dflt: number) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Number(Deno.args[i + 1]) : dflt;
};
const RUNS = argRuns("--runs", 20);
const HOST_RUNS = argRuns("--host-runs", 3);
const TRIVIAL = "cat >/dev/null";

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

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const med = s[Math.floor(s.length / 2)];
  return `median ${med.toFixed(1)} ms (min ${s[0].toFixed(1)}, max ${s.at(-1)!.toFixed(1)}, n=${s.length})`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const home = await Deno.makeTempDir({ prefix: "adapter_bench_" });
await Deno.writeTextFile(
  `${home}/hooks.json`,
  JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: TRIVIAL }] }] } }),
);
const deno = [Deno.execPath(), "run", "-q", "-P", "--no-prompt", "--config", `${REPO}/deno.json`];
const main = Deno.env.get("MIND_HOOKS_TEST_MAIN") ?? `${REPO}/main.ts`;
await new Deno.Command(deno[0], { args: [...deno.slice(1), main, "trust", "--all", "--home", home] }).output();

console.log(`# adapter overhead — dispatch side (${RUNS} runs each)`);
for (const host of ["claude", "codex"] as const) {
  const input = JSON.parse(await Deno.readTextFile(`${REPO}/fixtures/adapter/${host}/PreToolUse.json`));
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
  console.log(`${host}: direct hook   ${stats(direct)}`);
  console.log(
    `${host}: via mind-hooks ${stats(routed)}  → +${(median(routed) - median(direct)).toFixed(1)} ms per hook call`,
  );
}

// Real hosts, when installed.
const { BIN, canIsolateNetwork, cli, hostEnv, launcher, makeRunDirs, runHost } = await import(
  "../tests/interop/harness.ts"
);
const installed = await Promise.all(Object.values(BIN).map((b) => Deno.stat(b).then(() => true, () => false)));
if (!installed.every(Boolean)) {
  console.log("\n# real hosts: not installed (run deno task test:interop once); dispatch side only");
} else {
  console.log(
    `\n# real hosts — one tool-call turn, ${HOST_RUNS} runs each (network ${
      await canIsolateNetwork() ? "isolated" : "not isolated"
    })`,
  );
  for (const host of ["claude", "codex"] as const) {
    const times: Record<string, number[]> = { direct: [], routed: [] };
    for (let i = 0; i < HOST_RUNS; i++) {
      for (const mode of ["direct", "routed"] as const) {
        const dirs = await makeRunDirs(host, `bench-${mode}`);
        await Deno.writeTextFile(
          `${dirs.mind}/hooks.json`,
          JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: TRIVIAL }] }] } }),
        );
        const env = hostEnv(host, dirs);
        await cli(["trust", "--all", "--home", dirs.mind], env);
        if (mode === "routed") await cli(["install", host, "--user", "--command", launcher()], env);
        else {
          const file = host === "claude" ? `${dirs.hostDir}/settings.json` : `${dirs.hostDir}/hooks.json`;
          await Deno.writeTextFile(
            file,
            JSON.stringify({
              hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: TRIVIAL }] }] },
            }),
          );
        }
        const r = await runHost(host, dirs, {
          command: "echo hi > ran.txt",
          finalText: "DONE",
          prompt: "go",
          extraArgs: host === "codex" ? ["--dangerously-bypass-hook-trust"] : [],
        });
        if (r.code !== 0) throw new Error(`${host} ${mode}: exit ${r.code}\n${r.stderr.slice(-1000)}`);
        times[mode].push(r.durationMs);
        await Deno.remove(dirs.root, { recursive: true });
      }
    }
    console.log(`${host}: trivial hook on PreToolUse only        ${stats(times.direct)}`);
    console.log(
      `${host}: mind-hooks on every installed event ${stats(times.routed)}  → +${
        (median(times.routed) - median(times.direct)).toFixed(0)
      } ms per one-tool-call turn`,
    );
  }
}
await Deno.remove(home, { recursive: true });
