/**
 * Shells and interpreters for the command reader (SPEC §3.5 r3), each resolving its script the way it
 * does: the first argument that is not an option (after options that take a value), `node x` also
 * trying `x.js`, `x.mjs`, `x.cjs`, `x/index.js` and a folder's package.json `main`; `python -m mod`
 * (and `uv run -m`) `mod.py`, `mod/__main__.py`, `mod/__init__.py` against the folder and PYTHONPATH;
 * `python dir` its `__main__.py` (and the package's code); `sh -c` / `bash -c` strings read as
 * commands (`$0`, `$1`… from the words after them); `deno task` its deno.json task. A shell fed its
 * program on standard input by a here-document, a here-string, a pipe or `xargs` is unpinnable.
 * @module
 */
import { dataWord, lookupProgram, runProgram } from "./programs.ts";
import { basename, type Command, field, type Sink } from "./reader_types.ts";
import { denoTask, runPackageScript } from "./project_tools.ts";
import type { Field } from "./shell_reader.ts";

/** What an interpreter's options mean. */
type Spec = {
  /** Options taking a value that is none of the kinds below. */
  values?: string[];
  /** The value is inline code: no script follows. */
  inline?: string[];
  /** The value is a module to run (`python -m`). */
  module?: string[];
  /** The value is a file run before the script (`node -r`, `bash --rcfile`). */
  require?: string[];
  /** The value is the script (`php -f`, `pwsh -File`). */
  script?: string[];
  /** The value is the folder it runs in (`ruby -C`, `bun --cwd`). */
  chdir?: string[];
  /** The value is shell text it runs too (`fish -C`). */
  text?: string[];
  /** Short options may be grouped (`-uB`, `-ec`). */
  clusters?: boolean;
  /** A shell: `-c` (alone or grouped) makes the first operand the command string. */
  shell?: boolean;
};

