/**
 * Fuzzing the command reader (SPEC §3.5 r3, issue 21 "Beyond the list") with fast-check: generated
 * command lines that run a project script through the shell forms the reader must understand —
 * path spellings (`$PWD`, `$(pwd)`, the root variables, variables assigned before, `cd`/`pushd`,
 * globs, braces, quoting), wrappers, `sh -c`/`eval` strings, compound commands, `find -exec`, and
 * computed paths the reader cannot know — nested to a few levels.
 *
 * The property: the reader either pins the script (it names the file, or a folder holding it that it
 * pins the code of) or marks the command unpinnable. A form that does neither is a defect. A second
 * target feeds arbitrary text: no exception escapes, and every construct named is one short line.
 *
 * `tests/reader_fuzz_test.ts` runs both with a fixed seed; `deno task fuzz` runs them with a random
 * seed, printed first (a failure also prints fast-check's seed and path, to replay it).
 * @module
 */
import fc from "fast-check";
import { readCommand, type ReaderFs } from "../src/shell/shell_reader.ts";
import { rootVariables } from "../src/trust/pin_scope.ts";

const ROOT = "/r";

/** The project: scripts the generated commands run, and neighbours they must not be confused with. */
const FILES = [".mind/check.sh", ".mind/guard.py", ".mind/hook.js", "scripts/run.sh", "scripts/other.sh"];

const fs: ReaderFs = {
  list(dir) {
    const base = dir === ROOT ? "" : dir.startsWith(ROOT + "/") ? dir.slice(ROOT.length + 1) + "/" : null;
    if (base === null) return null;
    const names = new Set<string>();
    for (const f of FILES) if (f.startsWith(base)) names.add(f.slice(base.length).split("/")[0]);
    return names.size > 0 ? [...names] : null;
  },
  readText: () => null,
};

/** POSIX single quoting. */
function shq(s: string): string {
  return "'" + s.replaceAll("'", `'"'"'`) + "'";
}

/** A command that runs a script: the text, the script it runs (root-relative), and whether it is one simple command. */
type Form = { command: string; script: string; simple?: boolean };

/** How a script's path is spelled: each takes the folder and the file name. */
const spellings: fc.Arbitrary<(dir: string, name: string) => { setup: string; path: string; inDir?: string }> = fc
  .constantFrom(
    (d: string, n: string) => ({ setup: "", path: `${d}/${n}` }),
    (d: string, n: string) => ({ setup: "", path: `"$PWD/${d}/${n}"` }),
    (d: string, n: string) => ({ setup: "", path: `"\${PWD}/${d}/${n}"` }),
    (d: string, n: string) => ({ setup: "", path: `"$(pwd)/${d}/${n}"` }),
    (d: string, n: string) => ({ setup: "", path: `"$CLAUDE_PROJECT_DIR"/${d}/${n}` }),
    (d: string, n: string) => ({ setup: "", path: `\${MIND_PROJECT_DIR}/${d}/${n}` }),
    (d: string, n: string) => ({ setup: "", path: `"$(git rev-parse --show-toplevel)/${d}/${n}"` }),
    (d: string, n: string) => ({ setup: `D=${d}; `, path: `"$D/${n}"` }),
    (d: string, n: string) => ({ setup: `export D=${shq(d)}; `, path: `$D/${n}` }),
    (d: string, n: string) => ({ setup: `F=${d}/${n}; G=$F; `, path: `"$G"` }),
    (d: string, n: string) => ({ setup: `cd ${d} && `, path: n, inDir: d }),
    (d: string, n: string) => ({ setup: `pushd ${d} >/dev/null && `, path: n, inDir: d }),
    (d: string, n: string) => ({ setup: "", path: `${d}/${n.slice(0, -2)}?${n.slice(-1)}` }),
    (d: string, n: string) => ({ setup: "", path: `${d}/${n[0]}*` }),
    (d: string, n: string) => ({ setup: "", path: `${d}/{${n},nothing}` }),
    (d: string, n: string) => ({ setup: "", path: `'${d}/${n}'` }),
    (d: string, n: string) => ({ setup: "", path: `${d}/"${n}"` }),
    (d: string, n: string) => ({ setup: "", path: `${d}/\\${n}` }),
    (d: string, n: string) => ({ setup: "", path: `$'${d}/${n}'` }),
    (d: string, n: string) => ({ setup: "", path: `$'${d}/\\x${n.charCodeAt(0).toString(16)}${n.slice(1)}'` }),
    (d: string, n: string) => ({ setup: "", path: `~+/${d}/${n}` }),
    (d: string, n: string) => ({ setup: `set -- ${d}/${n}; `, path: `"$1"` }),
    (d: string, n: string) => ({ setup: `set -- x ${d} ${n}; shift; `, path: `"$1/$2"` }),
    (d: string, n: string) => ({ setup: `for p in ${d}; do `, path: `"$p/${n}"; done` }),
    (d: string, n: string) => ({ setup: "", path: `${d}/${n} ${"x".repeat(3)}` }),
    // Computed: the reader cannot know these, so it must say so.
    (d: string, n: string) => ({ setup: "", path: `"$(printf ${d}/${n})"` }),
    (d: string, n: string) => ({ setup: "", path: `${d}/\`echo ${n}\`` }),
    (d: string, n: string) => ({ setup: "", path: `"$UNSET_SOMEWHERE${d}/${n}"` }),
    (_d: string, n: string) => ({ setup: "read -r D; ", path: `"$D/${n}"` }),
  );

