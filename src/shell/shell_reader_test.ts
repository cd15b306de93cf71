/**
 * The command reader's grammar (SPEC §3.5 r3), rule by rule, over a file system in memory: each case
 * is a command line and the whole outcome — which of the project's files it names (in order), which
 * folders it pins the code of, the construct that makes it unpinnable, and its network fetch.
 * SECURITY.md ("What the command reader reads") names these tests.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { readCommand, type ReaderFs } from "./shell_reader.ts";
import { braceAlternatives } from "./shell_expand.ts";

const ROOT = "/r";

/** The project's files: every script of the cases below. */
const FILES: Record<string, string> = {
  ".mind/check.sh": "",
  ".mind/a.sh": "",
  ".mind/env.sh": "",
  ".mind/guard.py": "",
  ".mind/x.py": "",
  ".mind/x.js": "",
  ".mind/x.ts": "",
  ".mind/setup.js": "",
  ".mind/list": "",
  ".mind/pkg/__main__.py": "",
  ".mind/pkg/__init__.py": "",
  ".mind/tool.pyc": "",
  ".claude/hooks/guard.js": "",
  ".claude/hooks/app/package.json": JSON.stringify({ main: "lib/start" }),
  ".claude/hooks/app/lib/start.js": "",
  "scripts/check.sh": "",
  "scripts/other.sh": "",
  "lib/helpers/__init__.py": "",
  "lib/helpers/run.py": "",
  "bin/check-tool": "",
  "sub/scripts/check.sh": "",
  "package.json": JSON.stringify({ scripts: { lint: "node .mind/x.js", prelint: "sh .mind/a.sh" } }),
  "deno.json": JSON.stringify({ tasks: { check: "deno run .mind/x.ts" } }),
};

const fs: ReaderFs = {
  list(dir) {
    const base = dir === ROOT ? "" : dir.slice(ROOT.length + 1) + "/";
    if (!dir.startsWith(ROOT)) return null;
    const names = new Set<string>();
    for (const rel of Object.keys(FILES)) if (rel.startsWith(base)) names.add(rel.slice(base.length).split("/")[0]);
    return names.size > 0 ? [...names] : null;
  },
  readText: (path) => path.startsWith(ROOT + "/") ? FILES[path.slice(ROOT.length + 1)] ?? null : null,
};

type Outcome = { files: string[]; folders: string[]; unpinnable: string | null; fetch: string | null };

/** The outcome of reading `command` from `cwd` (default: the root) with PATH `path`. */
function read(command: string, opts: { cwd?: string; path?: string; pythonPath?: string } = {}): Outcome {
  const r = readCommand(command, {
    root: ROOT,
    cwd: opts.cwd ?? ROOT,
    vars: { CLAUDE_PROJECT_DIR: ROOT, MIND_PROJECT_DIR: ROOT, MIND_HOOK_EVENT: "Stop" },
    home: "/home/u",
    env: { PATH: opts.path ?? "/usr/bin:/bin", PYTHONPATH: opts.pythonPath },
    fs,
  });
  const rel = (p: string) => p.startsWith(ROOT + "/") ? p.slice(ROOT.length + 1) : null;
  const files = r.files.map(rel).filter((p): p is string => p !== null && Object.hasOwn(FILES, p));
  const folders = r.folders.map((f) => `${rel(f.path) ?? f.path}:${f.why}${f.names.length ? `:${f.names}` : ""}`);
  return { files, folders, unpinnable: r.unpinnable, fetch: r.fetch };
}

/** An outcome naming files only. */
const pins = (...files: string[]): Outcome => ({ files, folders: [], unpinnable: null, fetch: null });

/** Checks every case of a rule. */
function cases(table: [string, Outcome, Parameters<typeof read>[1]?][]): void {
  const bad: string[] = [];
  for (const [command, want, opts] of table) {
    const got = read(command, opts);
    if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`${JSON.stringify(command)} => ${JSON.stringify(got)}`);
  }
  assertEquals(bad, []);
}

