/**
 * The reader's table of programs (src/shell/program_table.ts, SPEC §3.5 r4): every entry's model is
 * exercised — a data-only entry reads its operands as data (pinned, nothing unpinnable), a modelled
 * entry is covered for plain arguments and names the form it does not cover — and a program outside
 * the table is unpinnable, named.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { PROGRAMS } from "./program_table.ts";
import { readCommand, type ReaderFs } from "./shell_reader.ts";

const ROOT = "/r";
const FILES: Record<string, string> = { "f.txt": "x", ".mind/x.sh": "echo" };
const fs: ReaderFs = {
  list: (dir) => dir === ROOT ? [".mind", "f.txt"] : dir === `${ROOT}/.mind` ? ["x.sh"] : null,
  readText: (p) => p.startsWith(ROOT + "/") ? FILES[p.slice(ROOT.length + 1)] ?? null : null,
};

function read(command: string) {
  return readCommand(command, { root: ROOT, cwd: ROOT, vars: {}, home: null, env: { PATH: "/usr/bin:/bin" }, fs });
}

/** For each modelled entry: arguments it covers, and a form it does not cover with the construct named. */
const MODELLED: Record<string, { covered: string; uncovered: string; names: string }> = {
  sed: { covered: "sed -n 's/a/b/p' f.txt", uncovered: "sed 's/x/date/e' f.txt", names: "sed e (runs a command)" },
  awk: {
    covered: "awk '{ print $1 }' f.txt",
    uncovered: "awk '{ system($0) }' f.txt",
    names: "awk system() or a pipe",
  },
  git: { covered: "git diff -- f.txt", uncovered: "git -c alias.x=!sh x", names: "git -c" },
  tar: { covered: "tar -cf out.tar f.txt", uncovered: "tar --to-command=sh -xf a.tar", names: "tar --to-command" },
};

Deno.test("program table: every data-only entry reads its operands as data and pins the file they name", () => {
  const bad: string[] = [];
  for (const [name, model] of Object.entries(PROGRAMS)) {
    if (model !== PROGRAMS.cat) continue;
    const r = read(`${name} f.txt`);
    if (r.unpinnable !== null || !r.files.includes(`${ROOT}/f.txt`)) bad.push(`${name}: ${JSON.stringify(r)}`);
  }
  assertEquals(bad, []);
});

Deno.test("program table: every modelled entry (and each alias of it) is covered for plain arguments and names what it does not cover", () => {
  const modelled = Object.entries(PROGRAMS).filter(([, m]) => m !== PROGRAMS.cat);
  const bad: string[] = [];
  for (const [name, model] of modelled) {
    const base = Object.keys(MODELLED).find((b) => PROGRAMS[b] === model);
    if (base === undefined) {
      bad.push(`${name}: no case exercises its model`);
      continue;
    }
    const c = MODELLED[base];
    const covered = read(c.covered.replace(base, name));
    const uncovered = read(c.uncovered.replace(base, name));
    if (covered.unpinnable !== null) bad.push(`${name} covered: ${covered.unpinnable}`);
    if (uncovered.unpinnable !== c.names) bad.push(`${name} uncovered: ${uncovered.unpinnable}`);
  }
  assertEquals(bad, []);
});

Deno.test("program table: a program outside it is unpinnable, named; a root file, a function or an alias is not", () => {
  assertEquals(read("frobnicate f.txt").unpinnable, "frobnicate (a program the reader does not know)");
  assertEquals(read("/opt/x/frobnicate").unpinnable, "frobnicate (a program the reader does not know)");
  assertEquals(read("./.mind/x.sh f.txt").unpinnable, null);
  assertEquals(read("f() { echo; }; f f.txt").unpinnable, null);
  assertEquals(read("function g { echo; }; g").unpinnable, null);
  assertEquals(read("alias h='echo'; h").unpinnable, null);
  assertEquals(read("x.sh").unpinnable, "x.sh (a program the reader does not know)");
});
