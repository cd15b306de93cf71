/**
 * Node's resolution as part of a script's closure (SPEC §3.5 r4): the modules a script (or inline
 * code) imports, read from its text — a relative one resolved the way Node does and read in turn, a
 * package name through the `node_modules` folders from the script's directory up to the root — and the
 * `package.json` files on that path (`type`, `main`, `exports`, `imports` steer what loads). An import
 * whose name is computed (`require(name)`) cannot be told: unpinnable, named.
 * @module
 */
import { type Command, field, type Sink } from "./reader_types.ts";
import { construct } from "./shell_expand.ts";

/** Suffixes Node tries for a relative import (TypeScript runners too). */
const SUFFIXES = ["", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".json", "/index.js", "/index.mjs", "/index.ts"];
/** How deep relative imports are followed (a chain of helpers); past it, their folder's code is pinned. */
const MAX_DEPTH = 6;
/** Node's own modules: nothing of the root. */
const BUILTIN =
  /^(?:node:|(?:fs|path|os|child_process|util|events|stream|crypto|http|https|url|assert|buffer|zlib|readline|process|net|tls|dns|timers|worker_threads|module|vm|querystring|string_decoder|perf_hooks|async_hooks|v8|tty|cluster|dgram|inspector)(?:\/|$))/;

/** Literal specifiers: `require("x")`, `import … from "x"`, `import("x")`, `export … from "x"`, `import "x"`. */
const LITERAL =
  /\brequire\s*\(\s*(["'`])([^"'`]+)\1\s*\)|\bimport\s*\(\s*(["'`])([^"'`]+)\3\s*\)|(?:\bfrom|^\s*import)\s*(["'])([^"']+)\5/gm;
/** A computed one: `require(expr)`, `import(expr)`. */
const COMPUTED = /\b(?:require|import)\s*\(\s*(?!["'`][^"'`$]*["'`]\s*\))([^)]{0,40})/;

/** The specifiers a module's text imports, or the computed one that cannot be told. */
export function importsOf(code: string): { specs: string[]; computed: string | null } {
  const specs: string[] = [];
  for (const m of code.matchAll(LITERAL)) specs.push(m[2] ?? m[4] ?? m[6]);
  const c = COMPUTED.exec(code);
  return { specs, computed: c ? c[0].trim() : null };
}

/**
 * Pins what `code` (a module in `dir`, or inline code run in `dir`) can load, reading relative imports
 * in turn; `seen` keeps a module from being read twice.
 */
export function nodeImports(
  code: string,
  dir: string,
  cmd: Command,
  s: Sink,
  depth = 0,
  seen = new Set<string>(),
): void {
  packageFiles(dir, s);
  const { specs, computed } = importsOf(code);
  if (computed !== null) s.markUnpinnable(`${construct(computed)}… (an import whose name is computed)`);
  for (const spec of specs) {
    if (BUILTIN.test(spec) || /^(?:https?|data|jsr|npm):/.test(spec)) {
      if (/^(?:https?|npm|jsr):/.test(spec)) s.markUnpinnable(`import of ${construct(spec)} (fetched at run time)`);
      continue;
    }
    if (/^\.{0,2}\//.test(spec)) {
      const base = spec.startsWith("/") ? spec : `${dir}/${spec}`;
      s.relative(SUFFIXES.map((x) => base + x), [""]);
      if (depth >= MAX_DEPTH) {
        s.folder(field(base.slice(0, base.lastIndexOf("/"))), "package", { list: [dir] });
        continue;
      }
      for (const x of SUFFIXES) {
        const path = normal(base + x);
        if (seen.has(path)) continue;
        const text = s.readText(path);
        if (text === null) continue;
        seen.add(path);
        nodeImports(text, path.slice(0, path.lastIndexOf("/")), cmd, s, depth + 1, seen);
        break;
      }
      continue;
    }
    // A package: the first node_modules folder up from `dir` that holds it, each one pinned as code.
    const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
    for (let d = dir; d === s.root || d.startsWith(s.root + "/"); d = d.slice(0, d.lastIndexOf("/"))) {
      s.folder(field(`${d}/node_modules/${name}`), "package", cmd.dirs);
      s.relative([`node_modules/${name}/package.json`], [d]);
    }
  }
}

/** The `package.json` and `.npmrc` files from `dir` up to the root: they steer what loads and how. */
export function packageFiles(dir: string, s: Sink): void {
  for (let d = dir; d === s.root || d.startsWith(s.root + "/"); d = d.slice(0, d.lastIndexOf("/"))) {
    s.relative(["package.json"], [d]);
  }
}

/** `a/./b/../c` → `a/c` (lexically). */
function normal(path: string): string {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === ".") continue;
    if (seg === ".." && out.length > 1) out.pop();
    else out.push(seg);
  }
  return out.join("/");
}
