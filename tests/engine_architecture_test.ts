/**
 * The staged engine (issue 26): `src/dispatch/` is gone and nothing imports it; every function of
 * `src/engine/` is short (at most 60 lines) and `engineDispatch`, the stage sequence, at most 40.
 * Function lengths come from a small scanner (strings, comments, templates and regexes masked; braces
 * matched), whose own cases below show it catches declarations, arrows assigned to consts, object and
 * class methods, and return types with braces.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { REPO as ROOT } from "./helpers/cli.ts";
import { join } from "node:path";

/** One function the scanner found: its name (or where it is) and its lines, first to last. */
type Span = { name: string; line: number; lines: number };

/** A slash after `return`, `typeof`, … starts a regex literal. */
function afterKeyword(source: string, at: number): boolean {
  return /\b(?:return|typeof|case|do|else|in|of|void|yield|await)\s*$/.test(source.slice(Math.max(0, at - 12), at));
}

/** `source` with comments, string, template and regex contents blanked (newlines kept). */
function masked(source: string): string {
  const out = source.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  let i = 0;
  /** Brace depths at which an open template literal's `${` was entered. */
  const templates: number[] = [];
  let depth = 0;
  let prev = "";
  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const stop = source.indexOf("*/", i + 2) + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === "\\" ? 2 : 1;
      blank(i, j + 1);
      prev = "a";
      i = j + 1;
    } else if (c === "`" || (c === "}" && templates.length > 0 && templates[templates.length - 1] === depth)) {
      if (c === "}") templates.pop();
      let j = i + 1;
      while (j < source.length && source[j] !== "`" && !(source[j] === "$" && source[j + 1] === "{")) {
        j += source[j] === "\\" ? 2 : 1;
      }
      if (source[j] === "$") {
        templates.push(depth);
        blank(i, j + 2);
        i = j + 2;
      } else {
        blank(i, j + 1);
        prev = "a";
        i = j + 1;
      }
    } else if (c === "/" && (prev === "" || "(,=:[!&|?{};+-*%<>~^".includes(prev) || afterKeyword(source, i))) {
      // A regex literal: where an operand starts, a slash cannot be a division.
      let j = i + 1;
      let inClass = false;
      while (j < source.length && (inClass || source[j] !== "/") && source[j] !== "\n") {
        if (source[j] === "\\") j++;
        else if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j++;
      }
      blank(i, j + 1);
      prev = "a";
      i = j + 1;
    } else {
      if (c === "{") depth++;
      if (c === "}") depth--;
      if (!/\s/.test(c)) prev = /[\w$)\]]/.test(c) ? "a" : c;
      i++;
    }
  }
  return out.join("");
}

const OPEN: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

