/**
 * Shared set-up for driving the real Claude Code, Codex, Gemini CLI and Copilot CLI (interop tests and
 * bench/adapter_bench.ts): installs the npm packages into `.tmp/interop/pkgs/`, lays out a temp HOME per run
 * (host config dir, mind home, work dir), registers hooks, and runs driver.ts inside a loopback-only network
 * namespace (when the machine allows one) so that nothing can leave 127.0.0.1.
 * @module
 */
import { fileURLToPath } from "node:url";
import type { DriverReport, DriverSpec } from "./driver.ts";
import { assertEquals } from "../helpers/assert.ts";

/** The repository root. */
export const REPO: string = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");
/** Where the packages are installed. */
export const PKG_DIR = `${REPO}/.tmp/interop/pkgs`;
const DRIVER = `${REPO}/tests/interop/driver.ts`;

/** A host CLI the interop tests drive. */
export type InteropHost = "claude" | "codex" | "gemini" | "copilot";

/**
 * The package specs installed (overridable, e.g. to try a newer release). Gemini CLI and Copilot CLI are
 * pinned exactly: their hook protocols were measured on these releases.
 */
export const PACKAGES: Record<InteropHost, string> = {
  claude: Deno.env.get("MIND_INTEROP_CLAUDE_PKG") ?? "@anthropic-ai/claude-code@^2.1.197",
  codex: Deno.env.get("MIND_INTEROP_CODEX_PKG") ?? "@openai/codex@^0.171.0",
  gemini: Deno.env.get("MIND_INTEROP_GEMINI_PKG") ?? "@google/gemini-cli@0.61.0",
  copilot: Deno.env.get("MIND_INTEROP_COPILOT_PKG") ?? "@github/copilot@1.0.102",
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

/** Paths of the host binaries once installed. */
export const BIN: Record<InteropHost, string> = {
  claude: `${PKG_DIR}/node_modules/.bin/claude`,
  codex: `${PKG_DIR}/node_modules/.bin/codex`,
  gemini: `${PKG_DIR}/node_modules/.bin/gemini`,
  copilot: `${PKG_DIR}/node_modules/.bin/copilot`,
};

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Installs the packages of `hosts` unless present, one host at a time (so that one unavailable package
 * skips only its own host). Returns, per host, null when ready, else the reason it cannot be had (the
 * caller skips that host's tests with the reason printed).
 */
export async function ensurePackages(hosts: readonly InteropHost[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const host of hosts) out[host] = await ensurePackage(host);
  return out;
}

async function ensurePackage(host: InteropHost): Promise<string | null> {
  if (await exists(BIN[host])) return null;
  await Deno.mkdir(PKG_DIR, { recursive: true });
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command("npm", {
      args: ["install", "--prefix", PKG_DIR, "--no-audit", "--no-fund", "--loglevel=error", PACKAGES[host]],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(300_000),
    }).output();
  } catch (e) {
    return `npm could not be run: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join(" | ");
    return `npm install ${PACKAGES[host]} failed: ${err}`;
  }
  if (!await exists(BIN[host])) return `npm install ${PACKAGES[host]} finished but ${BIN[host]} is missing`;
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

/** Each host's settings folder under HOME. */
const HOST_DIR: Record<InteropHost, string> = {
  claude: ".claude",
  codex: ".codex",
  gemini: ".gemini",
  copilot: ".copilot",
};

/**
 * Gemini CLI's user settings for an offline run: API-key auth against the mock (else the auth type derived
 * from GOOGLE_GEMINI_BASE_URL is refused), a pinned model (else a router request first), and telemetry,
 * usage statistics and auto-update off. `install gemini` then adds its hooks to this file.
 */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  model: { name: "gemini-2.5-flash" },
  privacy: { usageStatisticsEnabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  telemetry: { enabled: false },
};

/**
 * Creates a fresh run directory under .tmp/interop/runs/ (not /tmp: Codex refuses helper files there),
 * with the host's own settings a run needs before `install` adds its entries.
 */
export async function makeRunDirs(host: InteropHost, label: string): Promise<RunDirs> {
  const base = `${REPO}/.tmp/interop/runs`;
  await Deno.mkdir(base, { recursive: true });
  const root = await Deno.makeTempDir({ dir: base, prefix: `${host}-${label}-` });
  const dirs = {
    root,
    home: `${root}/home`,
    mind: `${root}/mind`,
    work: `${root}/work`,
    hostDir: `${root}/home/${HOST_DIR[host]}`,
  };
  for (const d of [dirs.home, dirs.mind, dirs.work, dirs.hostDir]) await Deno.mkdir(d, { recursive: true });
  if (host === "gemini") {
    await Deno.writeTextFile(`${dirs.hostDir}/settings.json`, JSON.stringify(GEMINI_SETTINGS, null, 2) + "\n");
  }
  return dirs;
}

/** The environment a host runs with: nothing of ours leaks in, every optional network feature is off. */
export function hostEnv(host: InteropHost, dirs: RunDirs): Record<string, string> {
  const common = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: dirs.home,
    MIND_HOME: dirs.mind,
    // Hooks start deno from the host's cwd with a new HOME: keep the module cache the tests already filled.
    DENO_DIR: denoDir(),
    SHELL: "/bin/sh",
    LANG: "C.UTF-8",
    // No warm daemon (SPEC §13 r4): one started by a host's dispatch would outlive the run (15 minutes idle)
    // and keep `strace -f` of the network check waiting on it. The daemon has its own tests.
    MIND_HOOKS_DAEMON: "off",
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
  if (host === "gemini") {
    return {
      ...common,
      TERM: "dumb",
      NO_COLOR: "1",
      GEMINI_API_KEY: "dummy-key",
      // Plain http is accepted for a loopback base URL only.
      GOOGLE_GEMINI_BASE_URL: "{{ORIGIN}}",
      // Else the CLI re-executes itself in a child Node with a larger heap.
      GEMINI_CLI_NO_RELAUNCH: "true",
    };
  }
  if (host === "copilot") {
    return {
      ...common,
      TERM: "dumb",
      NO_COLOR: "1",
      // "Skips all network access: GitHub authentication, telemetry, web tools, GitHub MCP server, auto-update".
      COPILOT_OFFLINE: "true",
      COPILOT_AUTO_UPDATE: "false",
      // BYOK: an OpenAI Chat Completions provider (the mock), no GitHub login.
      COPILOT_PROVIDER_BASE_URL: "{{ORIGIN}}/v1",
      COPILOT_PROVIDER_API_KEY: "dummy-key",
      COPILOT_MODEL: "gpt-5.4",
      // The CLI unpacks its ~240 MB runtime into the cache on first start: share it between runs.
      XDG_CACHE_HOME: `${REPO}/.tmp/interop/cache`,
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
export function hostArgs(host: InteropHost, prompt: string, extra: string[] = [], allowBash = true): string[] {
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
  if (host === "gemini") {
    // --skip-trust: headless in an untrusted folder exits 55; user-level hooks run with it.
    return ["-p", prompt, "--output-format", "json", "--approval-mode", "yolo", "--skip-trust", ...extra];
  }
  if (host === "copilot") {
    return ["-p", prompt, "--output-format", "json", "--no-auto-update", "--allow-all-tools", ...extra];
  }
  return ["exec", "--skip-git-repo-check", ...extra, prompt];
}

/** Options of one host run. */
export type RunOptions = {
  command: string;
  finalText: string;
  prompt: string;
  extraArgs?: string[];
  timeoutMs?: number;
  /** Number each final text (Gemini CLI ends a turn that repeats itself word for word). */
  numbered?: boolean;
  /** Another tool call than the shell call. */
  tool?: { name: string; args: Record<string, unknown> };
  /** Tool calls before the final text (`{n}` in `command` numbers them). */
  toolTurns?: number;
  /** Run the host under strace, recording its connect/sendto calls in this file. */
  straceOut?: string;
  /** Extra environment of the host. */
  env?: Record<string, string>;
  /** Claude Code: allow Bash by permission rule (default), or leave it to the hooks. */
  allowBash?: boolean;
  /**
   * Gemini CLI: trust the workspace (`GEMINI_CLI_TRUST_WORKSPACE=true`) instead of `--skip-trust`, which
   * runs no project hook (`.gemini/settings.json`).
   */
  trustWorkspace?: boolean;
  /** The mock's port, its http hooks' answers and its prompt hooks' judge (tests/interop/mock_model.ts). */
  port?: number;
  hooks?: Record<string, unknown>;
  judge?: { marker: string; text: string };
};

/** Runs the host once through driver.ts (isolated when possible); returns the report. */
export async function runHost(host: InteropHost, dirs: RunDirs, opts: RunOptions): Promise<DriverReport> {
  const spec: DriverSpec = {
    bin: BIN[host],
    args: hostArgs(host, opts.prompt, opts.extraArgs, opts.allowBash ?? true)
      .filter((a) => !(opts.trustWorkspace && a === "--skip-trust")),
    cwd: dirs.work,
    env: {
      ...hostEnv(host, dirs),
      ...(opts.trustWorkspace ? { GEMINI_CLI_TRUST_WORKSPACE: "true" } : {}),
      ...opts.env,
    },
    files: host === "codex" ? { [`${dirs.hostDir}/config.toml`]: codexConfig() } : {},
    command: opts.command,
    finalText: opts.finalText,
    numbered: opts.numbered,
    tool: opts.tool,
    toolTurns: opts.toolTurns,
    port: opts.port,
    hooks: opts.hooks,
    judge: opts.judge,
    strace: opts.straceOut ? { bin: await which("strace"), out: opts.straceOut } : undefined,
    report: `${dirs.root}/report.json`,
    timeoutMs: opts.timeoutMs ?? 90_000,
  };
  return await runDriver(spec, dirs.root);
}

/** `argv` in a network namespace of its own (loopback only) when this machine allows one, else as it is. */
export async function isolatedCommand(argv: string[]): Promise<Deno.Command> {
  return await canIsolateNetwork()
    ? new Deno.Command("unshare", {
      args: ["-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", ...argv],
      stdout: "piped",
      stderr: "piped",
    })
    : new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" });
}

/** The karanb192 dangerous-commands guard (vendored, MIT), which asks for approval of high-risk commands. */
const ASKING_GUARD = `${REPO}/fixtures/thirdparty/karanb192-claude-code-hooks/plugins/block-dangerous-commands`;

/**
 * Run folders for `host` whose user home enables one plugin, the guard with `HOOK_ASK_HIGH=true` on Bash,
 * trusted, and mind-hooks installed for the host (`install <host> --user`).
 */
export async function askingSetup(host: InteropHost, label: string): Promise<RunDirs> {
  const dirs = await makeRunDirs(host, label);
  const plugin = `${dirs.mind}/plugins/guard`;
  await Deno.mkdir(`${plugin}/.claude-plugin`, { recursive: true });
  await Deno.mkdir(`${plugin}/hooks`, { recursive: true });
  await Deno.writeTextFile(`${plugin}/.claude-plugin/plugin.json`, JSON.stringify({ name: "guard" }));
  await Deno.copyFile(`${ASKING_GUARD}/block-dangerous-commands.js`, `${plugin}/block-dangerous-commands.js`);
  const command = `HOOK_ASK_HIGH=true node "\${CLAUDE_PLUGIN_ROOT}/block-dangerous-commands.js"`;
  await Deno.writeTextFile(
    `${plugin}/hooks/hooks.json`,
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } }),
  );
  await Deno.writeTextFile(`${dirs.mind}/config.toml`, `[plugins.guard]\nenabled = true\n`);
  const env = hostEnv(host, dirs);
  const t = await cli(["trust", "--all", "--home", dirs.mind], env);
  assertEquals(t.code, 0, t.stderr);
  const inst = await cli(["install", host, "--user", "--command", launcher()], env);
  assertEquals(inst.code, 0, inst.stderr);
  return dirs;
}

/**
 * Run folders for `host` whose delegating entries come from a plain `install <host> --user` that found the
 * launcher, `bin/mind-hooks` (a script starting this checkout), on the terminal's PATH — a folder the agent's
 * own PATH lacks (an IDE's, a desktop launcher's). With `gone`, the launcher is then deleted, as when an upgrade
 * moved it: only the registered command itself can stop a tool call (SPEC §6 r4). `hooks` is the trusted mind
 * hooks.json (default: one that denies nothing). Returns the launcher path with the folders.
 */
export async function launcherOffPathSetup(
  host: InteropHost,
  label: string,
  opts: { gone: boolean; hooks?: unknown },
): Promise<RunDirs & { launcher: string }> {
  const dirs = await makeRunDirs(host, label);
  const hooks = opts.hooks ?? { hooks: { PostToolUse: [{ hooks: [{ type: "command", command: "true" }] }] } };
  await Deno.writeTextFile(`${dirs.mind}/hooks.json`, JSON.stringify(hooks));
  const env = hostEnv(host, dirs);
  const t = await cli(["trust", "--all", "--home", dirs.mind], env);
  assertEquals(t.code, 0, t.stderr);
  const bin = `${dirs.root}/bin`;
  await Deno.mkdir(bin);
  const path = `${bin}/mind-hooks`;
  await Deno.writeTextFile(path, `#!/bin/sh\nexec ${launcher()} "$@"\n`, { mode: 0o755 });
  // Found on the terminal's PATH; the entries name it by its absolute path. The host runs without `bin`.
  const inst = await cli(["install", host, "--user"], { ...env, PATH: `${bin}:${env.PATH}` });
  assertEquals(inst.code, 0, inst.stderr);
  if (opts.gone) await Deno.remove(path);
  return { ...dirs, launcher: path };
}

/**
 * Runs driver.ts on `spec` (isolated when possible): the mock model on 127.0.0.1, then `spec.bin`, whatever it is
 * (a host CLI, or a shell running the README's tour). `root` holds the spec file.
 */
export async function runDriver(spec: DriverSpec, root: string): Promise<DriverReport> {
  const specPath = `${root}/spec.json`;
  await Deno.writeTextFile(specPath, JSON.stringify(spec));
  const deno = [Deno.execPath(), "run", "-A", "--config", `${REPO}/deno.json`, DRIVER, specPath];
  const out = await (await isolatedCommand(deno)).output();
  try {
    return JSON.parse(await Deno.readTextFile(spec.report));
  } catch {
    throw new Error(`driver failed (exit ${out.code}): ${new TextDecoder().decode(out.stderr).slice(0, 2000)}`);
  }
}

/** The absolute path of `program` on PATH (the driver runs the host with a cleared environment). */
async function which(program: string): Promise<string> {
  const out = await new Deno.Command("sh", { args: ["-c", `command -v ${program}`], stdout: "piped" }).output();
  const path = new TextDecoder().decode(out.stdout).trim();
  if (!out.success || path === "") throw new Error(`${program} is not on PATH`);
  return path;
}
