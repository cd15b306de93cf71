/**
 * strace, the tests' oracle of what really happens (SPEC §3.5 r4; issue 32): whether it works here, the paths a
 * trace shows opened, and a mind-hooks command line run under it (every thread and child followed).
 */
import { join } from "node:path";
import { REPO, testEnv } from "./cli.ts";

/** Whether strace is installed and may trace here (ptrace can be refused in a container). */
export async function straceWorks(): Promise<boolean> {
  if (Deno.build.os !== "linux") return false;
  try {
    const out = await new Deno.Command("strace", { args: ["-qq", "-e", "trace=execve", "true"], stderr: "null" })
      .output();
    return out.success;
  } catch {
    return false;
  }
}

/** The paths a trace of `open`/`openat` shows opened, in order, repeats kept. */
export function openedPaths(log: string): string[] {
  return [...log.matchAll(/open(?:at)?\((?:[A-Z_]+, )?"([^"]*)"/g)].map((m) => m[1]);
}

/** What a traced run did: its exit code and output, and every path it opened. */
export type TracedRun = { code: number; stdout: string; stderr: string; opened: string[] };

/**
 * Runs `mind-hooks ARGS` (the tests' entry point, permissions and cleaned environment, with `env` over it) with
 * `stdin`, under `strace -f -e trace=open,openat`.
 */
export async function tracedCli(args: string[], stdin = "", env: Record<string, string> = {}): Promise<TracedRun> {
  const log = await Deno.makeTempFile({ prefix: "mind-hooks-strace-" });
  try {
    const child = new Deno.Command("strace", {
      args: ["-f", "-qq", "-e", "trace=open,openat", "-o", log, Deno.execPath(), "run", "-q", "-P", "--no-prompt"]
        .concat(["--config", join(REPO, "deno.json"), join(REPO, "main.ts"), ...args]),
      env: { ...testEnv(), ...env },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(stdin)).catch(() => {});
    await w.close().catch(() => {});
    const out = await child.output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    return {
      code: out.code,
      stdout: text(out.stdout),
      stderr: text(out.stderr),
      opened: openedPaths(await Deno.readTextFile(log)),
    };
  } finally {
    await Deno.remove(log).catch(() => {});
  }
}