Deno.test("reader grammar: $PWD, ${PWD}, $(pwd), the root variables and $(git rev-parse --show-toplevel)", () => {
  cases([
    ['sh "$PWD/.mind/check.sh"', pins(".mind/check.sh")],
    ['sh "${PWD}/.mind/check.sh"', pins(".mind/check.sh")],
    ['sh "$(pwd)/.mind/check.sh"', pins(".mind/check.sh")],
    ["sh `pwd`/.mind/check.sh", pins(".mind/check.sh")],
    ['sh "$CLAUDE_PROJECT_DIR/.mind/check.sh"', pins(".mind/check.sh")],
    ['sh "$(git rev-parse --show-toplevel)/scripts/check.sh"', pins("scripts/check.sh")],
    // At dispatch $PWD is the run's cwd (and what the root resolves stays in the set).
    ['sh "$PWD/scripts/check.sh"', pins("sub/scripts/check.sh", "scripts/check.sh"), { cwd: `${ROOT}/sub` }],
  ]);
});

Deno.test("reader grammar: assignments earlier on the line, export, unset, read, conditional values", () => {
  cases([
    ['D=.mind; sh "$D/check.sh"', pins(".mind/check.sh")],
    ['export D=.mind; sh "$D/check.sh"', pins(".mind/check.sh")],
    ["A=.mind B=check; sh $A/$B.sh", pins(".mind/check.sh")],
    ['D=.mind; D="$D/check.sh"; sh "$D"', pins(".mind/check.sh")],
    // A prefix assignment is the command's environment, not yet the shell's variable.
    ['D=.mind sh "$D/check.sh"', { ...pins(), unpinnable: "$D" }],
    ['D=.mind; unset D; sh "$D/check.sh"', pins()],
    ['read -r D; sh "$D/check.sh"', { ...pins(), unpinnable: "read D" }],
    // Under && or || both values are possible.
    ['D=.mind/a.sh; [ -f x ] && D=.mind/check.sh; sh "$D"', pins(".mind/a.sh", ".mind/check.sh")],
    ['[ -n "$D" ] || D=.mind; sh "$D/check.sh"', { ...pins(".mind/check.sh"), unpinnable: "$D" }],
    // Field splitting of an unquoted value.
    ['X="sh .mind/check.sh"; $X', pins(".mind/check.sh")],
    ["sh ${UNSET:-.mind/check.sh}", { ...pins(".mind/check.sh"), unpinnable: "${UNSET:-.mind/check.sh}" }],
    ["D=; sh ${D:-.mind/check.sh}", pins(".mind/check.sh")],
  ]);
});

Deno.test("reader grammar: cd, pushd and popd move the reader's folder", () => {
  cases([
    ["cd .mind && sh check.sh", pins(".mind/check.sh")],
    ["pushd .mind && sh check.sh", pins(".mind/check.sh")],
    ["pushd .mind; popd; sh scripts/check.sh", pins("scripts/check.sh")],
    ['cd "$CLAUDE_PROJECT_DIR/scripts" && sh check.sh', pins("scripts/check.sh")],
    ["(cd .mind && sh check.sh)", pins(".mind/check.sh")],
    ['cd "$(dirname "$0")" && sh check.sh', { ...pins(), unpinnable: '$(dirname "$0")' }],
  ]);
});

Deno.test("reader grammar: wrappers are looked through (env -S, timeout, nice, nohup, time, command, exec, stdbuf, xargs, sudo)", () => {
  cases([
    ["env -S 'sh .mind/check.sh'", pins(".mind/check.sh")],
    ["env -i PATH=/usr/bin FOO=1 sh .mind/check.sh", pins(".mind/check.sh")],
    ["env -C .mind sh check.sh", pins(".mind/check.sh")],
    ["timeout -s KILL 5 sh .mind/check.sh", pins(".mind/check.sh")],
    ["nice -n 5 nohup sh .mind/check.sh &", pins(".mind/check.sh")],
    ["time -p command exec sh .mind/check.sh", pins(".mind/check.sh")],
    ["stdbuf -oL sudo -u bob sh .mind/check.sh", pins(".mind/check.sh")],
    ["find . -name '*.json' | xargs -n1 sh .mind/check.sh", pins(".mind/check.sh")],
    ["command -v sh .mind/check.sh", pins()],
    ["echo .mind/check.sh | xargs sh", {
      ...pins(".mind/check.sh"),
      unpinnable: "xargs sh (its script comes from input)",
    }],
    ["ls | xargs -I{} sh {}", { ...pins(), unpinnable: "xargs -I {}" }],
  ]);
});

