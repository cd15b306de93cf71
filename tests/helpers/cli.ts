/**
 * Shared helpers for end-to-end tests that drive the real `mind-hooks` CLI:
 * spawning it exactly as `deno task mind-hooks` does (same entry point, same
 * declared permission set), temp homes and projects, valid event inputs for
 * all 14 events (SPEC §5), hook-configuration writers, and shell commands for
 * the hook scripts under `fixtures/hooks/`.
 *
 * The child gets a cleaned environment: every `MIND_*` variable of the caller
 * is dropped (a developer's own `MIND_HOME` or `MIND_PROFILE` must not leak
 * into a test), `MIND_REQUIREMENTS` points at a file that does not exist (so a
 * machine's `/etc/mind/requirements.toml` cannot change results), `HOME` names no
 * folder (the developer's own Claude Code and Codex hooks would load as the
 * foreign user layers) and `SHELL` is `/bin/sh` (a login bash costs ~130 ms per
 * hook on a machine with a heavy profile; the engine itself is shell-agnostic).
 * @module
 */

import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { BUNDLE_PATH, bundleIsFresh } from "../../scripts/bundle.ts";
import { denoDir } from "./deno_dir.ts";

/** The repository root. */
export const REPO: string = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
/** The hook scripts used by the end-to-end tests. */
export const HOOKS_DIR: string = join(REPO, "fixtures", "hooks");

/** What one CLI run gave. */
export type CliResult = {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time of the whole process, in milliseconds. */
  ms: number;
  /** stdout parsed as JSON (throws with the output when it is not). */
  // deno-lint-ignore no-explicit-any
  json<T = any>(): T;
};

/** Options of one CLI run. */
export type CliOptions = {
  /** Text written to stdin (then closed); stdin is empty when absent. */
  stdin?: string;
  /** Extra environment (added to the cleaned environment; a name set to undefined is removed from it). */
  env?: Record<string, string | undefined>;
  /** The process working directory (default: the OS temp dir, never the repo). */
  cwd?: string;
  /** Kill the CLI (SIGTERM) after this many milliseconds: a test of a stall must not stall itself. */
  killAfterMs?: number;
};

/** The environment every CLI run of the tests gets (for tests that start other programs alike). */
export function testEnv(): Record<string, string> {
  return baseEnv();
}

/** The caller's environment without any `MIND_*` variable. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) {
    if (!k.startsWith("MIND_")) env[k] = v;
  }
  // Deno finds its module cache from HOME: a test that gives the CLI another HOME must not make it
  // resolve (and fetch) every npm package again into an empty cache.
  env.DENO_DIR = denoDir();
  env.SHELL = "/bin/sh";
  env.MIND_REQUIREMENTS = "/nonexistent/mind-hooks-tests/requirements.toml";
  // The developer's own ~/.claude/settings.json and ~/.codex/ are layers too (SPEC §2.8 r3): a test sees
  // only the OS user's home it gives (`env: { HOME }`).
  env.HOME = "/nonexistent/mind-hooks-tests/home";
  // No warm daemon (SPEC §13 r4) is started by a test's dispatch unless the test asks for one
  // (`MIND_HOOKS_DAEMON: undefined`): each would outlive its test until its home is removed.
  env.MIND_HOOKS_DAEMON = "off";
  // A test that asks for the daemon must know it answered, whatever the machine's load: the client waits
  // up to 10 s instead of 50 ms before it runs in-process (SPEC §15: deterministic on a busy machine).
  env.MIND_HOOKS_DAEMON_WAIT_MS = "10000";
  return env;
}

/** The cleaned environment with `extra` over it (undefined removes a name). */
function childEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = { ...baseEnv(), ...extra };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env as Record<string, string>;
}

export { denoDir } from "./deno_dir.ts";

let freshBundle: Promise<boolean> | undefined;

/**
 * Refuses to test a stale dispatch bundle: main.ts runs the command line from it, so after an edit of
 * a source it holds, every end-to-end test would test the code as it was before the edit.
 */
