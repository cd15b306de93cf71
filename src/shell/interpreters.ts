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
import { runPackageScript } from "./project_tools.ts";
import { nodeImports } from "./node_closure.ts";
import { denoCommand } from "./deno_command.ts";
import type { Field } from "./shell_reader.ts";

/** What an interpreter's options mean. */
export type Spec = {
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
  /** The value is a folder searched for the modules it loads (`perl -I`, `ruby -I`). */
  libdirs?: string[];
  /** The value is a module loaded from those folders before the script (`perl -M`, `ruby -r`). */
  loads?: string[];
  /** Short options may be grouped (`-uB`, `-ec`). */
  clusters?: boolean;
  /** A shell: `-c` (alone or grouped) makes the first operand the command string. */
  shell?: boolean;
};

const NODE_SUFFIXES = ["", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs"];
/** What Node-like runtimes try after a script's name. */
export const TS_SUFFIXES = [...NODE_SUFFIXES, ".ts", ".mts", ".cts", ".tsx", "/index.ts"];
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox"]);
const PYTHON = /^(?:python|pypy)(?:\d+(?:\.\d+)*)?[mtw]?$|^py$/;

/** The interpreters' option specs, by model. */
export const SPECS: Record<string, Spec> = {
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
    values: ["-E", "--encoding", "-F", "-x", "-0", "-i", "-T", "-W", "-K"],
    inline: ["-e"],
    libdirs: ["-I"],
    loads: ["-r"],
    chdir: ["-C"],
    clusters: true,
  },
  perl: {
    values: ["-x", "-C", "-F", "-0", "-i", "-l", "-D"],
    inline: ["-e", "-E"],
    libdirs: ["-I"],
    loads: ["-M", "-m"],
    clusters: true,
  },
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
export type Parsed = {
  script: Field | null;
  /** Reads its program from standard input (`-`, `-s`, or no script at all). */
  stdin: boolean;
  inline: Field | null;
  module: Field | null;
  requires: Field[];
  libdirs: Field[];
  loads: Field[];
  chdir: Field | null;
  texts: Field[];
  /** A shell's `-c`. */
  command: boolean;
  flags: Set<string>;
  rest: Field[];
};

/** Reads an interpreter's options and operands by its spec. */
export function parse(args: Field[], spec: Spec): Parsed {
  const p: Parsed = {
    script: null,
    stdin: false,
    inline: null,
    module: null,
    requires: [],
    libdirs: [],
    loads: [],
    chdir: null,
    texts: [],
    command: false,
    flags: new Set(),
    rest: [],
  };
  const takes = (opt: string) =>
    [spec.values, spec.inline, spec.module, spec.require, spec.script, spec.chdir, spec.text, spec.libdirs, spec.loads]
      .some((l) => l?.includes(opt));
  /** Applies an option with its value; true when no script follows it. */
  const apply = (opt: string, value: Field): boolean => {
    if (spec.inline?.includes(opt)) p.inline = value;
    else if (spec.module?.includes(opt)) p.module = value;
    else if (spec.script?.includes(opt)) p.script = value;
    else if (spec.require?.includes(opt)) p.requires.push(value);
    else if (spec.chdir?.includes(opt)) p.chdir = value;
    else if (spec.text?.includes(opt)) p.texts.push(value);
    else if (spec.libdirs?.includes(opt)) p.libdirs.push(value);
    else if (spec.loads?.includes(opt)) p.loads.push(value);
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
  libraryLoads(kind, p, here, s);
  if (kind === "node" && p.script === null && p.inline === null && (p.flags.has("--test") || p.flags.has("--run"))) {
    // `node --test` runs the test files it finds by its own conventions.
    s.markUnpinnable(`${name} ${p.flags.has("--test") ? "--test" : "--run"} (runs what it finds)`);
    return true;
  }
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
  if (p.inline !== null && kind !== "pwsh") inlineCode(kind, p.inline, here, s);
  if (kind === "pwsh" && p.inline !== null) {
    s.markUnpinnable(`${name} ${p.inline.text.length > 0 ? "-Command" : ""}`.trim());
    return true;
  }
  if (p.module !== null && kind === "python") pythonModule(p.module, here, s, p.flags);
  else if (p.script !== null) script(kind, p.script, here, s, p.rest);
  else if (p.inline === null) stdinProgram(name, kind, here, s);
  if (kind === "bun" && p.script !== null && !/[./]/.test(p.script.text)) runPackageScript(p.script, here, s);
  // `node --test a.js b.js`: every operand is a script.
  const scripts = kind === "node" && p.flags.has("--test");
  for (const a of p.rest) scripts ? script(kind, a, here, s) : dataWord(a, here, s);
  return true;
}

/** `perl -Ilib -MMod`, `ruby -Ilib -rmod`: the folders searched pin their code, the modules loaded their files. */
function libraryLoads(kind: string, p: Parsed, cmd: Command, s: Sink): void {
  for (const d of p.libdirs) {
    if (d.unknown !== null) s.markUnpinnable(d.unknown);
    s.folder(d, "package", cmd.dirs);
  }
  for (const m of p.loads) {
    if (m.unknown !== null) s.markUnpinnable(m.unknown);
    const mod = m.text.replace(/=.*$/, "");
    const rel = kind === "perl" ? mod.replaceAll("::", "/") + ".pm" : /\.rb$/.test(mod) ? mod : `${mod}.rb`;
    // Ruby loads a relative path as written; both look the name up in the -I folders.
    if (kind === "ruby" && /^\.{0,2}\//.test(mod)) s.path({ ...m, text: rel }, "run", cmd.dirs);
    for (const d of p.libdirs) s.path({ ...m, text: `${d.text}/${rel}` }, "run", cmd.dirs);
  }
}

/** Paths written in inline code (`python3 -c "exec(open('.mind/x.py').read())"`, `node -e "require('./x')"`). */
const INLINE_PATH = /(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)+|[\w-]+\.(?:py|js|mjs|cjs|ts|sh|rb|pl|php|json)\b/g;

/**
 * Inline code (`-c`, `-e`): what it computes is not read, but a project file it names is pinned (best
 * effort: SPEC §3.5 says what pinning cannot cover).
 */
function inlineCode(kind: string, code: Field, cmd: Command, s: Sink): void {
  cwdClosure(kind, code.text, cmd, s);
  for (const m of code.text.matchAll(INLINE_PATH)) {
    s.path(field(m[0]), "data", cmd.dirs);
    if (!/\.[a-z]+$/.test(m[0])) s.path(field(m[0]), "data", cmd.dirs, [".py", ".js", ".mjs", ".cjs", ".ts"]);
  }
}

/** A program read from standard input: a here-document, a here-string, a pipe or xargs cannot be told. */
function stdinProgram(name: string, kind: string, cmd: Command, s: Sink): void {
  const shell = SHELLS.has(name);
  if (cmd.xargs !== null) s.markUnpinnable(`${cmd.xargs} ${name} (its script comes from input)`);
  const stdin = cmd.stdin;
  if (stdin.kind === "file") s.path(stdin.field, "run", cmd.dirs);
  else if (stdin.kind === "here" && shell) s.markUnpinnable(`${stdin.what} fed to ${name}`);
  else if (stdin.kind === "pipe" && stdin.from.fetch) s.markUnpinnable(`a download piped into ${name}`);
  else if (stdin.kind === "pipe" && !stdin.from.cat) s.markUnpinnable(`a pipe into ${name}`);
  // The program (a here-document is hashed with the command) loads what a script in the cwd would.
  if (stdin.kind !== "none") cwdClosure(kind, "", cmd, s);
}

/**
 * What inline code or a program on standard input can load (SPEC §3.5 r4): it resolves like a script
 * whose directory is the cwd — Python puts the cwd first on sys.path, Node resolves `node_modules`
 * from the cwd — so that closure is pinned.
 */
function cwdClosure(kind: string, code: string, cmd: Command, s: Sink): void {
  if (!("list" in cmd.dirs)) return s.markUnpinnable(cmd.dirs.unknown);
  if (kind === "python") s.folder(field("."), "python", cmd.dirs, [], "inline Python (the cwd)");
  else if (kind === "node" || kind === "tsx" || kind === "bun") {
    for (const d of cmd.dirs.list) nodeImports(code, d, cmd, s);
  }
}

/** The script an interpreter runs. */
function script(kind: string, f: Field, cmd: Command, s: Sink, rest: Field[] = []): void {
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
      s.folder(dirField(f), "python", cmd.dirs, [], f.text);
      s.modelledScript(f, cmd.dirs);
      return;
    case "shell":
      s.path(f, "run", cmd.dirs);
      s.shellScript(f, cmd.dirs, rest, "run");
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
export function nodeScript(f: Field, cmd: Command, s: Sink, suffixes: readonly string[]): void {
  s.path(f, "run", cmd.dirs, suffixes);
  if (f.unknown !== null || !("list" in cmd.dirs)) return;
  const bases = f.text.startsWith("/") ? [f.text] : [...cmd.dirs.list, s.root].map((d) => `${d}/${f.text}`);
  // Its closure (SPEC §3.5 r4): the modules it imports, read from its text, and the package.json files above it.
  for (const base of new Set(bases)) {
    for (const x of suffixes) {
      const text = s.readText(base + x);
      if (text === null) continue;
      nodeImports(text, (base + x).slice(0, (base + x).lastIndexOf("/")), cmd, s);
      s.modelledScript({ ...f, text: base + x, glob: null }, cmd.dirs);
      break;
    }
  }
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
export function requireFile(kind: string, f: Field, cmd: Command, s: Sink): void {
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
