/**
 * One dispatch case on every path it can take (SPEC §15 r3 "one behaviour on every path"): the
 * one-shot CLI (the fast path when only the user's files are in reach, else the sandboxed run), the
 * same forced into the sandbox Worker (`MIND_HOOKS_SANDBOX=always`), `serve` (one request), and the
 * library (`mod.ts`, in a child process with the same environment). Results come back with their
 * timings removed, so a test compares them whole.
 * @module
 */
import { join } from "node:path";
import { type CliOptions, type DispatchResult, type Json, REPO, runCli, runScript } from "./cli.ts";

/** The paths a mind-protocol dispatch can take. */
export type DispatchPath = "cli" | "sandbox" | "serve" | "mod";

/** Every path, in the order they are run. */
export const DISPATCH_PATHS: readonly DispatchPath[] = ["cli", "sandbox", "serve", "mod"];

/** A result without what differs from run to run (durations). */
export function stable(result: DispatchResult): DispatchResult {
  return { ...result, runs: result.runs.map((r) => ({ ...r, duration_ms: null })) };
}

/** What a case gives every path: the engine options (as CLI words) and the environment. */
export type PathCase = {
  /** `--home`, `-c`, … as command-line words (serve and mod.ts get them as their own options). */
  args: string[];
  input: Json;
  env?: Record<string, string | undefined>;
  /** The process cwd (default: the OS temp dir). */
  cwd?: string;
};

/** The library options of CLI words (the few the tests use). */
function libraryOptions(args: readonly string[]): Json {
  const out: Json = {};
  const overrides: string[] = [];
  const hooksFiles: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = [args[i], args[i + 1]];
    if (flag === "--home") out.home = value;
    else if (flag === "--cwd") out.cwd = value;
    else if (flag === "--temp-dir") out.tempDir = value;
    else if (flag === "-c") overrides.push(value);
    else if (flag === "--hooks-file") hooksFiles.push(value);
    else throw new Error(`every_path: option ${flag} not supported`);
    i++;
  }
  if (overrides.length) out.config = overrides;
  if (hooksFiles.length) out.hooksFile = hooksFiles;
  return out;
}

async function viaCli(c: PathCase, extraEnv: Record<string, string | undefined>): Promise<DispatchResult> {
  const opts: CliOptions = { stdin: JSON.stringify(c.input), env: { ...c.env, ...extraEnv }, cwd: c.cwd };
  const res = await runCli(["dispatch", ...c.args], opts);
  if (res.code !== 0) throw new Error(`dispatch exited ${res.code}: ${res.stderr}`);
  return res.json<DispatchResult>();
}

async function viaServe(c: PathCase): Promise<DispatchResult> {
  const options = libraryOptions(c.args);
  const lines = [
    { jsonrpc: "2.0", id: 1, method: "dispatch", params: { ...c.input, options } },
    { jsonrpc: "2.0", id: 2, method: "shutdown" },
  ].map((m) => JSON.stringify(m)).join("\n") + "\n";
  const res = await runCli(["serve"], { stdin: lines, env: c.env, cwd: c.cwd });
  const reply = res.stdout.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l)).find((m) => m.id === 1);
  if (!reply || reply.error) throw new Error(`serve: ${JSON.stringify(reply?.error)} ${res.stderr}`);
  return reply.result as DispatchResult;
}

async function viaMod(c: PathCase): Promise<DispatchResult> {
  const { hooksFile, config, ...rest } = libraryOptions(c.args);
  const lib = { ...rest, ...(hooksFile ? { hooksFiles: hooksFile } : {}), ...(config ? { overrides: config } : {}) };
  const script = join(REPO, "tests", "helpers", "mod_dispatch.ts");
  const res = await runScript(script, {
    stdin: JSON.stringify({ event: c.input, options: lib }),
    env: c.env,
    cwd: c.cwd,
  });
  if (res.code !== 0) throw new Error(`mod.ts dispatch exited ${res.code}: ${res.stderr}`);
  return res.json<DispatchResult>();
}

/** Runs the case on `paths` (default every one) and returns each stable result. */
export async function dispatchEveryPath(
  c: PathCase,
  paths: readonly DispatchPath[] = DISPATCH_PATHS,
): Promise<Record<DispatchPath, DispatchResult>> {
  const out: Partial<Record<DispatchPath, DispatchResult>> = {};
  for (const p of paths) {
    const r = p === "cli"
      ? await viaCli(c, {})
      : p === "sandbox"
      ? await viaCli(c, { MIND_HOOKS_SANDBOX: "always" })
      : p === "serve"
      ? await viaServe(c)
      : await viaMod(c);
    out[p] = stable(r);
  }
  return out as Record<DispatchPath, DispatchResult>;
}