export async function assertBundleFresh(): Promise<void> {
  if (!(await (freshBundle ??= bundleIsFresh()))) {
    throw new Error(`${BUNDLE_PATH} is older than its sources: run deno task bundle:gen`);
  }
}

/**
 * Starts `mind-hooks ARGS...` (as {@link runCli} does: same entry point, permissions and cleaned
 * environment) with piped stdin, stdout and stderr, for tests that talk to it while it runs or
 * signal it. The caller must consume its output and wait for it.
 */
export async function spawnCli(args: string[], opts: Omit<CliOptions, "stdin"> = {}): Promise<Deno.ChildProcess> {
  await assertBundleFresh();
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", join(REPO, "deno.json"), join(REPO, "main.ts"), ...args],
    cwd: opts.cwd ?? Deno.env.get("TMPDIR") ?? "/tmp",
    env: childEnv(opts.env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    ...(opts.killAfterMs !== undefined ? { signal: AbortSignal.timeout(opts.killAfterMs) } : {}),
  }).spawn();
}

/** Runs `mind-hooks ARGS...` and collects its exit code and output. */
export async function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  await assertBundleFresh();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", join(REPO, "deno.json"), join(REPO, "main.ts"), ...args],
    cwd: opts.cwd ?? Deno.env.get("TMPDIR") ?? "/tmp",
    env: childEnv(opts.env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    ...(opts.killAfterMs !== undefined ? { signal: AbortSignal.timeout(opts.killAfterMs) } : {}),
  }).spawn();
  const writer = child.stdin.getWriter();
  // The CLI may exit before reading stdin (e.g. a usage error): a broken pipe is not a test failure.
  await writer.write(new TextEncoder().encode(opts.stdin ?? "")).catch(() => {});
  await writer.close().catch(() => {});
  const out = await child.output();
  const ms = performance.now() - started;
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  return {
    code: out.code,
    stdout,
    stderr,
    ms,
    json() {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`stdout is not JSON (exit ${out.code}):\n${stdout.slice(0, 2000)}\nstderr:\n${stderr}`);
      }
    },
  };
}

/**
 * Runs a Deno script of the tests (all permissions) with the CLI's cleaned environment: a library
 * (`mod.ts`) front end seen with exactly what the CLI would see.
 */
export async function runScript(script: string, opts: CliOptions = {}): Promise<CliResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-A", "--no-prompt", "--config", join(REPO, "deno.json"), script],
    cwd: opts.cwd ?? Deno.env.get("TMPDIR") ?? "/tmp",
    env: childEnv(opts.env),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(opts.stdin ?? "")).catch(() => {});
  await writer.close().catch(() => {});
  const started = performance.now();
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  return {
    code: out.code,
    stdout,
    stderr,
    ms: performance.now() - started,
    json() {
      return JSON.parse(stdout);
    },
  };
}

/** A temp directory that removes itself. */
export type TempDir = {
  /** Its real path (keys use real paths). */
  path: string;
  cleanup(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

async function tempDir(prefix: string): Promise<TempDir> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  const cleanup = () => Deno.remove(path, { recursive: true }).catch(() => {});
  return { path, cleanup, [Symbol.asyncDispose]: cleanup };
}

/** A fresh, empty application home (`--home`). */
export function makeHome(): Promise<TempDir> {
  return tempDir("mind-hooks-home-");
}

/** A project directory holding `.mind/` (not yet trusted); `mindDir` is the `.mind` path. */
export async function makeProject(): Promise<TempDir & { mindDir: string }> {
  const dir = await tempDir("mind-hooks-project-");
  const mindDir = join(dir.path, ".mind");
  await Deno.mkdir(mindDir);
  return { ...dir, mindDir };
}

/** A JSON object. */
export type Json = Record<string, unknown>;

/** The 14 events (SPEC §2.2). */
export const EVENT_NAMES = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "PreCompact",
  "PostCompact",
  "SubagentStart",
  "SubagentStop",
  "Stop",
  "Interrupt",
  "Notification",
] as const;
/** One event name. */
export type EventName = typeof EVENT_NAMES[number];

let sessionCounter = 0;

/** A session id unique within this test process (the Stop loop guard counts per session). */
export function sessionId(tag = "s"): string {
  return `e2e-${tag}-${Deno.pid}-${++sessionCounter}`;
}

