/**
 * The program models of the command reader (SPEC §3.5 r3): what one simple command runs, given its
 * expanded words. A bare program name is looked up along the PATH the hook runs with; wrappers
 * (`env` with `-S`, `timeout`, `nice`, `nohup`, `time`, `command`, `exec`, `stdbuf`, `xargs`,
 * `sudo`, …) are looked through; builtins that change the shell's state (`cd`, `pushd`, `popd`,
 * `export`, `unset`, `read`, `source`, `eval`) change the reader's; `find … -exec` pins the folders it
 * searches; `npm run` / `pnpm` / `yarn` read the `package.json` script they run; programs that run
 * the code they find by their own conventions (`make`, test runners) are unpinnable. Shells and
 * interpreters are in src/shell/interpreters.ts.
 * @module
 */
import type { Field } from "./shell_reader.ts";
import { readInterpreter } from "./interpreters.ts";
import { basename, type Command, field, type PipeFrom, type Sink } from "./reader_types.ts";
import { packageScript } from "./project_tools.ts";
import { loaderVariable } from "./loader_vars.ts";
import { tableProgram } from "./program_table.ts";
import { construct, type Value } from "./shell_expand.ts";

export type { Command, Dirs, PipeFrom, Sink, Stdin } from "./reader_types.ts";

/** Programs that download what they run (or download at all). */
const FETCHERS = new Set(["npx", "bunx", "pnpx", "uvx", "curl", "wget"]);
/** Program + subcommand pairs that download what they run. */
const FETCHING_SUBCOMMANDS: Record<string, Set<string>> = {
  pnpm: new Set(["dlx"]),
  yarn: new Set(["dlx"]),
  npm: new Set(["exec", "x"]),
  pipx: new Set(["run"]),
  bun: new Set(["x"]),
  uv: new Set(["tool"]),
};
const URL = /^(?:https?|ftp):\/\/|^git\+/;

/**
 * A fetch is a download of code that runs or installs (SPEC §3.5: what it fetches is not pinned). curl
 * and wget download by default — but a request that sends (a body, a form, an upload, or a sending
 * method) and keeps no response (none saved to a file; a discarded one, `-o /dev/null`, is kept by none)
 * only sends: a notification or a log upload, nothing that runs. What it prints may still be piped into
 * an interpreter: that pipe is then what is unpinnable, said by the interpreter's reading.
 */
const SENDING: Record<string, { sends: RegExp; method: string[]; saves: RegExp; output: string[] }> = {
  curl: {
    sends: /^(?:-[dFT].*|--data(?:-\w+)?(?:=.*)?|--form(?:-string)?(?:=.*)?|--upload-file(?:=.*)?|--json(?:=.*)?)$/,
    method: ["-X", "--request"],
    saves: /^(?:-O|--remote-name(?:-all)?|-J|--remote-header-name)$/,
    output: ["-o", "--output"],
  },
  wget: {
    sends: /^--(?:post-data|post-file|body-data|body-file)(?:=.*)?$/,
    method: ["--method"],
    saves: /^$/,
    output: ["-O", "--output-document"],
  },
};

/** The value of option `names` in `words[i]` (`-X POST`, `-XPOST`, `--request=POST`), and the next index; else null. */
function optionValue(names: readonly string[], words: readonly string[], i: number): [string, number] | null {
  const w = words[i];
  for (const n of names) {
    if (w === n) return [words[i + 1] ?? "", i + 1];
    if (n.startsWith("--") ? w.startsWith(`${n}=`) : w.startsWith(n)) return [w.slice(n.length).replace(/^=/, ""), i];
  }
  return null;
}

/** True when `program`'s words only send (see {@link SENDING}): no code it fetches can run. */
function onlySends(program: string, argv: readonly Field[]): boolean {
  const rule = Object.hasOwn(SENDING, program) ? SENDING[program] : undefined;
  if (rule === undefined) return false;
  const words = argv.slice(1).map((a) => a.text);
  let sends = false;
  // wget saves what it fetches unless told where; curl prints it (a pipe into an interpreter is read there).
  let saved = program === "wget";
  for (let i = 0; i < words.length; i++) {
    const method = optionValue(rule.method, words, i);
    const output = optionValue(rule.output, words, i);
    if (method !== null) {
      if (/^(?:POST|PUT|PATCH|DELETE)$/i.test(method[0])) sends = true;
      i = method[1];
    } else if (output !== null) {
      saved = output[0] !== "/dev/null" && !(program === "wget" && output[0] === "-");
      i = output[1];
    } else if (rule.sends.test(words[i])) sends = true;
    else if (rule.saves.test(words[i])) saved = true;
  }
  return sends && !saved;
}

