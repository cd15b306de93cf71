/**
 * Runs a host's interactive terminal UI once (tui_driver.ts in tmux, inside the loopback-only network
 * namespace when the machine allows one) for what only the UI shows: Codex's `exec` prints no hook
 * `systemMessage`, its UI does (`↳ Hook · …`).
 * @module
 */
import { BIN, codexConfig, hostEnv, type InteropHost, isolatedCommand, REPO, type RunDirs } from "./harness.ts";
import type { TuiReport, TuiSpec } from "./tui_driver.ts";

const DRIVER = `${REPO}/tests/interop/tui_driver.ts`;

/** True when tmux is installed. */
export async function tmuxAvailable(): Promise<boolean> {
  try {
    return (await new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

/** Runs `host`'s UI in `dirs` until its screen matches `waitFor` (or `timeoutMs`); returns what it showed. */
export async function runHostTui(
  host: InteropHost,
  dirs: RunDirs,
  opts: { prompt: string; command: string; finalText: string; waitFor: RegExp; args?: string[]; timeoutMs?: number },
): Promise<TuiReport> {
  const files: Record<string, string> = {};
  if (host === "codex") {
    // The run's folder trusted in Codex, so that no trust screen stands before the composer.
    files[`${dirs.hostDir}/config.toml`] = `${codexConfig()}\n[projects."${dirs.work}"]\ntrust_level = "trusted"\n`;
  }
  const spec: TuiSpec = {
    bin: BIN[host],
    args: opts.args ?? [],
    cwd: dirs.work,
    env: { ...hostEnv(host, dirs), TERM: "xterm-256color" },
    files,
    command: opts.command,
    finalText: opts.finalText,
    prompt: opts.prompt,
    waitFor: opts.waitFor.source,
    socket: `${dirs.root}/tmux.sock`,
    report: `${dirs.root}/tui-report.json`,
    timeoutMs: opts.timeoutMs ?? 60_000,
  };
  const specPath = `${dirs.root}/tui-spec.json`;
  await Deno.writeTextFile(specPath, JSON.stringify(spec));
  const deno = [Deno.execPath(), "run", "-A", "--config", `${REPO}/deno.json`, DRIVER, specPath];
  const out = await (await isolatedCommand(deno)).output();
  try {
    return JSON.parse(await Deno.readTextFile(spec.report));
  } catch {
    throw new Error(`tui driver failed (exit ${out.code}): ${new TextDecoder().decode(out.stderr).slice(0, 2000)}`);
  }
}
