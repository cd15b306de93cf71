/**
 * The reader against what commands really do (SPEC §3.5 r4): a property test with a fixed seed that
 * generates hook commands from a small grammar (interpreters, inline code, here-documents, loader
 * variables in each way of setting them, wrappers, shell scripts that source helpers, data programs,
 * `cd`, pipes), runs each one under `strace -f -e trace=execve,open,openat` inside a temp repository,
 * and checks that every repository file the command opened for reading or executed is pinned — or that
 * the reader said the hook is unpinnable. Skipped, saying so, where strace is not installed.
 */
import { assertEquals } from "./helpers/assert.ts";
import { currentPins } from "../src/trust/pins.ts";
import { projectScope } from "../src/trust/pin_scope.ts";
import { join } from "node:path";
import { straceWorks } from "./helpers/strace.ts";

const STRACE = await straceWorks();
if (!STRACE) console.log("reader_strace_test: skipped: strace is not installed (or cannot trace here)");
const HAVE_NODE = await new Deno.Command("node", { args: ["-e", "0"] }).output().then((o) => o.success, () => false);

/** The repository every command runs in. */
const FILES: Record<string, string> = {
  ".mind/guard.py": "import helper\nimport json\n",
  ".mind/helper.py": "X = 1\n",
  ".mind/hooks/lint.sh": '. "$(dirname "$0")/helper.sh"\nnote\n',
  ".mind/hooks/helper.sh": "note() { :; }\n",
  ".mind/init.sh": ":\n",
  ".mind/guard.js": "require('./util');\nrequire('policy');\n",
  ".mind/util.js": "module.exports = 1;\n",
  "node_modules/policy/index.js": "module.exports = {};\n",
  "node_modules/policy/package.json": '{"name":"policy","main":"index.js"}',
  "package.json": '{"name":"repo"}',
  "scripts/check.sh": ". scripts/lib.sh\nlib\n",
  "scripts/lib.sh": "lib() { cat data.txt >/dev/null; }\n",
  "scripts/run.py": "import mod\n",
  "lib/mod.py": "Y = 1\n",
  "data.txt": "x\n",
};

/** Simple commands of the grammar (each runs from the root unless it moves). */
const ATOMS = [
  "python3 .mind/guard.py",
  "cd .mind && python3 -c 'import helper'",
  "cd .mind && python3 - <<'EOF'\nimport helper\nEOF",
  "PYTHONPATH=lib python3 scripts/run.py",
  "env PYTHONPATH=lib python3 -c 'import mod'",
  "export PYTHONPATH=lib; python3 -c 'import mod'",
  "sh .mind/hooks/lint.sh",
  "bash scripts/check.sh",
  ". scripts/lib.sh; lib",
  "env BASH_ENV=.mind/init.sh bash -c :",
  "BASH_ENV=.mind/init.sh bash -c true",
  "declare -x BASH_ENV=.mind/init.sh; bash -c :",
  "cat data.txt",
  "grep -c x data.txt",
  "sed -n 1p data.txt",
  "awk '{ print }' data.txt",
  "head -1 .mind/helper.py",
  "echo hi",
  ...(HAVE_NODE ? ["node .mind/guard.js", `cd .mind && node -e "require('./util')"`] : []),
];
const WRAPPERS = ["", "", "env ", "timeout 20 ", "nice ", "command "];
const JOINS = [" && ", "; ", " | "];

/** A small PRNG with a fixed seed (mulberry32): the same commands on every run. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` commands from the grammar. */
function commands(seed: number, n: number): string[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const parts: string[] = [];
    const count = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < count; k++) {
      const atom = pick(ATOMS);
      // A wrapper only before a plain program (not `cd`, `.`, an assignment or a builtin).
      const plain = /^(?:python3|sh|bash|cat|grep|sed|awk|head|node) /.test(atom) && !atom.includes("<<");
      parts.push((plain ? pick(WRAPPERS) : "") + atom);
    }
    // A pipe only between commands that do not hold here-documents or `;`.
    let line = parts[0];
    for (const p of parts.slice(1)) {
      const join = pick(JOINS);
      line += join === " | " && (/[;&\n]/.test(line) || /[;&\n]/.test(p)) ? "; " : join;
      line += p;
    }
    out.push(`(${line})`.slice(1, -1));
  }
  return out;
}

