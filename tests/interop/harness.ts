/**
 * Shared set-up for driving the real Claude Code and Codex CLIs (interop tests and bench/adapter_bench.ts):
 * installs the npm packages into `.tmp/interop/pkgs/`, lays out a temp HOME per run (host config dir, mind
 * home, work dir), registers hooks, and runs driver.ts inside a loopback-only network namespace (when the
 * machine allows one) so that nothing can leave 127.0.0.1.
 * @module
 */
import { fileURLToPath } from "node:url";
import type { DriverReport, DriverSpec } from "./driver.ts";

/** The repository root. */
export const REPO: string = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
/** Where the packages are installed. */
export const PKG_DIR = `${REPO}/.tmp/interop/pkgs`;
const DRIVER = `${REPO}/tests/interop/driver.ts`;

/** The package specs installed (overridable, e.g. to try a newer release). */
export const PACKAGES: Record<"claude" | "codex", string> = {
  claude: Deno.env.get("MIND_INTEROP_CLAUDE_PKG") ?? "@anthropic-ai/claude-code@^2.1.197",
  codex: Deno.env.get("MIND_INTEROP_CODEX_PKG") ?? "@openai/codex@^0.171.0",
};

/** The CLI entry the tests run: main.ts, or MIND_HOOKS_TEST_MAIN when set. */
export const MAIN: string = Deno.env.get("MIND_HOOKS_TEST_MAIN") ?? `${REPO}/main.ts`;

/** The shell words that start mind-hooks from any directory (hosts run hooks in their own cwd). */
export function launcherWords(): string[] {
  return [Deno.execPath(), "run", "-q", "-P", "--no-prompt", "--config", `${REPO}/deno.json`, MAIN];
}