/** The index of the bracket closing the one at `at`. */
function closing(code: string, at: number): number {
  const stack: string[] = [];
  for (let i = at; i < code.length; i++) {
    if (OPEN[code[i]]) stack.push(OPEN[code[i]]);
    else if (code[i] === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return code.length - 1;
}

/** After these, a `{` in a return type starts an object type, not the body. */
const TYPE_GOES_ON = [":", "|", "&", ",", "(", "=>"];

/**
 * The body's `{` after a parameter list closing at `paren`, skipping a return type (which may hold
 * braces of its own: `): { a: string } {`); -1 when there is no body (a call, not a declaration).
 */
function bodyStart(code: string, paren: number): number {
  let i = paren + 1;
  while (/\s/.test(code[i] ?? "")) i++;
  if (code[i] === "{") return i;
  if (code[i] !== ":") return -1;
  let last = ":";
  let angle = 0;
  for (i++; i < code.length; i++) {
    const c = code[i];
    if (/\s/.test(c)) continue;
    if (c === "<") angle++;
    else if (c === ">" && code[i - 1] !== "=") angle--;
    else if (c === "{" && angle === 0 && !TYPE_GOES_ON.includes(last)) return i;
    else if (OPEN[c]) i = closing(code, i);
    else if (c === ";" && angle === 0) return -1;
    last = c === ">" && code[i - 1] === "=" ? "=>" : c;
  }
  return -1;
}

/** The end of an arrow function's body starting after its `=>` at `from`. */
function arrowEnd(code: string, from: number): number {
  let i = from;
  while (/\s/.test(code[i] ?? "")) i++;
  if (code[i] === "{") return closing(code, i);
  for (; i < code.length; i++) {
    if (OPEN[code[i]]) i = closing(code, i);
    else if (",;)]}".includes(code[i])) return i - 1;
  }
  return code.length - 1;
}

const NOT_METHODS = new Set(["if", "for", "while", "switch", "catch", "return", "function", "with", "super"]);

/** Every function of a TypeScript source: declarations, expressions, arrows, methods. */
export function functionSpans(source: string): Span[] {
  const code = masked(source);
  const lineAt = (i: number) => code.slice(0, i).split("\n").length;
  const spans: Span[] = [];
  const add = (name: string, start: number, end: number) =>
    spans.push({ name, line: lineAt(start), lines: lineAt(end) - lineAt(start) + 1 });
  for (const m of code.matchAll(/\bfunction\b\s*\*?\s*([\w$]*)\s*(<[^(]*>)?\s*\(/g)) {
    const body = bodyStart(code, closing(code, m.index + m[0].length - 1));
    const named = m[1] || /(?:const|let|var)\s+([\w$]+)[^=\n]*=[^=\n]*$/.exec(code.slice(0, m.index))?.[1];
    if (body !== -1) add(named || `function at line ${lineAt(m.index)}`, m.index, closing(code, body));
  }
  for (
    const m of code.matchAll(
      /^[ \t]*(?:(?:static|async|get|set|public|private|protected|override)\s+)*\*?\s*(#?[\w$]+)\s*(<[^(]*>)?\(/gm,
    )
  ) {
    if (NOT_METHODS.has(m[1])) continue;
    const body = bodyStart(code, closing(code, m.index + m[0].length - 1));
    if (body !== -1) add(m[1], m.index, closing(code, body));
  }
  for (const m of code.matchAll(/=>/g)) {
    const lineStart = code.lastIndexOf("\n", m.index) + 1;
    const head = /(?:const|let|var)\s+([\w$]+)|([\w$]+)\s*:/.exec(code.slice(lineStart, m.index));
    const name = head?.[1] ?? head?.[2] ?? `arrow at line ${lineAt(m.index)}`;
    add(name, lineStart, arrowEnd(code, m.index + 2));
  }
  return spans;
}

/** The non-test modules of src/engine/. */
async function engineModules(): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(ROOT, "src", "engine"))) {
    if (e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
      out.push(join(ROOT, "src", "engine", e.name));
    }
  }
  return out.sort();
}

Deno.test("engine architecture: src/dispatch is gone and nothing imports ../dispatch/", async () => {
  const exists = await Deno.stat(join(ROOT, "src", "dispatch")).then(() => true, () => false);
  assertEquals(exists, false);
  const offenders: string[] = [];
  const scan = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory && e.name !== "generated" && !e.name.startsWith(".")) await scan(path);
      else if (e.isFile && e.name.endsWith(".ts")) {
        const text = await Deno.readTextFile(path);
        if (/from\s+["'][./]*(?:src\/)?dispatch\/|import\(\s*["'][./]*(?:src\/)?dispatch\//.test(text)) {
          offenders.push(path);
        }
      }
    }
  };
  for (const dir of ["src", "tests", "bench", "scripts"]) await scan(join(ROOT, dir));
  for (const file of ["mod.ts", "main.ts"]) {
    if (/["'][./]*src\/dispatch\//.test(await Deno.readTextFile(join(ROOT, file)))) offenders.push(file);
  }
  assertEquals(offenders, []);
});

Deno.test("engine architecture: no function of src/engine/ over 60 lines; engineDispatch at most 40", async () => {
  const long: string[] = [];
  let stages: Span | undefined;
  for (const path of await engineModules()) {
    for (const s of functionSpans(await Deno.readTextFile(path))) {
      if (s.lines > 60) long.push(`${path.slice(ROOT.length)}:${s.line} ${s.name} (${s.lines} lines)`);
      if (s.name === "engineDispatch") stages = s;
    }
  }
  assertEquals(long, []);
  assert(stages !== undefined, "engineDispatch not found in src/engine/");
  assert(stages.lines <= 40, `engineDispatch has ${stages.lines} lines (at most 40)`);
});

Deno.test("engine architecture: the scanner finds every kind of function and its whole length", () => {
  const source = [
    "export async function a(x: string): Promise<{ y: string }> {", // 1
    "  const s = `}${'{'}`; // }", //                                    2
    "  return { y: s };", //                                              3
    "}", //                                                               4
    "const b = async (p: number) => {", //                               5
    "  if (p) {", //                                                      6
    "    return /}/.test(String(p));", //                                 7
    "  }", //                                                             8
    "};", //                                                              9
    "const o = {", //                                                    10
    "  method(q: string): { r: string } {", //                           11
    "    return { r: q };", //                                           12
    "  },", //                                                           13
    "};", //                                                             14
    "class K {", //                                                      15
    "  async run(): Promise<void> {", //                                 16
    "    call(1);", //                                                   17
    "    await Promise.all([1].map((n) => n + 1));", //                  18
    "  }", //                                                            19
    "}", //                                                              20
    "const f = function (this: unknown) {", //                           21
    "  return 1;", //                                                    22
    "};", //                                                             23
  ].join("\n");
  const found = functionSpans(source).map((s) => [s.name, s.line, s.lines]).sort((x, y) => Number(x[1]) - Number(y[1]));
  assertEquals(found, [
    ["a", 1, 4],
    ["b", 5, 5],
    ["method", 11, 3],
    ["run", 16, 4],
    ["arrow at line 18", 18, 1],
    ["f", 21, 3],
  ]);
  // And an over-long one is caught, wherever it is.
  const long = ["const g = () => {", ...Array(70).fill("  g2();"), "};"].join("\n");
  assertEquals(functionSpans(long).map((s) => [s.name, s.lines]), [["g", 72]]);
});

/**
 * The writes into a front end's `io` (or anything reached through it) in `source`, one entry per line
 * that assigns to, `Object.assign`s into or pushes onto it: a stage returns what it decided (issue 32).
 */
function ioWrites(source: string): number[] {
  const write = [
    /\bio\.[\w$.]+(?:\[[^\]]*\])?\s*(?:[-+*/%&|^]|\?\?|\|\||&&)?=(?!=)/,
    /Object\.assign\(\s*[\w$.]*\bio\b/,
    /\bio\.[\w$.]+\.(?:push|unshift|splice|set|add|delete|fill|sort|reverse)\(/,
    /\bdelete\s+[\w$.]*\bio\./,
  ];
  return masked(source).split("\n").flatMap((line, i) => write.some((w) => w.test(line)) ? [i + 1] : []);
}

Deno.test("engine architecture: no stage writes into the front end's io (it returns what it decided)", async () => {
  const offenders: string[] = [];
  for (const path of await engineModules()) {
    for (const line of ioWrites(await Deno.readTextFile(path))) offenders.push(`${path.slice(ROOT.length)}:${line}`);
  }
  assertEquals(offenders, []);
  // The checker catches the writes the engine made before issue 32, and passes reads and comparisons.
  const before = [
    "  if (d.io.hostHints) Object.assign(d.io.hostHints, hostHintsOf(aggregated, items, runs));", // 1
    '  if (io.trace) io.trace.files = await (await import("./trace.ts")).traceFiles(catalog, settings);', // 2
    "  d.io.messages.push(line);", // 3
    "  io.log ??= false;", // 4
    "  if (d.io.log === false || d.io.takeAsync !== null) return;", // 5
    "  const take = d.io.takeAsync;", // 6
  ].join("\n");
  assertEquals(ioWrites(before), [1, 2, 3, 4]);
});