/** How a script is run, by kind. */
const runners: Record<string, string[]> = {
  sh: ["sh", "bash", "zsh -f", "dash -e", "bash --norc", "source", "."],
  py: ["python3", "python3 -u", "python", "uv run", "uv run python"],
  js: ["node", "node --no-warnings", "bun"],
};

/** A command running one of the project's scripts. */
const base: fc.Arbitrary<Form> = fc.tuple(
  fc.constantFrom(...FILES.filter((f) => !f.includes("other"))),
  spellings,
  fc.nat(),
)
  .map(([script, spell, pick]) => {
    const dir = script.slice(0, script.lastIndexOf("/"));
    const name = script.slice(script.lastIndexOf("/") + 1);
    const kind = name.endsWith(".py") ? "py" : name.endsWith(".js") ? "js" : "sh";
    const s = spell(dir, name);
    const runner = runners[kind][pick % runners[kind].length];
    // A builtin (`source`, `.`) is no program a wrapper can run.
    const simple = s.setup === "" && runner !== "source" && runner !== ".";
    return { command: `${s.setup}${runner} ${s.path}`, script, simple };
  });

/** Programs that run the simple command after them (they cannot run a compound one). */
const prefixes: ((c: string) => string)[] = [
  (c) => `env FOO=1 ${c}`,
  (c) => `env -S ${shq(c)}`,
  (c) => `timeout 5 ${c}`,
  (c) => `nice -n 3 ${c}`,
  (c) => `time ${c}`,
  (c) => `command ${c}`,
  (c) => `exec ${c}`,
  (c) => `stdbuf -oL ${c}`,
  (c) => `sudo -u root ${c}`,
];

/** Forms around any command: shell strings, lists, compound commands, substitutions. */
const compounds: ((c: string) => string)[] = [
  (c) => `sh -c ${shq(c)}`,
  (c) => `bash -c ${shq(c)} ignored-arg`,
  (c) => `eval ${shq(c)}`,
  (c) => `true && ${c}`,
  (c) => `false || ${c}`,
  (c) => `${c}; echo done`,
  (c) => `nohup sh -c ${shq(c)} &`,
  (c) => `if true; then ${c}; fi`,
  (c) => `{ ${c}; }`,
  (c) => `(${c})`,
  (c) => `${c} | cat`,
  (c) => `${c} > /dev/null 2>&1`,
  (c) => `for i in 1 2; do ${c}; done`,
  (c) => `f() { ${c}; }; f`,
  (c) => `case x in x) ${c};; esac`,
  (c) => `echo "$( ${c} )"`,
  (c) => `X=$( ${c} ); echo "$X"`,
  (c) => `{ ${c}; } <<EOF\nignored\nEOF`,
];

/** Whether a compound form leaves one simple command (`sh -c …`, `eval …`). */
const SIMPLE_AFTER = new Set([0, 1, 2]);

