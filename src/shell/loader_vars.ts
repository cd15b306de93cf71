/**
 * Loader variables (SPEC §3.5 r4): environment variables that make a program load code before or
 * besides the script it is given — `BASH_ENV`, `NODE_OPTIONS`, `PYTHONPATH`, `LD_PRELOAD`, … This is
 * the one place that decides them, for every way a command can set them (a prefix `NAME=… cmd`, a plain
 * assignment, `export`/`declare -x`/`local`/`readonly`, `env NAME=…`, `env -S '…'`, `set -a`) and for
 * the ones the hook inherits (read from its environment at dispatch, a relative value against the
 * run's cwd): what they name inside the root is pinned, and a value the reader cannot know, or one
 * whose meaning it does not model (git configuration in the environment), makes the hook unpinnable.
 * @module
 */
import { type Command, type Dirs, field, type Sink } from "./reader_types.ts";
import { construct, type Value } from "./shell_expand.ts";

/** How a loader variable's value is read. */
type LoaderKind =
  /** One file the program runs (`BASH_ENV`, `PYTHONSTARTUP`). */
  | "file"
  /** Folders searched for modules or libraries, `:`-separated (`PYTHONPATH`, `NODE_PATH`, `LD_LIBRARY_PATH`). */
  | "path"
  /** Python's module folders: the Python modules in each are the closure (SPEC §3.5 r4). */
  | "python-path"
  /** Options of the program, blank-separated; the files they name are loaded (`NODE_OPTIONS`, `RUBYOPT`). */
  | "options"
  /** Files preloaded, `:`- or blank-separated (`LD_PRELOAD`). */
  | "files"
  /** Configuration the reader does not model (`GIT_CONFIG_COUNT`, `GIT_CONFIG_PARAMETERS`): unpinnable. */
  | "config";

const LOADERS: Record<string, LoaderKind> = {
  BASH_ENV: "file",
  ENV: "file",
  ZDOTDIR: "path",
  PYTHONSTARTUP: "file",
  PYTHONPATH: "python-path",
  PYTHONHOME: "path",
  PYTHONUSERBASE: "path",
  NODE_OPTIONS: "options",
  NODE_PATH: "path",
  PERL5LIB: "path",
  PERLLIB: "path",
  PERL5OPT: "options",
  PERL5DB: "options",
  RUBYLIB: "path",
  RUBYOPT: "options",
  JAVA_TOOL_OPTIONS: "options",
  LD_PRELOAD: "files",
  LD_LIBRARY_PATH: "path",
  LD_AUDIT: "files",
  GIT_CONFIG_GLOBAL: "file",
  GIT_CONFIG_SYSTEM: "file",
  GIT_CONFIG: "file",
  GIT_EXEC_PATH: "path",
  GIT_SSH: "file",
  GIT_SSH_COMMAND: "config",
  GIT_EDITOR: "config",
  GIT_PAGER: "config",
  GIT_EXTERNAL_DIFF: "config",
  GIT_CONFIG_COUNT: "config",
  GIT_CONFIG_PARAMETERS: "config",
};

/** The kind of a loader variable, or null when `name` is none. */
export function loaderKind(name: string): LoaderKind | null {
  if (Object.hasOwn(LOADERS, name)) return LOADERS[name];
  if (name === "DYLD_INSERT_LIBRARIES") return "files";
  if (name.startsWith("DYLD_")) return "path";
  // npm reads every npm_config_* as configuration: `script_shell`, `userconfig`, `node_options`…
  if (/^npm_config_/i.test(name)) return /(?:shell|config|options|prefix|cache)$/i.test(name) ? "options" : "config";
  if (/^GIT_CONFIG_(?:KEY|VALUE)_\d+$/.test(name)) return "config";
  return null;
}

/**
 * The programs that read a loader variable (SPEC §3.5 r4), or null when every program does: the hook's
 * own shell reads `BASH_ENV`/`ENV`/`ZDOTDIR`, and the dynamic loader `LD_*`/`DYLD_*`, whatever it runs.
 * An inherited variable is judged only where the command runs one of its readers: `npm_config_cafile`,
 * which `npx` puts in the environment of everything it starts, steers npm, not `python3 check.py`.
 */