/** The launcher as one shell command line. */
export function launcher(): string {
  return launcherWords().map((w) => /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'"'"'`)}'`)
    .join(" ");
}

/** Paths of the two host binaries once installed. */
export const BIN = { claude: `${PKG_DIR}/node_modules/.bin/claude`, codex: `${PKG_DIR}/node_modules/.bin/codex` };

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs both packages unless present. Returns null when ready, else the reason they cannot be had
 * (the caller skips with that reason printed).
 */
export async function ensurePackages(): Promise<string | null> {
  if (await exists(BIN.claude) && await exists(BIN.codex)) return null;
  await Deno.mkdir(PKG_DIR, { recursive: true });
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("npm", {
      args: [
        "install",
        "--prefix",
        PKG_DIR,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        PACKAGES.claude,
        PACKAGES.codex,
      ],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(300_000),
    }).output();
  } catch (e) {
    return `npm could not be run: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" | ");
    return `npm install ${PACKAGES.claude} ${PACKAGES.codex} failed: ${err}`;
  }
  for (const bin of Object.values(BIN)) {
    if (!await exists(bin)) return `npm install finished but ${bin} is missing`;
  }
  return null;
}

let netnsChecked: boolean | null = null;

/** True when `unshare -n` (and `ip` to raise loopback) work here. */
export async function canIsolateNetwork(): Promise<boolean> {
  if (netnsChecked !== null) return netnsChecked;
  try {
    const out = await new Deno.Command("unshare", {
      args: ["-n", "sh", "-c", "ip link set lo up"],
      stdout: "null",
      stderr: "null",
    }).output();
    netnsChecked = out.success;
  } catch {
    netnsChecked = false;
  }
  return netnsChecked;
}

/** Runs a command of this repo's CLI (the given env), returning its exit code, stdout and stderr. */
export async function cli(args: string[], env: Record<string, string>, cwd = REPO) {
  const [bin, ...rest] = launcherWords();
  const out = await new Deno.Command(bin, { args: [...rest, ...args], env, cwd, stdout: "piped", stderr: "piped" })
    .output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

/** A laid-out run directory. */
export type RunDirs = { root: string; home: string; mind: string; work: string; hostDir: string };

/** Creates a fresh run directory under .tmp/interop/runs/ (not /tmp: Codex refuses helper files there). */
export async function makeRunDirs(host: "claude" | "codex", label: string): Promise<RunDirs> {
  const base = `${REPO}/.tmp/interop/runs`;
  await Deno.mkdir(base, { recursive: true });
  const root = await Deno.makeTempDir({ dir: base, prefix: `${host}-${label}-` });
  const dirs = {
    root,
    home: `${root}/home`,
    mind: `${root}/mind`,
    work: `${root}/work`,
    hostDir: host === "claude" ? `${root}/home/.claude` : `${root}/home/.codex`,
  };
  for (const d of [dirs.home, dirs.mind, dirs.work, dirs.hostDir]) await Deno.mkdir(d, { recursive: true });
  return dirs;
}

/** The environment a host runs with: nothing of ours leaks in, every optional network feature is off. */
export function hostEnv(host: "claude" | "codex", dirs: RunDirs): Record<string, string> {
  const common = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: dirs.home,
    MIND_HOME: dirs.mind,
    // Hooks start deno from the host's cwd with a new HOME: keep the module cache the tests already filled.
    DENO_DIR: denoDir(),
    SHELL: "/bin/sh",
    LANG: "C.UTF-8",
  };
  if (host === "claude") {
    return {
      ...common,
      CLAUDE_CONFIG_DIR: dirs.hostDir,
      ANTHROPIC_BASE_URL: "{{ORIGIN}}",
      ANTHROPIC_API_KEY: "dummy-key",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_BUG_COMMAND: "1",
    };
  }
  return { ...common, CODEX_HOME: dirs.hostDir, MOCK_API_KEY: "dummy-key" };
}

let cachedDenoDir: string | null = null;
function denoDir(): string {
  if (cachedDenoDir) return cachedDenoDir;
  const given = Deno.env.get("DENO_DIR");
  if (given) return cachedDenoDir = given;
  const out = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped", stderr: "null" })
    .outputSync();
  cachedDenoDir = JSON.parse(new TextDecoder().decode(out.stdout)).denoDir as string;
  return cachedDenoDir;
}

/** Codex's config.toml for a run: the mock provider and every non-essential network feature off. */
export function codexConfig(): string {
  return `model = "mock-model"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "{{ORIGIN}}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[features]
plugins = false

[analytics]
enabled = false
`;
}

/**
 * The host command line for one non-interactive prompt. `allowBash: false` leaves Claude Code's Bash
 * without a permission rule, in the default mode, so that only a hook's own allow lets a command run
 * (`-p` cannot ask).
 */
export function hostArgs(host: "claude" | "codex", prompt: string, extra: string[] = [], allowBash = true): string[] {
  if (host === "claude") {
    // Claude Code refuses --dangerously-skip-permissions as root; acceptEdits + an allowed Bash does the job.
    return [
      "-p",
      prompt,
      "--permission-mode",
      ...(allowBash ? ["acceptEdits", "--allowedTools", "Bash"] : ["default"]),
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "claude-sonnet-4-5",
      ...extra,
    ];
  }
  return ["exec", "--skip-git-repo-check", ...extra, prompt];
}

/** Runs the host once through driver.ts (isolated when possible); returns the report. */
export async function runHost(
  host: "claude" | "codex",
  dirs: RunDirs,
  opts: {
    command: string;
    finalText: string;
    prompt: string;
    extraArgs?: string[];
    timeoutMs?: number;
    allowBash?: boolean;
  },
): Promise<DriverReport> {
  const spec: DriverSpec = {
    bin: BIN[host],
    args: hostArgs(host, opts.prompt, opts.extraArgs, opts.allowBash ?? true),
    cwd: dirs.work,
    env: hostEnv(host, dirs),
    files: host === "codex" ? { [`${dirs.hostDir}/config.toml`]: codexConfig() } : {},
    command: opts.command,
    finalText: opts.finalText,
    report: `${dirs.root}/report.json`,
    timeoutMs: opts.timeoutMs ?? 90_000,
  };
  const specPath = `${dirs.root}/spec.json`;
  await Deno.writeTextFile(specPath, JSON.stringify(spec));
  const deno = [Deno.execPath(), "run", "-A", "--config", `${REPO}/deno.json`, DRIVER, specPath];
  const isolated = await canIsolateNetwork();
  const cmd = isolated
    ? new Deno.Command("unshare", {
      args: ["-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", ...deno],
      stdout: "piped",
      stderr: "piped",
    })
    : new Deno.Command(deno[0], { args: deno.slice(1), stdout: "piped", stderr: "piped" });
  const out = await cmd.output();
  try {
    return JSON.parse(await Deno.readTextFile(spec.report));
  } catch {
    throw new Error(`driver failed (exit ${out.code}): ${new TextDecoder().decode(out.stderr).slice(0, 2000)}`);
  }
}