Deno.test("reader grammar: sh -c / bash -c strings are commands ($0, $1 from the words after), eval of known text, trap", () => {
  cases([
    ["bash -c 'sh .mind/check.sh'", pins(".mind/check.sh")],
    ["sh -ec 'sh .mind/check.sh'", pins(".mind/check.sh")],
    [`sh -c '"$0"' .mind/check.sh`, pins(".mind/check.sh")],
    [`sh -c 'sh "$1"' _ .mind/check.sh`, pins(".mind/check.sh")],
    ["eval 'sh .mind/check.sh'", pins(".mind/check.sh")],
    ["trap 'sh .mind/check.sh' EXIT; true", pins(".mind/check.sh")],
    ['bash -c "$CMD"', { ...pins(), unpinnable: "$CMD" }],
  ]);
});

Deno.test("reader grammar: interpreters resolve their script as they do", () => {
  cases([
    ["node .claude/hooks/guard", pins(".claude/hooks/guard.js", "package.json")],
    ["node .claude/hooks/app", pins(".claude/hooks/app/package.json", ".claude/hooks/app/lib/start.js")],
    ["node -r ./.mind/setup.js .mind/x", pins(".mind/setup.js", ".mind/x.js", "package.json")],
    ["node --import=./.mind/setup.js -e 'x'", pins(".mind/setup.js", "package.json")],
    ["cd .mind && python3 -m guard", { ...pins(".mind/guard.py"), folders: ["guard:package", ".mind/guard:package"] }],
    ["python3 -m guard", { ...pins(), folders: ["guard:package"] }, { pythonPath: "" }],
    ["PYTHONPATH=.mind python3 -m guard", {
      files: [".mind/guard.py"],
      folders: [".mind:python", "guard:package", ".mind/guard:package"],
      unpinnable: null,
      fetch: null,
    }],
    ["python3 -m helpers.run", {
      files: ["lib/helpers/run.py", "lib/helpers/__init__.py"],
      folders: ["lib:python", "helpers/run:package", "lib/helpers/run:package"],
      unpinnable: null,
      fetch: null,
    }, { pythonPath: "lib" }],
    ["python3 .mind/pkg", { ...pins(".mind/pkg/__main__.py"), folders: [".mind/pkg:package", ".mind:python"] }],
    ["python3 -u -W ignore .mind/x.py --flag", {
      ...pins(".mind/x.py"),
      folders: [".mind/x.py:package", ".mind:python"],
    }],
    ["python3 -c 'import x'", { files: [], folders: [".:python"], unpinnable: null, fetch: null }],
    ["uv run --directory .mind python -m guard", {
      ...pins(".mind/guard.py"),
      folders: ["guard:package", ".mind/guard:package"],
    }],
    ["uv run .mind/x.py", { ...pins(".mind/x.py"), folders: [".mind/x.py:package", ".mind:python"] }],
    ["deno run -A .mind/x.ts", {
      files: ["deno.json", ".mind/x.ts", "package.json"],
      folders: [],
      unpinnable: null,
      fetch: null,
    }],
    ["deno .mind/x.ts", {
      files: ["deno.json", ".mind/x.ts", "package.json"],
      folders: [],
      unpinnable: null,
      fetch: null,
    }],
    ["deno task check", {
      files: ["deno.json", ".mind/x.ts", "package.json"],
      folders: [],
      unpinnable: null,
      fetch: null,
    }],
    ["bun .mind/x.ts", { files: [".mind/x.ts", "package.json"], folders: [], unpinnable: null, fetch: null }],
    ["tsx .mind/x", {
      files: [".mind/x.js", ".mind/x.ts", "package.json"],
      folders: [],
      unpinnable: null,
      fetch: null,
    }],
    ["ts-node --project tsconfig.json .mind/x.ts", {
      files: [".mind/x.ts", "package.json"],
      folders: [],
      unpinnable: null,
      fetch: null,
    }],
    ["ruby -w -I lib .mind/x.py", { files: [".mind/x.py"], folders: ["lib:package"], unpinnable: null, fetch: null }],
    ["bash --rcfile .mind/env.sh -i", pins(".mind/env.sh")],
    ["sh < .mind/check.sh", pins(".mind/check.sh")],
    ["zsh .mind/check.sh arg", pins(".mind/check.sh")],
    ["fish -C 'sh .mind/a.sh' .mind/check.sh", pins(".mind/a.sh", ".mind/check.sh")],
    ["npm run lint", pins("package.json", ".mind/a.sh", ".mind/x.js")],
    ["pnpm lint", pins("package.json", ".mind/a.sh", ".mind/x.js")],
  ]);
});