/** A form wrapped up to three times; a prefix wrapper only around a simple command. */
export const forms: fc.Arbitrary<Form> = fc.tuple(base, fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 3 }))
  .map(([f, ws]) =>
    ws.reduce((acc, [prefix, pick]) => {
      const wrap = prefixes[pick % prefixes.length];
      // `env -S` splits its string itself: quotes and `${VAR}`, but no glob, brace or `$(…)`.
      const splits = wrap === prefixes[1] ? /^[\w .\/=-]+$/.test(acc.command) : true;
      if (prefix && acc.simple && splits) return { ...acc, command: wrap(acc.command) };
      const i = pick % compounds.length;
      return { command: compounds[i](acc.command), script: acc.script, simple: SIMPLE_AFTER.has(i) };
    }, f)
  );

/** Forms of their own: `find -exec` and `python -m`. */
const special: fc.Arbitrary<Form> = fc.constantFrom(
  { command: "find .mind -name check.sh -exec sh {} ';'", script: ".mind/check.sh" },
  { command: "find scripts -type f -exec bash {} +", script: "scripts/run.sh" },
  { command: "cd .mind && python3 -m guard", script: ".mind/guard.py" },
  { command: "PYTHONPATH=.mind python3 -m guard", script: ".mind/guard.py" },
  { command: "node .mind/hook", script: ".mind/hook.js" },
  { command: "echo scripts/run.sh | xargs sh", script: "scripts/run.sh" },
  { command: "sh < scripts/run.sh", script: "scripts/run.sh" },
  { command: "cat scripts/run.sh | sh", script: "scripts/run.sh" },
);

/** Whether the reading of `f` covers its script: named, in a folder it pins, or marked unpinnable. */
export function covers(f: Form): string | null {
  const r = readCommand(f.command, {
    root: ROOT,
    cwd: ROOT,
    vars: rootVariables("project", ROOT),
    home: "/home/u",
    env: { PATH: "/usr/bin:/bin" },
    fs,
  });
  if (r.unpinnable !== null) return null;
  const target = `${ROOT}/${f.script}`;
  if (r.files.includes(target)) return null;
  if (r.folders.some((d) => d.why !== "token" && target.startsWith(d.path + "/"))) return null;
  return `neither pinned nor unpinnable: ${JSON.stringify(f.command)} runs ${f.script}; read ${
    JSON.stringify({ files: r.files, folders: r.folders })
  }`;
}

/** Arbitrary text, shell-flavoured: no exception, and what it names fits on one short line. */
const noise = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.array(
    fc.constantFrom(
      "sh ",
      "$(",
      ")",
      "${",
      "}",
      "'",
      '"',
      "`",
      "\\",
      "<<",
      "EOF\n",
      "|",
      "&&",
      ";",
      "cd ",
      "*",
      "{a,b}",
    ),
    { maxLength: 60 },
  ).map((xs) => xs.join("")),
);

function checkNoise(text: string): void {
  const r = readCommand(text, { root: ROOT, cwd: ROOT, vars: {}, home: null, env: {}, fs });
  for (const s of [r.unpinnable, r.fetch]) {
    if (s !== null && (/[\r\n]/.test(s) || s.length > 200)) throw new Error(`construct is no short line: ${s}`);
  }
}

/** The reader's fuzz targets. */
export const READER_TARGETS: { name: string; run(runs: number, seed?: number): void }[] = [
  {
    name: "reader",
    run: (runs, seed) =>
      fc.assert(
        fc.property(fc.oneof({ weight: 9, arbitrary: forms }, { weight: 1, arbitrary: special }), (f) => {
          const defect = covers(f);
          if (defect !== null) throw new Error(defect);
        }),
        { numRuns: runs, seed },
      ),
  },
  { name: "reader-text", run: (runs, seed) => fc.assert(fc.property(noise, checkNoise), { numRuns: runs, seed }) },
];

/** Runs the reader targets with `seed` (random when absent, printed first). */
export function fuzzReader(runs: number, seed = Math.floor(Math.random() * 2 ** 31)): void {
  console.log(`reader fuzz seed ${seed} (replay: deno run -A bench/fuzz_reader.ts ${runs} ${seed})`);
  for (const t of READER_TARGETS) {
    const started = performance.now();
    t.run(runs, seed);
    const s = (performance.now() - started) / 1000;
    console.log(`${t.name.padEnd(11)} ${runs.toLocaleString("en-US")} inputs  ${s.toFixed(1)} s  no failure`);
  }
}

if (import.meta.main) fuzzReader(Number(Deno.args[0] ?? 20_000), Deno.args[1] ? Number(Deno.args[1]) : undefined);
