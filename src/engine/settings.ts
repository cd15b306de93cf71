/**
 * The engine's settings (SPEC §1 "Options common to every command that reads configuration"), from
 * one option spec for every front end: the CLI's `--home`/`-c`/…, `serve`'s per-request `options`
 * (`home`, `hooksFile`, …), the library's `DispatchOptions`, and the sandbox plan all name the same
 * eight options here, and {@link resolveSettings} applies the same defaults to each.
 * @module
 */
import type { ConfigOptions, HomelessConfigOptions, MissingHome } from "../config/discovery.ts";
export { NO_HOME } from "../config/warnings.ts";
import { absolute, isAbsolutePath, join, osUserHome } from "../util/paths.ts";
import { type OptionSpec, UsageError } from "../util/args.ts";
import { fail, ok, type Result } from "../util/result.ts";

/** How one option's value is written: a folder or file path is made absolute against the process cwd. */
type OptionKind = "dir" | "file" | "files" | "string" | "strings" | "boolean";

/**
 * One engine option: its name on the command line, in a `serve` request, its kind, and one line on
 * what it does (help texts and shell completion).
 */
export type EngineOptionSpec = {
  cli: string;
  short?: string;
  rpc: string;
  kind: OptionKind;
  about: string;
  /** The value's name in help texts, when not the kind's own (`DIR`, `FILE`). */
  arg?: string;
};

/** The engine options, by their library name. */
export const ENGINE_OPTIONS = {
  home: {
    cli: "home",
    rpc: "home",
    kind: "dir",
    about: "the application home, an absolute path (default $MIND_HOME, else ~/.mind)",
  },
  cwd: { cli: "cwd", rpc: "cwd", kind: "dir", about: "where the project search starts" },
  profile: { cli: "profile", rpc: "profile", kind: "string", about: "the profile layer", arg: "NAME" },
  config: {
    cli: "config",
    short: "c",
    rpc: "config",
    kind: "strings",
    about: "a configuration override; VALUE is TOML (repeatable)",
    arg: "KEY=VALUE",
  },
  hooksFiles: { cli: "hooks-file", rpc: "hooksFile", kind: "files", about: "an extra hooks file (repeatable)" },
  requirements: { cli: "requirements", rpc: "requirements", kind: "file", about: "the managed requirements.toml" },
  tempDir: { cli: "temp-dir", rpc: "tempDir", kind: "dir", about: "where large hook output is spilled" },
  bypassTrust: {
    cli: "dangerously-bypass-hook-trust",
    rpc: "dangerouslyBypassHookTrust",
    kind: "boolean",
    about: "run every enabled hook, trusted or not",
  },
} as const satisfies Record<string, EngineOptionSpec>;

/** The engine options as command-line option declarations (SPEC §1 "Options common to every command"). */
export function engineCliOptions(): Record<string, OptionSpec> {
  const out: Record<string, OptionSpec> = {};
  for (const spec of Object.values(ENGINE_OPTIONS) as EngineOptionSpec[]) {
    const value = spec.kind === "dir" ? "dir" : spec.kind === "file" || spec.kind === "files" ? "file" : "text";
    out[spec.cli] = {
      type: spec.kind === "boolean" ? "boolean" : "string",
      ...(spec.short ? { short: spec.short } : {}),
      ...(spec.kind === "files" || spec.kind === "strings" ? { multiple: true } : {}),
      ...(spec.kind === "boolean" ? {} : { value }),
      ...(spec.arg ? { arg: spec.arg } : {}),
      about: spec.about,
    };
  }
  return out;
}

/** An engine option's library name. */
export type EngineOptionName = keyof typeof ENGINE_OPTIONS;

/** The engine options as a front end gives them (each absent = its default). */
export type EngineOptions = {
  home?: string;
  cwd?: string;
  profile?: string;
  config?: readonly string[];
  hooksFiles?: readonly string[];
  requirements?: string;
  tempDir?: string;
  bypassTrust?: boolean;
};

/** The environment as the engine reads it. */
export type Env = Record<string, string | undefined>;