Deno.test("reader grammar: folders named, find -exec, globs and brace expansion", () => {
  cases([
    ["find .mind -name check.sh -exec sh {} ';'", { ...pins(), folders: [".mind:find:check.sh"] }],
    ["find scripts -type f -exec sh {} +", { ...pins(), folders: ["scripts:find"] }],
    ["sh .mind/chec?.sh", pins(".mind/check.sh")],
    ["sh scripts/*.sh", pins("scripts/check.sh", "scripts/other.sh")],
    ['for f in scripts/*.sh; do sh "$f"; done', pins("scripts/check.sh", "scripts/other.sh")],
    ['sh ".mind/*.sh"', pins()],
    ["sh .mind/{check,a}.sh", pins(".mind/check.sh", ".mind/a.sh")],
    ["sh .mind/[c]heck.sh", pins(".mind/check.sh")],
  ]);
  assertEquals(braceAlternatives("a{b,c{d,e}}f"), ["abf", "acdf", "acef"]);
  assertEquals(braceAlternatives("x{1..3}"), ["x1", "x2", "x3"]);
  assertEquals([braceAlternatives("{}"), braceAlternatives("{a}"), braceAlternatives("a{b")], [null, null, null]);
});

Deno.test("reader grammar: a bare name is looked up along the run's PATH; builtins are not", () => {
  cases([
    ["check-tool", pins("bin/check-tool"), { path: `/usr/bin:${ROOT}/bin` }],
    ["check-tool", pins("bin/check-tool"), { path: "bin:/usr/bin" }],
    ["PATH=bin:$PATH check-tool", pins("bin/check-tool")],
    // Not found in the root: a program the reader does not know (SPEC §3.5 r4: the closed world).
    ["check-tool", { ...pins(), unpinnable: "check-tool (a program the reader does not know)" }],
    ['PATH="$X:$PATH" check-tool', { ...pins(), unpinnable: "$X" }],
  ]);
});

Deno.test("reader grammar: a file a word names is pinned whatever its type or folder; output is not", () => {
  cases([
    ["python3 .mind/tool.pyc", { ...pins(".mind/tool.pyc"), folders: [".mind/tool.pyc:package", ".mind:python"] }],
    ["sh .mind/check.sh > .mind/list 2>&1", pins(".mind/check.sh")],
    ["sh .mind/check.sh | tee -a .mind/list", pins(".mind/check.sh")],
    ["while read l; do echo $l; done < .mind/list", pins(".mind/list")],
    ["cat <<EOF\n$(sh .mind/check.sh)\nEOF", pins(".mind/check.sh")],
  ]);
});

Deno.test("reader grammar: compound commands and functions are read as commands that may run", () => {
  cases([
    ["if [ -f x ]; then sh .mind/check.sh; else sh .mind/a.sh; fi", pins(".mind/check.sh", ".mind/a.sh")],
    ['case "$1" in a) sh .mind/a.sh;; *) sh .mind/check.sh;; esac', pins(".mind/a.sh", ".mind/check.sh")],
    ["f() { sh .mind/check.sh; }; f", pins(".mind/check.sh")],
    ["{ sh .mind/check.sh; } && ! sh .mind/a.sh", pins(".mind/check.sh", ".mind/a.sh")],
    ["while true; do sh .mind/check.sh; break; done", pins(".mind/check.sh")],
    ['[[ "$x" == */y ]] && sh .mind/check.sh', pins(".mind/check.sh")],
    ["source .mind/env.sh && . .mind/a.sh", pins(".mind/env.sh", ".mind/a.sh")],
  ]);
});

