/**
 * `deno run -A bench/memory.ts`: the engine's peak resident memory (VmHWM, polled from
 * `/proc/<pid>/status` every 10 ms; Linux only) for one-shot dispatches whose hooks flood it
 * (SPEC §15 "memory stays bounded whatever hooks print"), inside the sandbox Worker and without it.
 *
 * Cases: no hook (the baseline); one hook printing 200 MB on stdout; one printing a 50 MB JSON
 * object; 8 hooks printing 50 MB each at once (400 MB in total). Then the `serve` soak
 * (bench/serve_soak.ts): resident memory after 100,000 events, against the 150 MiB bound.
 * @module
 */
import { serveSoak, soakLines } from "./serve_soak.ts";
const repo = decodeURIComponent(new URL("../", import.meta.url).pathname);
const fixtures = `${repo}fixtures/misbehaving`;

/** Runs one dispatch; returns its wall time and the engine's peak RSS in MiB. */
async function measure(home: string, sandbox: "always" | "off"): Promise<{ ms: number; peakMb: number }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", `${repo}deno.json`, `${repo}main.ts`, "dispatch"],
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      SHELL: "/bin/sh",
      MIND_HOME: home,
      MIND_TEMP_DIR: `${home}/spill`,
      MIND_REQUIREMENTS: "/nonexistent/requirements.toml",
      MIND_HOOKS_SANDBOX: sandbox,
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const started = performance.now();
  let peak = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(await Deno.readTextFile(`/proc/${child.pid}/status`))?.[1] ?? 0);
        peak = Math.max(peak, kb);
      } catch { /* exited */ }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify({
    session_id: "mem",
    transcript_path: null,
    cwd: home,
    hook_event_name: "UserPromptSubmit",
    model: "m",
    turn_id: "t",
    permission_mode: "default",
    prompt: "p",
  })));
  await w.close();
  await child.status;
  const ms = performance.now() - started;
  done = true;
  await poll;
  return { ms, peakMb: peak / 1024 };
}

async function homeWith(commands: string[]): Promise<string> {
  const home = await Deno.makeTempDir({ prefix: "mind-mem-" });
  const hooks = commands.length
    ? { UserPromptSubmit: [{ hooks: commands.map((command) => ({ type: "command", command, timeout: 120 })) }] }
    : {};
  await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify({ hooks }));
  const trust = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", `${repo}deno.json`, `${repo}main.ts`, "trust", "--all"],
    env: { MIND_HOME: home, MIND_REQUIREMENTS: "/nonexistent/requirements.toml", SHELL: "/bin/sh" },
    stdout: "null",
  }).output();
  if (!trust.success && commands.length) throw new Error("trust failed");
  return home;
}

const cases: [string, string[]][] = [
  ["no hook", []],
  ["200 MB stdout", [`sh ${fixtures}/flood.sh 200000000`]],
  ["50 MB JSON object", [`sh ${fixtures}/huge_json.sh 50000000`]],
  ["8 hooks x 50 MB at once", Array.from({ length: 8 }, () => `sh ${fixtures}/flood.sh 50000000`)],
];

console.log("case                         sandbox  peak RSS   wall");
for (const [name, commands] of cases) {
  const home = await homeWith(commands);
  try {
    for (const mode of ["always", "off"] as const) {
      const { ms, peakMb } = await measure(home, mode);
      console.log(
        `${name.padEnd(28)} ${mode === "always" ? "Worker " : "off    "}  ${peakMb.toFixed(0).padStart(4)} MiB  ${
          Math.round(ms).toString().padStart(5)
        } ms`,
      );
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

console.log("");
for (const line of soakLines(await serveSoak(), 150)) console.log(line);