/** Resolved settings of one invocation (or one `serve` request). */
export type EngineSettings = {
  /**
   * The application home: `--home`, else `$MIND_HOME`, else `~/.mind` — always absolute; null when
   * none can be found (SPEC §1 r3: never the cwd; only `dispatch` runs then, without writing).
   */
  home: string | null;
  /** The root of spilled outputs: `--temp-dir`, else `$MIND_TEMP_DIR`, else the OS temp dir. */
  tempDir: string;
  /** `--cwd` made absolute, or null: dispatch then searches from the event's cwd, other commands from the process cwd. */
  cwd: string | null;
  profile: string | undefined;
  overrides: readonly string[];
  hooksFiles: readonly string[];
  /** The managed requirements file: `--requirements`, else `$MIND_REQUIREMENTS`, else `/etc/mind/requirements.toml`. */
  requirements: string;
  bypassTrust: boolean;
  env: Env;
  processCwd: string;
  /**
   * Adapter mode: the host delegating its events to mind-hooks (`dispatch --protocol <host>`); its own
   * project layer is not loaded (SPEC §2.8).
   */
  delegatingHost?: string;
  /** Set (with `home` null) when the home `--home`/`$MIND_HOME` named does not exist: dispatch says so, creates nothing. */
  missingHome?: MissingHome;
};

/** The OS temp dir, as the environment names it. */
function osTempDir(env: Env): string {
  return env.TMPDIR ?? env.TEMP ?? env.TMP ?? (Deno.build.os === "windows" ? "C:\\Windows\\Temp" : "/tmp");
}

/** Which of `--home` (`given`) and `$MIND_HOME` chose the home, or null when it is the default `~/.mind`. */
export function homeNamedBy(given: string | undefined, env: Env): "--home" | "MIND_HOME" | null {
  return given !== undefined ? "--home" : env.MIND_HOME !== undefined ? "MIND_HOME" : null;
}

/**
 * A dispatch's settings when the home `--home` or `$MIND_HOME` named does not exist: run as without a
 * home (nothing created or written; a typo never becomes a new, empty home) and say so (`W_HOME_MISSING`).
 * The default `~/.mind` of a new user is not a typo: it is made when something is first written.
 */
export async function withoutMissingHome(settings: EngineSettings, given: string | undefined): Promise<EngineSettings> {
  const namedBy = homeNamedBy(given, settings.env);
  if (settings.home === null || namedBy === null) return settings;
  try {
    await Deno.stat(settings.home);
    return settings;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) return settings;
  }
  return { ...settings, home: null, missingHome: { path: settings.home, namedBy } };
}

/**
 * The application home (SPEC §1 r3): `--home`, else `$MIND_HOME` — each absolute, `~` being `$HOME` —
 * else `~/.mind` when `$HOME` is an absolute path, else null (no home: never the cwd). Throws the
 * usage error of an empty or relative `--home` / `$MIND_HOME`.
 */
export function resolveHome(given: string | undefined, env: Env): string | null {
  const userHome = osUserHome(env);
  for (const [name, value] of [["--home", given], ["MIND_HOME", env.MIND_HOME]] as const) {
    if (value === undefined) continue;
    if (value === "") throw new UsageError(`${name} is empty: the home is an absolute path`);
    let path = value;
    if (path === "~" || path.startsWith("~/")) {
      if (userHome === null) throw new UsageError(`${name} ${value}: ~ needs HOME, an absolute path`);
      path = join(userHome, path.slice(2));
    }
    if (!isAbsolutePath(path)) {
      throw new UsageError(`${name} ${value} is a relative path: the home is always an absolute path`);
    }
    return path;
  }
  return userHome === null ? null : join(userHome, ".mind");
}

/**
 * Applies the defaults of SPEC §1 to `opts`; relative paths (but the home's) resolve against
 * `processCwd`. Throws the usage error of a bad home (see {@link resolveHome}).
 */
export function resolveSettings(opts: EngineOptions, env: Env, processCwd: string): EngineSettings {
  const abs = (p: string | undefined) => p === undefined || p === "" ? undefined : absolute(p, processCwd);
  const home = resolveHome(opts.home, env);
  return {
    home,
    tempDir: abs(opts.tempDir) ?? abs(env.MIND_TEMP_DIR) ?? osTempDir(env),
    cwd: abs(opts.cwd) ?? null,
    profile: opts.profile,
    overrides: opts.config ?? [],
    hooksFiles: (opts.hooksFiles ?? []).map((f) => absolute(f, processCwd)),
    requirements: abs(opts.requirements) ?? env.MIND_REQUIREMENTS ?? "/etc/mind/requirements.toml",
    bypassTrust: opts.bypassTrust === true,
    env,
    processCwd,
  };
}