Deno.test("reader grammar: what cannot be resolved to files is unpinnable, named by its construct", () => {
  const unpinnable = (files: string[], construct: string): Outcome => ({ ...pins(...files), unpinnable: construct });
  cases([
    ["sh .mind/$(printf check).sh", unpinnable([], "$(printf check)")],
    ["sh .mind/`printf check`.sh", unpinnable([], "`printf check`")],
    ['sh "$D/check.sh"', unpinnable([], "$D")],
    ['"$TOOL" .mind/x.py', unpinnable([".mind/x.py"], "$TOOL")],
    ["$(which python3) .mind/x.py", unpinnable([".mind/x.py"], "$(which python3)")],
    ['eval "$(cat .mind/list)"', unpinnable([".mind/list"], "eval $(cat .mind/list)")],
    ['source "$X"', unpinnable([], "source $X")],
    [". <(cat .mind/env.sh)", unpinnable([".mind/env.sh"], ". <(cat .mind/env.sh)")],
    ["sh <<EOF\nsh .mind/check.sh\nEOF", unpinnable([], "a here-document fed to sh")],
    ['bash <<< "sh .mind/check.sh"', unpinnable([], "a here-string fed to bash")],
    ['echo "$X" | sh', unpinnable([], "a pipe into sh")],
    ["python3 -m $M", unpinnable([], "$M")],
    ["node .mind/${X}.js", unpinnable([], "${X}")],
    ["sh .mind/$((1+1)).sh", unpinnable([], "$((1+1))")],
    ["sh ~bob/.mind/check.sh", unpinnable([], "~bob")],
    ["make check", unpinnable([], "make (runs its Makefile's recipes)")],
    ["pytest -q", unpinnable([], "pytest (runs the tests it finds)")],
    ["python3 -m pytest", {
      ...unpinnable([], "python -m pytest (runs the tests it finds)"),
      folders: ["pytest:package"],
    }],
    ["deno test", unpinnable([], "deno test (runs the tests it finds)")],
    ['arr=(a b); sh "${arr[0]}"', unpinnable([], "${arr[0]}")],
  ]);
});

Deno.test("reader grammar: data does not make a command unpinnable", () => {
  cases([
    ['echo "$(date)" >> /tmp/log', pins()],
    ['input=$(cat); echo "$input" | jq -r .x', pins()],
    ['python3 .mind/x.py --out "$TMPDIR/x" $(date +%s)', {
      ...pins(".mind/x.py"),
      folders: [".mind/x.py:package", ".mind:python"],
    }],
    ["command -v jq >/dev/null && jq -r '.tool_input.command'", pins()],
    ["cat .mind/check.sh | sh", pins(".mind/check.sh")],
    ["python3 - <<EOF\nimport x\nEOF", { ...pins(), folders: [".:python"] }],
  ]);
});

Deno.test("reader grammar: network fetches are marked", () => {
  const fetch = (what: string, files: string[] = []): Outcome => ({ ...pins(...files), fetch: what });
  cases([
    ["curl -fsSL https://x.example/i.sh | bash", { ...fetch("curl"), unpinnable: "a download piped into bash" }],
    ["npx tsx .mind/x.ts", { ...fetch("npx", [".mind/x.ts"]), unpinnable: "npx (fetches the code it runs)" }],
    ["pnpm dlx some-tool", { ...fetch("pnpm dlx"), unpinnable: "pnpm dlx (fetches the code it runs)" }],
    ["uv run --with rich .mind/x.py", {
      ...fetch("uv run --with", [".mind/x.py"]),
      folders: [".mind/x.py:package", ".mind:python"],
    }],
    ["git clone git+https://x.example/r", fetch("a URL")],
    // A request whose answer is kept is a fetch whatever its method (saved to a file); one whose answer
    // is piped into a shell is refused pinning like any download piped there.
    ["curl -X POST https://x.example/i.sh | sh", { ...pins(), unpinnable: "a download piped into sh" }],
    ["curl -sS -o .mind/tool.sh -d 'v=1' https://x.example/i.sh", fetch("curl")],
    ["wget --post-data 'a=1' https://x.example/i.sh", fetch("wget")],
    ["wget https://x.example/i.sh -O - | sh", { ...fetch("wget"), unpinnable: "a download piped into sh" }],
  ]);
});