/** The repository files a traced run opened for reading or executed (real, regular, outside .git). */
async function touched(root: string, command: string, out: string): Promise<string[]> {
  const prefix = join(out, "t");
  const env = {
    PATH: "/usr/bin:/bin:/usr/local/bin",
    HOME: out,
    LANG: "C",
    PYTHONDONTWRITEBYTECODE: "1",
    PYTHONNOUSERSITE: "1",
  };
  // Bounded (prlimit): a generated command never starts more than a few hundred processes.
  await new Deno.Command("prlimit", {
    args: [
      "--nproc=256",
      "--",
      "strace",
      "-qq",
      "-ff",
      "-o",
      prefix,
      "-e",
      "trace=execve,open,openat,chdir,clone,clone3,fork,vfork",
      "/bin/sh",
      "-c",
      command,
    ],
    cwd: root,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output();
  // One file per process: follow the processes from the first, each one's cwd from its parent's at the fork.
  const logs = new Map<number, string[]>();
  for await (const e of Deno.readDir(out)) {
    const m = /^t\.(\d+)$/.exec(e.name);
    if (m) logs.set(Number(m[1]), (await Deno.readTextFile(join(out, e.name))).split("\n"));
  }
  const children = new Set<number>();
  for (const lines of logs.values()) {
    for (const l of lines) {
      const m = /^(?:clone3?|fork|vfork)\(.*\)\s+=\s+(\d+)/.exec(l);
      if (m) children.add(Number(m[1]));
    }
  }
  const files = new Set<string>();
  const walk = (pid: number, cwd: string) => {
    for (const l of logs.get(pid) ?? []) {
      const fork = /^(?:clone3?|fork|vfork)\(.*\)\s+=\s+(\d+)/.exec(l);
      if (fork) {
        walk(Number(fork[1]), cwd);
        continue;
      }
      const cd = /^chdir\("((?:[^"\\]|\\.)*)"\)\s+=\s+0/.exec(l);
      if (cd) {
        cwd = cd[1].startsWith("/") ? cd[1] : join(cwd, cd[1]);
        continue;
      }
      const open = /^(open|openat)\((AT_FDCWD, )?"((?:[^"\\]|\\.)*)", ([A-Z_|]+).*\)\s+=\s+(\d+)/.exec(l);
      const exec = /^execve\("((?:[^"\\]|\\.)*)",.*\)\s+=\s+0/.exec(l);
      let path: string | null = null;
      if (open && (open[1] === "open" || open[2] !== undefined) && !/O_WRONLY|O_RDWR|O_DIRECTORY/.test(open[4])) {
        path = open[3];
      } else if (exec) path = exec[1];
      if (path === null) continue;
      const abs = path.startsWith("/") ? path : join(cwd, path);
      try {
        const real = Deno.realPathSync(abs);
        if (!real.startsWith(root + "/") || !Deno.statSync(real).isFile) continue;
        const rel = real.slice(root.length + 1);
        if (!rel.startsWith(".git/") && !rel.includes("__pycache__/")) files.add(rel);
      } catch {
        // gone: nothing of the repository
      }
    }
  };
  for (const pid of [...logs.keys()].filter((p) => !children.has(p)).sort((a, b) => a - b)) walk(pid, root);
  return [...files].sort();
}

Deno.test({
  name:
    "reader vs strace: every repository file a generated command opens or runs is pinned, or the hook is unpinnable (seed 30)",
  ignore: !STRACE,
}, async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mh-strace-" }));
  try {
    for (const [rel, text] of Object.entries(FILES)) {
      await Deno.mkdir(join(root, rel, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, rel), text);
    }
    const misses: string[] = [];
    let checked = 0;
    let unpinnable = 0;
    for (const command of commands(30, 60)) {
      const pins = await currentPins(projectScope(root, command, null), { env: { PATH: "/usr/bin:/bin" } });
      if (!pins.ok) {
        misses.push(`${JSON.stringify(command)}: ${pins.error}`);
        continue;
      }
      if (pins.unpinnable !== null) {
        unpinnable++;
        continue;
      }
      const out = await Deno.makeTempDir({ prefix: "mh-strace-out-" });
      try {
        const opened = await touched(root, command, out);
        const missing = opened.filter((f) => !Object.hasOwn(pins.files, f));
        if (missing.length > 0) misses.push(`${JSON.stringify(command)} opened unpinned ${missing.join(", ")}`);
        checked++;
      } finally {
        await Deno.remove(out, { recursive: true });
      }
    }
    console.log(`reader_strace_test: ${checked} commands traced, ${unpinnable} unpinnable`);
    assertEquals(misses, []);
    // The grammar is read, not dismissed: most commands are pinned and traced.
    assertEquals(checked > 40, true, `only ${checked} of 60 traced`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test({
  name: "reader vs strace: the tracer sees what a command opens and runs (the check can fail)",
  ignore: !STRACE,
}, async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mh-strace-" }));
  const out = await Deno.makeTempDir({ prefix: "mh-strace-out-" });
  try {
    for (const [rel, text] of Object.entries(FILES)) {
      await Deno.mkdir(join(root, rel, ".."), { recursive: true });
      await Deno.writeTextFile(join(root, rel), text);
    }
    assertEquals(await touched(root, "(cd .mind && python3 -c 'import helper'); bash scripts/check.sh", out), [
      ".mind/helper.py",
      "data.txt",
      "scripts/check.sh",
      "scripts/lib.sh",
    ]);
  } finally {
    await Deno.remove(out, { recursive: true });
    await Deno.remove(root, { recursive: true });
  }
});