const NODE_SUFFIXES = ["", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs"];
const TS_SUFFIXES = [...NODE_SUFFIXES, ".ts", ".mts", ".cts", ".tsx", "/index.ts"];
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox"]);
const PYTHON = /^(?:python|pypy)(?:\d+(?:\.\d+)*)?[mtw]?$|^py$/;

const SPECS: Record<string, Spec> = {
  shell: {
    values: ["-o", "+o", "-O", "+O"],
    require: ["--rcfile", "--init-file"],
    text: ["-C", "--init-command"],
    clusters: true,
    shell: true,
  },
  python: { values: ["-W", "-X", "--check-hash-based-pycs"], inline: ["-c"], module: ["-m"], clusters: true },
  node: {
    values: ["-C", "--conditions", "--input-type", "--title", "--env-file"],
    inline: ["-e", "--eval", "-p", "--print"],
    require: ["-r", "--require", "--import", "--loader", "--experimental-loader"],
  },
  tsx: {
    values: ["-C", "--conditions", "--tsconfig", "-P", "--project", "-O", "--compiler-options", "--compiler"]
      .concat(["-D", "--ignore-diagnostics", "-I", "--ignore"]),
    inline: ["-e", "--eval", "-p", "--print"],
    require: ["-r", "--require", "--import", "--loader"],
    chdir: ["--cwd", "--dir"],
  },
  deno: {
    values: [
      "-c",
      "--config",
      "--import-map",
      "--lock",
      "--cert",
      "--location",
      "--seed",
      "--ext",
      "-L",
      "--log-level",
    ],
    require: ["--preload", "--require"],
  },
  bun: {
    values: ["-c", "--config", "--env-file", "--tsconfig-override", "-d", "--define"],
    inline: ["-e", "--eval", "-p", "--print"],
    require: ["-r", "--preload"],
    chdir: ["--cwd"],
  },
  ruby: {
    values: ["-E", "--encoding", "-F", "-x", "-0", "-i", "-T", "-W", "-K", "-I"],
    inline: ["-e"],
    require: ["-r"],
    chdir: ["-C"],
    clusters: true,
  },
  perl: { values: ["-I", "-M", "-m", "-x", "-C", "-F", "-0", "-i", "-l", "-D"], inline: ["-e", "-E"], clusters: true },
  php: { values: ["-c", "-d", "-z", "-t", "-S"], inline: ["-r", "-B", "-R", "-E"], script: ["-f", "-F"] },
  lua: { values: ["-l"], inline: ["-e"] },
  rscript: { inline: ["-e"] },
  pwsh: {
    values: ["-ExecutionPolicy", "-ep", "-ConfigurationName", "-Version", "-InputFormat", "-OutputFormat"]
      .concat(["-WindowStyle"]),
    inline: ["-Command", "-command", "-c", "-EncodedCommand", "-e", "-ec"],
    script: ["-File", "-file", "-f"],
    chdir: ["-WorkingDirectory", "-wd"],
  },
};

/** The model of a program name, or null when it is no interpreter. */
function kindOf(name: string): string | null {
  if (SHELLS.has(name)) return "shell";
  if (PYTHON.test(name)) return "python";
  if (name === "node" || name === "nodejs") return "node";
  if (/^(?:tsx|ts-node(?:-esm|-script|-transpile-only)?|esno|vite-node)$/.test(name)) return "tsx";
  if (name === "ruby" || name === "perl" || name === "php" || name === "deno" || name === "bun") return name;
  if (name === "lua" || name === "luajit") return "lua";
  if (name === "Rscript") return "rscript";
  if (name === "pwsh" || name === "powershell") return "pwsh";
  if (name === "uv") return "uv";
  return null;
}

/** The options and operands of an interpreter, read by its spec. */
type Parsed = {
  script: Field | null;
  /** Reads its program from standard input (`-`, `-s`, or no script at all). */
  stdin: boolean;
  inline: Field | null;
  module: Field | null;
  requires: Field[];
  chdir: Field | null;
  texts: Field[];
  /** A shell's `-c`. */
  command: boolean;
  flags: Set<string>;
  rest: Field[];
};

function parse(args: Field[], spec: Spec): Parsed {
  const p: Parsed = {
    script: null,
    stdin: false,
    inline: null,
    module: null,
    requires: [],
    chdir: null,
    texts: [],
    command: false,
    flags: new Set(),
    rest: [],
  };
  const takes = (opt: string) =>
    [spec.values, spec.inline, spec.module, spec.require, spec.script, spec.chdir, spec.text].some((l) =>
      l?.includes(opt)
    );
  /** Applies an option with its value; true when no script follows it. */
  const apply = (opt: string, value: Field): boolean => {
    if (spec.inline?.includes(opt)) p.inline = value;
    else if (spec.module?.includes(opt)) p.module = value;
    else if (spec.script?.includes(opt)) p.script = value;
    else if (spec.require?.includes(opt)) p.requires.push(value);
    else if (spec.chdir?.includes(opt)) p.chdir = value;
    else if (spec.text?.includes(opt)) p.texts.push(value);
    return p.inline !== null || p.module !== null || p.script !== null;
  };
  let i = 0;
  outer: for (; i < args.length; i++) {
    const w = args[i].text;
    if (w === "--") {
      i++;
      break;
    }
    if (w === "-") {
      p.stdin = true;
      i++;
      break;
    }
    if (!/^[-+]./.test(w)) break;
    if (w.startsWith("--")) {
      const eq = w.indexOf("=");
      const opt = eq > 0 ? w.slice(0, eq) : w;
      if (spec.shell && opt === "--command") p.command = true;
      if (!takes(opt)) {
        p.flags.add(opt);
        continue;
      }
      const value = eq > 0 ? { ...args[i], text: w.slice(eq + 1) } : args[++i];
      if (value === undefined) break;
      if (apply(opt, value)) {
        i++;
        break;
      }
      continue;
    }
    if (!spec.clusters) {
      if (!takes(w)) {
        p.flags.add(w);
        continue;
      }
      const value = args[++i];
      if (value === undefined) break;
      if (apply(w, value)) {
        i++;
        break;
      }
      continue;
    }
    for (let j = 1; j < w.length; j++) {
      const opt = w[0] + w[j];
      if (spec.shell && opt === "-c") {
        p.command = true;
        continue;
      }
      if (spec.shell && opt === "-s") p.stdin = true;
      if (!takes(opt)) {
        p.flags.add(opt);
        continue;
      }
      const attached = w.slice(j + 1);
      const value = attached !== "" ? { ...args[i], text: attached } : args[++i];
      if (value === undefined) break outer;
      if (apply(opt, value)) {
        i++;
        break outer;
      }
      continue outer;
    }
  }
  const operands = args.slice(i);
  if (p.script === null && p.inline === null && p.module === null && !p.stdin) {
    if (p.command && spec.shell) p.inline = operands.shift() ?? null;
    else p.script = operands.shift() ?? null;
  }
  p.rest = operands;
  return p;
}

/** Reads `name ARGS` when `name` is a shell or an interpreter; false when it is not one. */
export function readInterpreter(name: string, args: Field[], cmd: Command, s: Sink): boolean {
  const kind = kindOf(name);
  if (kind === null) return false;
  if (kind === "uv") return uvCommand(args, cmd, s);
  if (kind === "deno") return denoCommand(args, cmd, s);
  if (kind === "bun" && /^(?:x|install|i|add)$/.test(args[0]?.text ?? "")) {
    if (args[0].text !== "x") s.markFetch(`bun ${args[0].text}`);
    return true;
  }
  const p = parse(kind === "bun" && args[0]?.text === "run" ? args.slice(1) : args, SPECS[kind]);
  const dirs = p.chdir === null
    ? cmd.dirs
    : p.chdir.unknown !== null
    ? { unknown: p.chdir.unknown }
    : s.dirsAt(p.chdir.text, cmd.dirs);
  const here = { ...cmd, dirs };
  for (const r of p.requires) requireFile(kind, r, here, s);
  for (const t of p.texts) {
    if (t.unknown !== null) s.markUnpinnable(t.unknown);
    s.nested(t.text);
  }
  if (kind === "shell" && p.inline !== null) {
    // `sh -c 'text' $0 $1 …`: the text is a command line of its own.
    if (p.inline.unknown !== null) s.markUnpinnable(p.inline.unknown);
    const [zero, ...args] = p.rest;
    s.nested(p.inline.text, { args, zero: zero ?? field(name) });
    return true;
  }
  if (p.inline !== null && kind !== "pwsh") inlineCode(p.inline, here, s);
  if (kind === "pwsh" && p.inline !== null) {
    s.markUnpinnable(`${name} ${p.inline.text.length > 0 ? "-Command" : ""}`.trim());
    return true;
  }
  if (p.module !== null && kind === "python") pythonModule(p.module, here, s, p.flags);
  else if (p.script !== null) script(kind, p.script, here, s);
  else if (p.inline === null) stdinProgram(name, here, s);
  if (kind === "bun" && p.script !== null && !/[./]/.test(p.script.text)) runPackageScript(p.script, here, s);
  for (const a of p.rest) dataWord(a, here, s);
  return true;
}

/** Paths written in inline code (`python3 -c "exec(open('.mind/x.py').read())"`, `node -e "require('./x')"`). */
const INLINE_PATH = /(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+|[\w-]+\.(?:py|js|mjs|cjs|ts|sh|rb|pl|php|json)\b/g;

/**
 * Inline code (`-c`, `-e`): what it computes is not read, but a project file it names is pinned (best
 * effort: SPEC §3.5 says what pinning cannot cover).
 */
function inlineCode(code: Field, cmd: Command, s: Sink): void {
  for (const m of code.text.matchAll(INLINE_PATH)) {
    s.path(field(m[0]), "data", cmd.dirs);
    if (!/\.[a-z]+$/.test(m[0])) s.path(field(m[0]), "data", cmd.dirs, [".py", ".js", ".mjs", ".cjs", ".ts"]);
  }
}

/** A program read from standard input: a here-document, a here-string, a pipe or xargs cannot be told. */
function stdinProgram(name: string, cmd: Command, s: Sink): void {
  const shell = SHELLS.has(name);
  if (cmd.xargs !== null) s.markUnpinnable(`${cmd.xargs} ${name} (its script comes from input)`);
  const stdin = cmd.stdin;
  if (stdin.kind === "file") s.path(stdin.field, "run", cmd.dirs);
  else if (stdin.kind === "here" && shell) s.markUnpinnable(`${stdin.what} fed to ${name}`);
  else if (stdin.kind === "pipe" && !stdin.from.fetch && !stdin.from.cat) s.markUnpinnable(`a pipe into ${name}`);
}

/** The script an interpreter runs. */
function script(kind: string, f: Field, cmd: Command, s: Sink): void {
  switch (kind) {
    case "node":
      return nodeScript(f, cmd, s, NODE_SUFFIXES);
    case "tsx":
    case "bun":
      return nodeScript(f, cmd, s, TS_SUFFIXES);
    case "python":
      // A folder (or a zip) runs its __main__.py, and imports the package's modules.
      s.path(f, "run", cmd.dirs, ["", "/__main__.py"]);
      s.folder(f, "package", cmd.dirs);
      // Its directory is sys.path[0] (SPEC §3.5 r4): every Python module there can be imported, a
      // sibling `json.py` shadowing the standard library; nothing else of that folder is loaded.
      s.folder(dirField(f), "python", cmd.dirs);
      s.modelledScript(f, cmd.dirs);
      return;
    case "shell":
      s.path(f, "run", cmd.dirs);
      // bash looks a script without a slash up along PATH when it is not in the folder.
      if (!f.text.includes("/") && f.unknown === null) lookupProgram(f, cmd, s);
      return;
    default:
      s.path(f, "run", cmd.dirs);
  }
}

/** The directory of a script word (`.` for a bare name). */
function dirField(f: Field): Field {
  const slash = f.text.lastIndexOf("/");
  return { ...f, text: slash < 0 ? "." : slash === 0 ? "/" : f.text.slice(0, slash), glob: null };
}

/** `node x`: x, x.js, x.mjs, x.cjs, x/index.js, and the `main` of x/package.json. */
function nodeScript(f: Field, cmd: Command, s: Sink, suffixes: readonly string[]): void {
  s.path(f, "run", cmd.dirs, suffixes);
  if (f.unknown !== null || !("list" in cmd.dirs)) return;
  const bases = f.text.startsWith("/") ? [f.text] : [...cmd.dirs.list, s.root].map((d) => `${d}/${f.text}`);
  for (const base of new Set(bases)) {
    const text = s.readText(`${base}/package.json`);
    if (text === null) continue;
    s.relative(["package.json"], [base]);
    try {
      const main = JSON.parse(text)?.main;
      if (typeof main === "string" && main !== "") s.relative(suffixes.map((x) => main + x), [base]);
    } catch {
      // Not JSON: node refuses it; nothing of it runs.
    }
  }
}

/** `node -r x`, `bash --rcfile x`, `ruby -r x`: a file run before the script. */
function requireFile(kind: string, f: Field, cmd: Command, s: Sink): void {
  if (kind === "node" || kind === "tsx" || kind === "bun" || kind === "deno") {
    if (/^[./]/.test(f.text) || f.unknown !== null) return nodeScript(f, cmd, s, TS_SUFFIXES);
    // A package name: its files in the project's node_modules.
    return nodeScript({ ...f, text: `node_modules/${f.text}` }, cmd, s, NODE_SUFFIXES);
  }
  if (kind === "ruby" && !/^[./]/.test(f.text)) return s.path({ ...f, text: f.text + ".rb" }, "data", cmd.dirs);
  s.path(f, "run", cmd.dirs);
}

/** `python -m a.b`: a/b.py, a/b/__main__.py, a/b/__init__.py (and a/__init__.py) against the folder and PYTHONPATH. */
function pythonModule(mod: Field, cmd: Command, s: Sink, flags: Set<string>): void {
  if (mod.unknown !== null) s.markUnpinnable(mod.unknown);
  if (!("list" in cmd.dirs)) return s.markUnpinnable(cmd.dirs.unknown);
  if (mod.text === "pytest" || mod.text === "unittest" || mod.text === "tox" || mod.text === "nox") {
    s.markUnpinnable(`python -m ${mod.text} (runs the tests it finds)`);
  }
  const rel = mod.text.replaceAll(".", "/");
  const texts = [`${rel}.py`, `${rel}/__main__.py`, `${rel}/__init__.py`];
  const segs = rel.split("/");
  for (let n = 1; n < segs.length; n++) texts.push(`${segs.slice(0, n).join("/")}/__init__.py`);
  const bases = new Set([...cmd.dirs.list, s.root]);
  if (!flags.has("-E") && !flags.has("-I")) {
    const pythonPath = s.variable(cmd, "PYTHONPATH");
    if (pythonPath.unknown !== null) s.markUnpinnable(pythonPath.unknown);
    for (const v of pythonPath.values) {
      for (const entry of v.split(":")) {
        if (entry === "") continue;
        const d = s.dirsAt(entry, cmd.dirs);
        if ("list" in d) { for (const x of d.list) bases.add(x); }
      }
    }
  }
  s.relative(texts, [...bases]);
  s.folder(field(rel), "package", { list: [...bases] });
}

/** `uv run [opts] target …`: a Python script, `-m` module, `python …`, or a program of the project's venv. */
function uvCommand(args: Field[], cmd: Command, s: Sink): boolean {
  const UV_VALUES = new Set([
    "--with",
    "--with-editable",
    "--with-requirements",
    "--python",
    "-p",
    "--project",
    "--directory",
    "--package",
    "--extra",
    "--group",
    "--only-group",
    "--no-group",
    "--index",
    "--default-index",
    "--index-url",
    "--extra-index-url",
    "--find-links",
    "-f",
    "--env-file",
    "--config-file",
    "--cache-dir",
    "--color",
    "--exclude-newer",
    "--resolution",
    "--prerelease",
    "--link-mode",
    "--index-strategy",
    "--keyring-provider",
  ]);
  let i = 0;
  while (i < args.length && args[i].text.startsWith("-")) i += UV_VALUES.has(args[i].text) ? 2 : 1;
  if (args[i]?.text !== "run") return true;
  let dirs = cmd.dirs;
  let isScript = false;
  for (i++; i < args.length; i++) {
    const w = args[i].text;
    if (w === "--") {
      i++;
      break;
    }
    if (!w.startsWith("-")) break;
    const eq = w.indexOf("=");
    const opt = eq > 0 ? w.slice(0, eq) : w;
    if (opt === "-m" || opt === "--module") {
      const mod = eq > 0 ? { ...args[i], text: w.slice(eq + 1) } : args[i + 1];
      if (mod) pythonModule(mod, { ...cmd, dirs }, s, new Set());
      return true;
    }
    if (opt === "--script" || opt === "-s") isScript = true;
    if (opt === "--with" || opt === "--with-requirements") s.markFetch("uv run --with");
    if (!UV_VALUES.has(opt) || eq > 0) continue;
    const value = args[++i];
    if (opt === "--directory" && value) dirs = value.unknown ? { unknown: value.unknown } : s.dirsAt(value.text, dirs);
  }
  const target = args[i];
  if (target === undefined) return true;
  const here = { ...cmd, dirs };
  if (PYTHON.test(basename(target.text))) return readInterpreter("python", args.slice(i + 1), here, s);
  if (isScript || /\.pyw?$/.test(target.text) || target.text.includes("/") || target.unknown !== null) {
    script("python", target, here, s);
  } else {
    // A program of the project's environment first, then along PATH.
    if ("list" in dirs) s.relative([`.venv/bin/${target.text}`], [...dirs.list, s.root]);
    runProgram({ ...here, argv: args.slice(i) }, s);
    return true;
  }
  for (const a of args.slice(i + 1)) dataWord(a, here, s);
  return true;
}

/** Deno's subcommands whose arguments are data (or files it does not run). */
const DENO_DATA = new Set([
  "fmt",
  "lint",
  "check",
  "doc",
  "info",
  "types",
  "upgrade",
  "init",
  "completions",
  "lsp",
  "publish",
  "clean",
  "coverage",
  "cache",
  "install",
  "uninstall",
  "add",
  "remove",
  "outdated",
  "compile",
  "jupyter",
]);

/** `deno run x`, `deno x`, `deno task name`, `deno eval …`, `deno test`. */
function denoCommand(args: Field[], cmd: Command, s: Sink): boolean {
  const sub = args[0]?.text;
  if (sub === undefined || sub === "eval" || sub === "repl" || sub === "x") return true;
  if (sub === "task") {
    const name = args.slice(1).find((a) => !a.text.startsWith("-"));
    if (name) denoTask(name, cmd, s);
    return true;
  }
  if (sub === "test" || sub === "bench") {
    const files = args.slice(1).filter((a) => !a.text.startsWith("-"));
    if (files.length === 0) s.markUnpinnable(`deno ${sub} (runs the tests it finds)`);
    for (const f of files) s.path(f, "run", cmd.dirs);
    return true;
  }
  if (DENO_DATA.has(sub)) {
    for (const a of args.slice(1)) dataWord(a, cmd, s);
    return true;
  }
  const p = parse(sub === "run" || sub === "serve" ? args.slice(1) : args, SPECS.deno);
  for (const r of p.requires) requireFile("deno", r, cmd, s);
  if (p.script !== null) nodeScript(p.script, cmd, s, TS_SUFFIXES);
  for (const a of p.rest) dataWord(a, cmd, s);
  return true;
}