/**
 * A valid SPEC §5 input for `name`, in the host's form (tool events use the
 * host's canonical `exec_command` tool unless overridden). `overrides` replace
 * or add fields; a value of `undefined` removes the field.
 */
export function event(name: EventName, overrides: Record<string, unknown> = {}): Json {
  const common: Json = {
    session_id: sessionId(),
    transcript_path: null,
    cwd: Deno.env.get("TMPDIR") ?? "/tmp",
    hook_event_name: name,
    model: "gpt-test",
  };
  const turn = { turn_id: "turn-1", permission_mode: "default" };
  const tool = { ...turn, tool_name: "exec_command", tool_input: { cmd: "ls -la" } };
  const extra: Record<EventName, Json> = {
    SessionStart: { permission_mode: "default", source: "startup" },
    SessionEnd: { reason: "other" },
    UserPromptSubmit: { ...turn, prompt: "hello" },
    PreToolUse: { ...tool, tool_use_id: "call-1" },
    PermissionRequest: { ...tool },
    PostToolUse: { ...tool, tool_use_id: "call-1", tool_response: { exit_code: 0, output: "ok" } },
    PostToolUseFailure: { ...tool, tool_use_id: "call-1", error: "exit status 1" },
    PreCompact: { turn_id: "turn-1", trigger: "manual" },
    PostCompact: { turn_id: "turn-1", trigger: "auto" },
    SubagentStart: { ...turn, agent_id: "agent-1", agent_type: "explorer" },
    SubagentStop: {
      ...turn,
      agent_id: "agent-1",
      agent_type: "explorer",
      agent_transcript_path: null,
      stop_hook_active: false,
      last_assistant_message: "done",
    },
    Stop: { ...turn, stop_hook_active: false, last_assistant_message: "done" },
    Interrupt: { ...turn },
    Notification: { message: "mind needs your permission to use Bash", notification_type: "permission_prompt" },
  };
  const out: Json = { ...common, ...extra[name] };
  if (name === "SessionEnd") delete out.model;
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** POSIX single-quoting, for building hook command lines. */
export function shq(word: string): string {
  return "'" + word.replaceAll("'", `'"'"'`) + "'";
}

/** The interpreter for the Python hooks: the system one when present (a pyenv shim adds ~60 ms per run). */
export const PYTHON: string = (() => {
  for (const p of ["/usr/bin/python3", "/usr/local/bin/python3"]) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch { /* not here */ }
  }
  return "python3";
})();

/** A command line running the shell fixture `name` with `args` (and optional env assignments first). */
export function shHook(name: string, args: string[] = [], env: Record<string, string> = {}): string {
  const assigns = Object.entries(env).map(([k, v]) => `${k}=${shq(v)} `).join("");
  return `${assigns}sh ${shq(join(HOOKS_DIR, name))}${args.map((a) => " " + shq(a)).join("")}`;
}

/** A command line running the Python fixture `name` with `args`. */
export function pyHook(name: string, args: string[] = []): string {
  return `${shq(PYTHON)} ${shq(join(HOOKS_DIR, name))}${args.map((a) => " " + shq(a)).join("")}`;
}

/** A command that prints `output` (a JSON value is serialized) and exits 0; with `opts` it may sleep, write stderr, exit non-zero. */
export function echoHook(
  output: unknown,
  opts: { sleep?: number; stderr?: string; exit?: number } = {},
): string {
  const env: Record<string, string> = { HOOK_OUTPUT: typeof output === "string" ? output : JSON.stringify(output) };
  if (opts.sleep !== undefined) env.HOOK_SLEEP = String(opts.sleep);
  if (opts.stderr !== undefined) env.HOOK_STDERR = opts.stderr;
  if (opts.exit !== undefined) env.HOOK_EXIT = String(opts.exit);
  return shHook("echo_json.sh", [], env);
}

/** One command handler definition. */
export function cmd(command: string, extra: Json = {}): Json {
  return { type: "command", command, ...extra };
}

/** A hooks object: event → matcher groups. */
export type HooksSpec = Partial<Record<string, Json[]>>;