/** Options (taking a value) of the wrappers looked through, and the words they take before the command. */
const WRAPPERS: Record<string, { values: string[]; operands?: number }> = {
  env: { values: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"] },
  timeout: { values: ["-s", "--signal", "-k", "--kill-after"], operands: 1 },
  nice: { values: ["-n", "--adjustment"] },
  nohup: { values: [] },
  time: { values: ["-f", "--format", "-o", "--output"] },
  command: { values: [] },
  builtin: { values: [] },
  exec: { values: ["-a"] },
  stdbuf: { values: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  xargs: {
    values: ["-I", "-n", "-L", "-P", "-d", "-E", "-s", "-a", "--arg-file", "--max-args", "--max-lines", "--max-procs"]
      .concat(["--delimiter", "--eof", "--max-chars", "--replace", "--process-slot-var"]),
  },
  sudo: {
    values: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group", "--chdir", "--host"]
      .concat(["--prompt", "--role", "--type", "--other-user", "--command-timeout", "--close-from"]),
  },
  doas: { values: ["-u", "-C"] },
  setsid: { values: [] },
  ionice: { values: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"] },
  chronic: { values: [] },
  unbuffer: { values: [] },
  caffeinate: { values: ["-t", "-w"] },
  flock: { values: ["-w", "--timeout", "-E", "--conflict-exit-code"], operands: 1 },
};

/** Programs that run the code they find by their own conventions: what they run cannot be told. */
const RUNNERS: Record<string, string> = {
  make: "runs its Makefile's recipes",
  gmake: "runs its Makefile's recipes",
  just: "runs its justfile's recipes",
  rake: "runs its Rakefile's tasks",
  pytest: "runs the tests it finds",
  "py.test": "runs the tests it finds",
  jest: "runs the tests it finds",
  vitest: "runs the tests it finds",
  mocha: "runs the tests it finds",
  tox: "runs its tox.ini's commands",
  nox: "runs its noxfile",
  gradle: "runs its build scripts",
  gradlew: "runs its build scripts",
  mvn: "runs its build",
  cargo: "builds and runs the crate",
};
/** Subcommands of `go` that run the project's code. */
const GO_RUNS = new Set(["run", "test", "generate"]);
/** Builtins and keywords: never looked up along PATH. */
const BUILTINS = new Set([
  "cd",
  "pushd",
  "popd",
  "export",
  "local",
  "declare",
  "typeset",
  "readonly",
  "unset",
  "read",
  "source",
  ".",
  "eval",
  "echo",
  "printf",
  "test",
  "[",
  "true",
  "false",
  ":",
  "exit",
  "return",
  "set",
  "shift",
  "trap",
  "wait",
  "kill",
  "type",
  "hash",
  "alias",
  "unalias",
  "ulimit",
  "umask",
  "getopts",
  "let",
  "break",
  "continue",
  "jobs",
  "times",
  "shopt",
]);
/** Programs whose operands are written or removed, never read or run: pinning them would modify the hook on every run. */
const WRITERS = new Set(["tee", "touch", "rm", "rmdir", "mkdir", "truncate", "mktemp"]);

/** Reads one simple command; returns what it gives a pipe. */
export function runProgram(cmd: Command, s: Sink): PipeFrom {
  let fetch = false;
  for (let guard = 0; guard < 32; guard++) {
    const prog = cmd.argv[0];
    if (prog === undefined) return { fetch, cat: false };
    const name = basename(prog.text);
    if (prog.unknown !== null || prog.text.includes("/")) s.path(prog, "run", cmd.dirs);
    else if (!BUILTINS.has(name)) lookupProgram(prog, cmd, s);
    if (FETCHERS.has(name) && name.endsWith("x") && localBin(name, cmd, s)) return { fetch, cat: false };
    // A request that only sends fetches nothing by itself; what it prints is still a download, which the
    // interpreter it is piped into says it cannot pin (src/shell/interpreters.ts).
    const sendOnly = onlySends(name, cmd.argv);
    if (sendOnly) fetch = true;
    else if (noteFetch(name, cmd.argv[1]?.text, s)) fetch = true;
    for (const a of cmd.argv) {
      // The URL a request only sends to is not code fetched.
      if (!sendOnly && URL.test(a.text)) {
        s.markFetch("a URL");
        fetch = true;
      }
    }
    const wrapper = WRAPPERS[name];
    if (wrapper === undefined) break;
    if (name === "command" && cmd.argv.some((a, i) => i > 0 && /^-[pvV]*[vV]/.test(a.text))) {
      return { fetch, cat: false };
    }
    const inner = unwrap(name, wrapper, cmd, s);
    if (inner === null) return { fetch, cat: false };
    cmd = inner;
  }
  const prog = cmd.argv[0];
  const name = basename(prog.text).replace(/\.exe$/i, "");
  const args = cmd.argv.slice(1);
  s.programRuns(name);
  if (builtin(name, args, cmd, s)) return { fetch, cat: false };
  if (readInterpreter(name, args, cmd, s)) return { fetch, cat: false };
  if (packageScript(name, args, cmd, s)) return { fetch, cat: false };
  if (name === "find") {
    findCommand(args, cmd, s);
    return { fetch, cat: false };
  }
  if (name === "run-parts") {
    // It runs every executable of the folder it is given.
    for (const a of args) if (!a.text.startsWith("-")) s.folder(a, "find", cmd.dirs);
  }
  const runner = RUNNERS[name] ??
    (name === "go" && GO_RUNS.has(args[0]?.text ?? "") ? "builds and runs its code" : null);
  if (runner !== null) s.markUnpinnable(`${name} (${runner})`);
  if (name === "make" || name === "gmake") {
    for (const f of ["GNUmakefile", "makefile", "Makefile"]) s.path(field(f), "data", cmd.dirs);
  }
  if (WRITERS.has(name)) return { fetch, cat: false };
  // The closed world (SPEC §3.5 r4): a program is a file of the root (pinned), a function or alias the
  // command defines, or in the table; anything else cannot be told and is named.
  if (runner === null && name !== "run-parts" && !knownProgram(prog, name, args, cmd, s)) {
    s.markUnpinnable(`${construct(name)} (a program the reader does not know)`);
  }
  for (const a of args) dataWord(a, cmd, s);
  return { fetch, cat: name === "cat" && args.every((a) => a.unknown === null) };
}

/** Whether the reader knows what `prog` is: a file of the root, a function or alias defined, or a table entry. */
function knownProgram(prog: Field, name: string, args: Field[], cmd: Command, s: Sink): boolean {
  if (prog.text.includes("/")) {
    // A file the command runs by its path: pinned (a path outside the root is read by its name).
    if (!prog.text.startsWith("/") || prog.text === s.root || prog.text.startsWith(s.root + "/")) {
      // A script run by its path: a shell script's text is read (a `#!` naming another interpreter, or a
      // binary, keeps the script-folder fallback).
      const head = s.readText(absolute(prog, cmd, s));
      // The interpreter its `#!` names reads the loader variables of its family (`#!/usr/bin/env node`).
      const interpreter = /^#!\s*(\S+)(?:\s+(?:-S\s+)?(\S+))?/.exec(head ?? "");
      if (interpreter !== null) {
        s.programRuns(basename(interpreter[1]) === "env" ? basename(interpreter[2] ?? "") : basename(interpreter[1]));
      }
      const shell = /^#!\s*\/(?:usr\/)?bin\/(?:env\s+)?(?:ba|da|k|z)?sh\b/.test(head ?? "");
      if (head !== null && (shell || (!head.startsWith("#!") && !head.startsWith("\x7fELF")))) {
        s.shellScript(prog, cmd.dirs, args, "run");
      }
      return true;
    }
  } else if (s.isDefined(name) || s.resolvesInRoot(prog, cmd)) return true;
  return tableProgram(name, args, cmd, s);
}

/** The first path a program word names (against the first possible cwd), for a look at its first line. */
function absolute(prog: Field, cmd: Command, s: Sink): string {
  if (prog.text.startsWith("/")) return prog.text;
  return `${"list" in cmd.dirs ? cmd.dirs.list[0] : s.root}/${prog.text}`;
}

/** A word of a program's arguments that may name a file it reads (`--opt=value` names its value). */
export function dataWord(a: Field, cmd: Command, s: Sink): void {
  if (a.text.startsWith("-")) {
    const eq = a.text.indexOf("=");
    if (eq > 0) s.path({ ...a, text: a.text.slice(eq + 1), glob: null }, "data", cmd.dirs);
    return;
  }
  s.path(a, "data", cmd.dirs);
}

/**
 * An assigned variable (a prefix, a plain assignment, `export`, `env NAME=…`): a loader variable is
 * decided by its model (src/shell/loader_vars.ts, SPEC §3.5 r4); any other value may name a file it
 * reads (`CONFIG=.mind/x.json`), pinned as data.
 */
export function assignedValue(name: string, value: Value, cmd: Command, s: Sink): void {
  if (loaderVariable(name, value, cmd.dirs, cmd, s)) return;
  for (const v of value.values) s.path(field(v), "data", cmd.dirs);
}

/**
 * `npx [--no-install] bin …` whose bin is in a `node_modules/.bin` from the cwd up to the root: it runs
 * that file, pinned like a script with its package (SPEC §3.5 r4). False when it is not there (a fetch).
 */
function localBin(name: string, cmd: Command, s: Sink): boolean {
  const args = cmd.argv.slice(1);
  const at = args.findIndex((a) => !a.text.startsWith("-"));
  const bin = args[at];
  if (bin === undefined || bin.unknown !== null || bin.text.includes("/") || !("list" in cmd.dirs)) return false;
  for (const start of new Set([...cmd.dirs.list, s.root])) {
    for (let d = start; d === s.root || d.startsWith(s.root + "/"); d = d.slice(0, d.lastIndexOf("/"))) {
      const path = `${d}/node_modules/.bin/${bin.text}`;
      if (s.readText(path) === null) continue;
      s.relative([path], [""]);
      s.folder(field(`${d}/node_modules/${bin.text}`), "package", cmd.dirs);
      s.relative(["package.json", ".npmrc"], [d]);
      for (const a of args.slice(at + 1)) dataWord(a, cmd, s);
      return true;
    }
  }
  if (name === "npx" && args.slice(0, at).some((a) => a.text === "--no-install" || a.text === "--no")) {
    s.markUnpinnable(`npx --no-install ${construct(bin.text)} (not in a node_modules/.bin of the root)`);
    return true;
  }
  return false;
}

/** Notes a program that downloads what it runs. */
function noteFetch(program: string, next: string | undefined, s: Sink): boolean {
  if (FETCHERS.has(program)) {
    s.markFetch(program);
    // What it runs is fetched at run time (SPEC §3.5 r4): unpinnable (curl and wget only download).
    if (program !== "curl" && program !== "wget") s.markUnpinnable(`${program} (fetches the code it runs)`);
    return true;
  }
  if (next !== undefined && FETCHING_SUBCOMMANDS[program]?.has(next)) {
    s.markFetch(`${program} ${next}`);
    s.markUnpinnable(`${program} ${next} (fetches the code it runs)`);
    return true;
  }
  return false;
}

/** A bare program name, looked up along the PATH the command runs with: candidates inside the root. */
export function lookupProgram(prog: Field, cmd: Command, s: Sink): void {
  if (prog.text === "") return;
  const path = s.variable(cmd, "PATH");
  if (path.unknown !== null) {
    s.markUnpinnable(path.unknown);
    return;
  }
  const bases: string[] = [];
  for (const value of path.values) {
    for (const entry of value.split(":")) {
      const dir = entry === "" ? "." : entry;
      const dirs = s.dirsAt(dir, cmd.dirs);
      if ("list" in dirs) bases.push(...dirs.list.filter((d) => d === s.root || d.startsWith(s.root + "/")));
      else if (!dir.startsWith("/")) s.markUnpinnable(dirs.unknown);
    }
  }
  s.relative([prog.text], bases);
}

/** Looks through one wrapper: the command it runs, or null when it runs none. */
function unwrap(name: string, spec: { values: string[]; operands?: number }, cmd: Command, s: Sink): Command | null {
  const argv = cmd.argv;
  const env = new Map(cmd.env);
  let dirs = cmd.dirs;
  let xargs = cmd.xargs;
  let i = 1;
  let operands = spec.operands ?? 0;
  let replace: string | null = null;
  for (; i < argv.length; i++) {
    const w = argv[i].text;
    if (w === "--") {
      i++;
      break;
    }
    if (name === "env" && /^[A-Za-z_]\w*=/.test(w)) {
      // `env NAME=value cmd`: decided like every other way of setting it (SPEC §3.5 r4).
      const value: Value = { values: [w.slice(w.indexOf("=") + 1)], unknown: argv[i].unknown };
      env.set(w.slice(0, w.indexOf("=")), value);
      assignedValue(w.slice(0, w.indexOf("=")), value, { ...cmd, dirs }, s);
      continue;
    }
    if (name === "env" && (w === "-i" || w === "--ignore-environment" || w === "-")) {
      env.set("PATH", { values: ["/usr/bin:/bin"], unknown: null });
      continue;
    }
    if (!w.startsWith("-") || w === "-") {
      if (operands > 0) {
        operands--;
        if (name === "flock" && argv[i + 1]?.text === "-c") {
          // `flock FILE -c 'command'`.
          if (argv[i + 2]) s.nested(argv[i + 2].text);
          return null;
        }
        continue;
      }
      break;
    }
    const long = w.startsWith("--");
    const eq = w.indexOf("=");
    const opt = long ? (eq > 0 ? w.slice(0, eq) : w) : w.slice(0, 2);
    if (!spec.values.includes(opt)) continue;
    const attached = long ? (eq > 0 ? w.slice(eq + 1) : null) : (w.length > 2 ? w.slice(2) : null);
    const value = attached !== null ? { ...argv[i], text: attached } : argv[++i];
    if (value === undefined) return null;
    if (name === "env" && (opt === "-S" || opt === "--split-string")) {
      // `env -S 'sh x.sh'`: the string is split into the command's words.
      if (value.unknown !== null) s.markUnpinnable(value.unknown);
      // Read again as `env WORDS…`: the string's own `NAME=value` words are assignments of env's.
      return { ...cmd, argv: [field("env"), ...s.split(value.text), ...argv.slice(i + 1)], env, dirs };
    }
    if (opt === "-C" && name === "env" || opt === "--chdir" || (name === "sudo" && opt === "-D")) {
      dirs = value.unknown !== null ? { unknown: value.unknown } : s.dirsAt(value.text, dirs);
    }
    if (name === "env" && (opt === "-u" || opt === "--unset")) env.set(value.text, { values: [""], unknown: null });
    if (name === "xargs" && (opt === "-I" || opt === "--replace")) replace = value.text;
  }
  if (i >= argv.length) return null;
  let rest = argv.slice(i);
  if (name === "xargs") {
    xargs = "xargs";
    if (replace !== null) {
      // `xargs -I {} …`: every word holding {} gets a value read from input.
      const r = replace;
      rest = rest.map((f) => f.text.includes(r) ? { ...f, unknown: f.unknown ?? `xargs -I ${r}` } : f);
    }
  }
  return { argv: rest, env, stdin: cmd.stdin, dirs, xargs };
}

/** The builtins that change the shell's state or run text; true when `name` is one. */
function builtin(name: string, args: Field[], cmd: Command, s: Sink): boolean {
  switch (name) {
    case "cd":
    case "pushd": {
      const target = args.find((a) => !/^-[LPe@]*$/.test(a.text) || a.text === "-");
      const cdpath = s.variable(cmd, "CDPATH");
      if (target?.text === "-") s.chdir({ ...target, unknown: "cd -" }, name);
      else if (target && !target.text.startsWith("/") && (cdpath.unknown !== null || cdpath.values[0] !== "")) {
        // CDPATH sends a relative cd elsewhere: where, the reader does not follow.
        s.chdir({ ...target, unknown: cdpath.unknown ?? "CDPATH" }, name);
      } else s.chdir(target ?? null, name);
      return true;
    }
    case "popd":
      s.chdir(null, "popd");
      return true;
    case "export":
    case "local":
    case "declare":
    case "typeset":
    case "readonly": {
      // `declare -n ref=name` makes ref another name for a variable: its value is not followed.
      const nameref = args.some((a) => /^-[a-zA-Z]*n/.test(a.text));
      for (const a of args) {
        const m = /^([A-Za-z_]\w*)=/.exec(a.text);
        if (m) {
          const value: Value = {
            values: [a.text.slice(m[0].length)],
            unknown: nameref ? `${name} -n ${m[1]}` : a.unknown,
          };
          s.assign(m[1], value);
          assignedValue(m[1], value, cmd, s);
        }
      }
      return true;
    }
    case "unset":
      for (const a of args) if (/^[A-Za-z_]\w*$/.test(a.text)) s.assign(a.text, { values: [""], unknown: null });
      return true;
    case "read":
      for (const a of args) {
        if (/^[A-Za-z_]\w*$/.test(a.text)) s.assign(a.text, { values: [""], unknown: `read ${a.text}` });
      }
      return true;
    case "source":
    case ".": {
      const file = args[0];
      if (file === undefined) return true;
      if (file.unknown !== null) s.markUnpinnable(`${name} ${file.unknown}`);
      s.path(file, "run", cmd.dirs);
      s.shellScript(file, cmd.dirs, args.slice(1), "source");
      if (!file.text.includes("/")) lookupProgram(file, cmd, s);
      return true;
    }
    case "eval": {
      const unknown = args.find((a) => a.unknown !== null);
      if (unknown) s.markUnpinnable(`eval ${unknown.unknown}`);
      s.nested(args.map((a) => a.text).join(" "), { subshell: false });
      return true;
    }
    case "trap":
      if (args[0] && !args[0].text.startsWith("-")) {
        if (args[0].unknown !== null) s.markUnpinnable(args[0].unknown);
        s.nested(args[0].text);
      }
      return true;
    case "alias":
      // An alias runs its value where its name is used (zsh expands aliases in scripts too).
      for (const a of args) {
        const eq = a.text.indexOf("=");
        if (eq <= 0) continue;
        s.define(a.text.slice(0, eq));
        if (a.unknown !== null) s.markUnpinnable(a.unknown);
        s.nested(a.text.slice(eq + 1));
      }
      return true;
    case "set": {
      const dd = args.findIndex((a) => a.text === "--");
      const first = args.findIndex((a) => !/^[-+]/.test(a.text));
      const from = dd >= 0 ? dd + 1 : first;
      if (from >= 0) s.setArgs(args.slice(from));
      return true;
    }
    case "shift":
      s.shiftArgs(args[0] && /^\d+$/.test(args[0].text) ? Number(args[0].text) : 1);
      return true;
    case "type":
    case "hash":
    case "unalias":
    case "getopts":
      // `hash -p FILE name` makes `name` run FILE: every word may name a file.
      for (const a of args) dataWord(a, cmd, s);
      return true;
    default:
      return false;
  }
}

/** `find START… EXPR` with `-exec`/`-execdir`/`-ok`: the folders it searches pin their code (and what `-name` picks). */
function findCommand(args: Field[], cmd: Command, s: Sink): void {
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-D$|^-O\d$/.test(args[i].text)) i += args[i].text === "-D" ? 2 : 1;
  const starts: Field[] = [];
  for (; i < args.length && !/^[-(!]/.test(args[i].text); i++) starts.push(args[i]);
  if (starts.length === 0) starts.push(field("."));
  const names: string[] = [];
  const bodies: Field[][] = [];
  for (; i < args.length; i++) {
    const w = args[i].text;
    if ((w === "-name" || w === "-iname") && args[i + 1]) names.push(args[++i].text);
    else if (w === "-exec" || w === "-execdir" || w === "-ok" || w === "-okdir") {
      const body: Field[] = [];
      for (i++; i < args.length && args[i].text !== ";" && args[i].text !== "+"; i++) body.push(args[i]);
      bodies.push(body);
    }
  }
  if (bodies.length === 0) {
    for (const st of starts) dataWord(st, cmd, s);
    return;
  }
  for (const st of starts) {
    if (st.unknown !== null) s.markUnpinnable(st.unknown);
    s.folder(st, "find", cmd.dirs, names);
  }
  for (const body of bodies) {
    // `{}` stands for each file found: pinned through the folders above.
    const argv = body.map((f) => f.text === "{}" ? field("") : f);
    if (argv.length > 0) runProgram({ ...cmd, argv, stdin: { kind: "none" } }, s);
  }
}