export function readersOf(name: string): RegExp | null {
  if (/^(?:PYTHON|VIRTUAL_ENV$)/.test(name)) return /^(?:python[\d.]*|pip\d?|pipx|uv|uvx|poetry|pdm|hatch|pytest)$/;
  if (/^NODE_/.test(name)) {
    return /^(?:node|nodejs|npm|npx|pnpm|pnpx|yarn|corepack|tsx|ts-node|bun|bunx|deno|jest|vitest|mocha)$/;
  }
  if (/^npm_config_/i.test(name)) return /^(?:npm|npx|pnpm|pnpx|yarn|corepack|node-gyp)$/;
  if (/^PERL/.test(name)) return /^(?:perl|cpan|cpanm|prove)$/;
  if (/^RUBY/.test(name)) return /^(?:ruby|gem|bundle|bundler|irb|rake)$/;
  if (name === "JAVA_TOOL_OPTIONS") return /^(?:java|javac|jshell|mvn|gradle|sbt|kotlin)$/;
  if (/^GIT_/.test(name)) return /^git$/;
  return null;
}

/** The loader variables of an environment the hook inherits (their names, sorted), for the reading's key. */
export function inheritedLoaders(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env).filter((k) => env[k] && loaderKind(k) !== null).sort();
}

/**
 * Decides one loader variable set to `value` for the commands that see it: what it names inside the
 * root is pinned (files run, folders' code), or the hook is unpinnable naming it. A variable that is
 * no loader is left alone (its value may still name a file: the caller pins that as data).
 */
export function loaderVariable(name: string, value: Value, dirs: Dirs, cmd: Command, s: Sink): boolean {
  const kind = loaderKind(name);
  if (kind === null) return false;
  if (value.values.every((v) => v === "") && value.unknown === null) return true;
  if (value.unknown !== null) {
    s.markUnpinnable(`${name}=${value.unknown}`);
    return true;
  }
  const here = { ...cmd, dirs };
  for (const v of value.values) {
    if (v === "") continue;
    switch (kind) {
      case "config":
        s.markUnpinnable(`${construct(name)} (configuration in the environment the reader does not model)`);
        break;
      case "file":
        s.path(field(v), "run", dirs);
        break;
      case "files":
        for (const w of v.split(/[\s:]+/)) if (w !== "") s.path(field(w), "run", dirs);
        break;
      case "path":
      case "python-path":
        for (const entry of v.split(":")) {
          if (entry === "") continue;
          s.folder(field(entry), kind === "python-path" ? "python" : "package", dirs, [], name);
          s.path(field(entry), "data", dirs);
        }
        break;
      case "options":
        optionFiles(name, v, here, s);
        break;
    }
  }
  return true;
}

/**
 * The files a variable of program options loads: every word that is not an option, and the value of
 * an option (`--require=./x.js`, `-r./x`, `-Mlib`), with the suffixes its program tries.
 */
function optionFiles(name: string, text: string, cmd: Command, s: Sink): void {
  const suffixes = name === "RUBYOPT"
    ? ["", ".rb"]
    : name.startsWith("PERL")
    ? ["", ".pm"]
    : ["", ".js", ".mjs", ".cjs", "/index.js"];
  for (const w of text.split(/\s+/)) {
    if (w === "") continue;
    const eq = w.indexOf("=");
    const value = w.startsWith("--") ? (eq > 0 ? w.slice(eq + 1) : "") : /^-[rIMm]./.test(w) ? w.slice(2) : w;
    if (value === "" || value.startsWith("-")) continue;
    const text = name.startsWith("PERL") ? value.replace(/=.*$/, "").replaceAll("::", "/") : value;
    s.path(field(text), "run", cmd.dirs, suffixes);
    if (!/^[./]/.test(text)) s.path(field(`node_modules/${text}`), "run", cmd.dirs, suffixes);
  }
}

/**
 * The loader variables a hook inherits, for one reading: those every program reads are judged at once,
 * the others the first time the command runs a program that reads them ({@link readersOf}).
 */
export class InheritedLoaders {
  #pending: { name: string; value: string; readers: RegExp }[] = [];
  readonly #dirs: Dirs;
  readonly #sink: Sink;

  constructor(vars: readonly { name: string; value: string }[], dirs: Dirs, sink: Sink) {
    this.#dirs = dirs;
    this.#sink = sink;
    for (const v of vars) {
      const readers = readersOf(v.name);
      if (readers === null) this.#judge(v.name, v.value);
      else this.#pending.push({ ...v, readers });
    }
  }

  /** A program the command runs: the pending variables it reads are judged now. */
  programRuns(name: string): void {
    const now = this.#pending.filter((v) => v.readers.test(name));
    if (now.length === 0) return;
    this.#pending = this.#pending.filter((v) => !v.readers.test(name));
    for (const v of now) this.#judge(v.name, v.value);
  }

  #judge(name: string, value: string): void {
    const cmd: Command = { argv: [], env: new Map(), stdin: { kind: "none" }, dirs: this.#dirs, xargs: null };
    loaderVariable(name, { values: [value], unknown: null }, this.#dirs, cmd, this.#sink);
  }
}