/** One matcher group; `matcher` undefined leaves the field out. */
export function group(handlers: Json[], matcher?: string): Json {
  return matcher === undefined ? { hooks: handlers } : { matcher, hooks: handlers };
}

/** Writes `<dir>/hooks.json` (creating `dir`) and returns its path. */
export async function writeHooksJson(dir: string, hooks: HooksSpec, name = "hooks.json"): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await Deno.writeTextFile(path, JSON.stringify({ hooks }, null, 2));
  return path;
}

/** Writes `<dir>/config.toml` (creating `dir`) and returns its path. */
export async function writeConfigToml(dir: string, text: string): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, "config.toml");
  await Deno.writeTextFile(path, text);
  return path;
}

/** Runs `mind-hooks trust --all` for `home` (project searched from `cwd`); `args` adds e.g. `--hooks-file`. */
export async function trustAll(home: string, cwd?: string, args: string[] = []): Promise<CliResult> {
  const res = await runCli(["trust", "--all", "--home", home, ...(cwd ? ["--cwd", cwd] : []), ...args]);
  if (res.code !== 0) throw new Error(`trust --all failed (${res.code}): ${res.stderr}`);
  return res;
}

/**
 * Trusts the project at `root` (`project trust`) and then every hook in reach from it (`trust --all`), as a user
 * does before its hooks run; throws when either fails.
 */
export async function trustProject(home: string, root: string): Promise<void> {
  const res = await runCli(["project", "trust", root, "--home", home]);
  if (res.code !== 0) throw new Error(`project trust failed (${res.code}): ${res.stderr}`);
  await trustAll(home, root);
}

/** One run record of a dispatch result (SPEC §9). */
export type RunRecord = {
  key: string;
  layer: string;
  status: string;
  reason: string | null;
  exit_code: number | null;
  duration_ms: number | null;
  statusMessage: string | null;
};

/** A dispatch result (SPEC §9). */
export type DispatchResult = {
  hook_event_name: string;
  decision: null | "allow" | "ask" | "deny" | "block" | "stop";
  reason: string | null;
  continue: boolean;
  stopReason: string | null;
  updatedInput: Json | null;
  continuationPrompt: string | null;
  additionalContext: string[];
  systemMessages: string[];
  asyncResults: Json[];
  envFile: string | null;
  runs: RunRecord[];
  warnings: { code: string; message: string; source: string; line?: number; column?: number }[];
};

/** The fields every dispatch result holds (SPEC §9), in the documented order. */
export const RESULT_FIELDS = [
  "hook_event_name",
  "decision",
  "reason",
  "continue",
  "stopReason",
  "updatedInput",
  "continuationPrompt",
  "additionalContext",
  "systemMessages",
  "asyncResults",
  "envFile",
  "runs",
  "warnings",
] as const;

/**
 * Runs `mind-hooks dispatch --home HOME ARGS...` with `input` on stdin and
 * returns the parsed result (with the raw run as `_cli`); throws (with stderr)
 * unless the exit code is 0.
 */
export async function dispatch(
  home: string,
  input: Json,
  args: string[] = [],
  opts: CliOptions = {},
): Promise<DispatchResult & { readonly _cli: CliResult }> {
  const res = await runCli(["dispatch", "--home", home, ...args], {
    ...opts,
    stdin: JSON.stringify(input),
    env: { MIND_TEMP_DIR: join(home, "tmp-spill"), ...opts.env },
  });
  if (res.code !== 0) throw new Error(`dispatch exited ${res.code}: ${res.stderr}`);
  // `_cli` is not enumerable so that checks of the result's exact field set are not disturbed.
  return Object.defineProperty(res.json<DispatchResult>(), "_cli", { value: res, enumerable: false }) as
    & DispatchResult
    & { readonly _cli: CliResult };
}

/** The run records' keys, in result order. */
export function runKeys(result: DispatchResult): string[] {
  return result.runs.map((r) => r.key);
}

/** The warning codes of a result. */
export function warningCodes(result: DispatchResult): string[] {
  return result.warnings.map((w) => w.code);
}