/** Settings that have a home (every command but `dispatch` refuses to run without one). */
export type HomeSettings = EngineSettings & { home: string };

/** Discovery options of `settings`, the project being searched from `searchFrom`. */
export function configOptionsOf(settings: HomeSettings, searchFrom: string): ConfigOptions;
export function configOptionsOf(settings: EngineSettings, searchFrom: string): HomelessConfigOptions;
export function configOptionsOf(settings: EngineSettings, searchFrom: string): HomelessConfigOptions {
  return {
    home: settings.home,
    cwd: searchFrom,
    profile: settings.profile,
    overrides: settings.overrides,
    hooksFiles: settings.hooksFiles,
    requirements: settings.requirements,
    bypassTrust: settings.bypassTrust,
    env: settings.env,
    ...(settings.delegatingHost !== undefined ? { delegatingHost: settings.delegatingHost } : {}),
    ...(settings.missingHome !== undefined ? { missingHome: settings.missingHome } : {}),
  };
}

/** Where a command that is not given an event searches for the project: `--cwd`, else the process cwd. */
export function searchStart(settings: EngineSettings): string {
  return settings.cwd ?? settings.processCwd;
}

/** Parsed command-line values, keyed by the option's command-line name. */
export type CliValues = Record<string, string | boolean | string[] | undefined>;

/** The engine options among parsed command-line values. */
export function fromCliValues(values: CliValues): EngineOptions {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(ENGINE_OPTIONS) as [EngineOptionName, EngineOptionSpec][]) {
    const v = Object.hasOwn(values, spec.cli) ? values[spec.cli] : undefined;
    if (v !== undefined) out[name] = v;
  }
  return out as EngineOptions;
}

/** The engine options as command-line values (a `serve` default, a re-run), the inverse of {@link fromCliValues}. */
export function toCliValues(opts: EngineOptions): CliValues {
  const out: CliValues = {};
  for (const [name, spec] of Object.entries(ENGINE_OPTIONS) as [EngineOptionName, EngineOptionSpec][]) {
    const v = opts[name];
    if (v !== undefined) out[spec.cli] = Array.isArray(v) ? [...v] : v as string | boolean;
  }
  return out;
}

/** What reading a `serve` request's `options` gave: the options over the defaults, or the one problem. */
export type RpcOptionsResult = Result<EngineOptions>;

/** The request option names, for error messages and docs. */
export const RPC_OPTION_NAMES: readonly string[] = Object.values(ENGINE_OPTIONS).map((s) => s.rpc);

const BY_RPC_NAME: ReadonlyMap<string, [EngineOptionName, EngineOptionSpec]> = new Map(
  (Object.entries(ENGINE_OPTIONS) as [EngineOptionName, EngineOptionSpec][]).map(([n, s]) => [s.rpc, [n, s]]),
);

/**
 * Merges a `serve` request's `options` (SPEC §13: "optional `options` as in §1") over `defaults`;
 * a field given replaces the default of that field (lists included), null or absent keeps it.
 */
export function fromRpcOptions(raw: unknown, defaults: EngineOptions): RpcOptionsResult {
  if (raw === undefined || raw === null) return ok(defaults);
  if (typeof raw !== "object" || Array.isArray(raw)) return fail("options must be an object");
  const out: Record<string, unknown> = { ...defaults };
  for (const [rpcName, value] of Object.entries(raw)) {
    const entry = BY_RPC_NAME.get(rpcName);
    if (!entry) {
      return fail(`unknown option ${JSON.stringify(rpcName)} (known: ${RPC_OPTION_NAMES.join(", ")})`);
    }
    if (value === undefined || value === null) continue;
    const [name, spec] = entry;
    switch (spec.kind) {
      case "dir":
      case "file":
      case "string":
        if (typeof value !== "string" || value === "") {
          return fail(`options.${rpcName} must be a non-empty string`);
        }
        out[name] = value;
        break;
      case "files":
      case "strings": {
        const list = typeof value === "string" ? [value] : value;
        if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
          return fail(`options.${rpcName} must be a list of strings`);
        }
        out[name] = [...list];
        break;
      }
      case "boolean":
        if (typeof value !== "boolean") return fail(`options.${rpcName} must be a boolean`);
        out[name] = value;
        break;
    }
  }
  return ok(out as EngineOptions);
}