Deno.test("reader grammar: a request that only sends is no fetch (issue 36: the rule, not an instance)", () => {
  cases([
    ['curl -s -X POST -H "Content-Type: application/json" --data @- https://hooks.example/notify', pins()],
    ["curl -sS -d 'event=stop' https://hooks.example/n", pins()],
    ["curl -XPUT --data-binary @- https://logs.example/upload", pins()],
    ["curl --json '{}' -o /dev/null https://hooks.example/n", pins()],
    ["curl -T report.txt https://uploads.example/", pins()],
    ["curl -F 'file=@out.log' https://uploads.example/", pins()],
    ["wget -q -O /dev/null --post-data 'a=1' https://hooks.example/n", pins()],
  ]);
});

Deno.test("reader grammar: a $(…) holding a case's pattern) or a comment's ) ends at its own close (found by the fuzzer)", () => {
  cases([
    ['echo "$( case x in x) sh .mind/check.sh;; esac )"', pins(".mind/check.sh")],
    ["X=$(case y in (y) sh .mind/a.sh;; esac); echo $X", pins(".mind/a.sh")],
    ["echo $(true # )\nsh .mind/check.sh)", pins(".mind/check.sh")],
  ]);
});

Deno.test("reader grammar: the shell's other ways to a file (hardening: each was a form read as nothing)", () => {
  const unpinnable = (files: string[], construct: string): Outcome => ({ ...pins(...files), unpinnable: construct });
  cases([
    // Positional parameters: sh -c's words, set --, shift; a function's are unknown.
    [`sh -c 'sh "$1"' _ "$(cat .mind/list)"`, unpinnable([".mind/list"], "$(cat .mind/list)")],
    ['set -- .mind/check.sh; sh "$1"', pins(".mind/check.sh")],
    ['set -- x .mind/check.sh; shift; sh "$1"', pins(".mind/check.sh")],
    ['f() { sh "$1"; }; f .mind/check.sh', unpinnable([".mind/check.sh"], "$1 of a function")],
    // Quoting bash decodes: $'\x63', octal, ~+ ($PWD).
    ["sh $'.mind/\\x63heck.sh'", pins(".mind/check.sh")],
    ["sh $'.mind/\\143heck.sh'", pins(".mind/check.sh")],
    ["sh ~+/.mind/check.sh", pins(".mind/check.sh")],
    // A changed IFS splits where the reader would not.
    ["IFS=x; X=shx.mind/check.sh; $X", unpinnable([], "IFS (a changed word splitting)")],
    // Aliases, hash -p, trap: text and files that run later.
    ["alias go='sh .mind/check.sh'; go", pins(".mind/check.sh")],
    ["hash -p .mind/check.sh ls; ls", pins(".mind/check.sh")],
    ['trap "$X" EXIT', unpinnable([], "$X")],
    // Other views of a folder, cd -, CDPATH, namerefs.
    ["sh /proc/self/cwd/.mind/check.sh", unpinnable([], "/proc/self/cwd/.mind/check.sh")],
    ["cd .mind; cd -; sh check.sh", unpinnable([], "cd -")],
    ["CDPATH=.mind; cd hooks && sh check.sh", unpinnable([], "CDPATH")],
    ['declare -n R=D; D=.mind/check.sh; sh "$R"', unpinnable([".mind/check.sh"], "declare -n R")],
    // Loader variables and inline code name files too.
    ['NODE_OPTIONS="--require ./.mind/setup.js" node -e 1', pins(".mind/setup.js", "package.json")],
    [`python3 -c "exec(open('.mind/x.py').read())"`, { ...pins(".mind/x.py"), folders: [".:python"] }],
    [`node -e "require('./.mind/setup')"`, pins("package.json", ".mind/setup.js")],
  ]);
});

Deno.test("reader grammar: hostile input is bounded (alternatives, nesting)", () => {
  const many = read('A=a; [ x ] && A=b; [ x ] && A=c; [ x ] && A=d; [ x ] && A=e; B=$A$A$A$A; sh "$B"');
  assertEquals(many.unpinnable, "too many possible values of B=$A$A$A$A");
  let deep = "sh .mind/check.sh";
  for (let i = 0; i < 12; i++) deep = `sh -c ${JSON.stringify(deep)}`;
  assertEquals(read(deep).unpinnable, "nesting deeper than 8 levels");
});
