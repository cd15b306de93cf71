/**
 * The command reader end to end (SPEC §3.5 r3, issue 21 items 2–5 and 11), with the real CLI on real
 * scripts in temp projects: for every form the issue found (a command naming its script the way a
 * shell runs it), `trust` records the script, and editing it makes the hook `modified` — not run.
 * Then unpinnable commands (`trust`, `list`, the state, `require_pins`), bytecode and named files,
 * pins checked against the run's cwd and PATH, and trees that pin code, not the data a hook writes.
 * Each of these failed on 5df27ae (round 2's reader recorded no pin, or the wrong one).
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  type HooksSpec,
  makeHome,
  makeProject,
  PYTHON,
  runCli,
  shq,
  trustAll,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";

const WINDOWS = Deno.build.os === "windows";
const SCRIPT = "#!/bin/sh\ncat >/dev/null\necho ran\n";

/**
 * The files the trust recorded (`list --json`: the pinned files of every hook, in order): `trust --all`
 * prints a summary and one line per hook, not each hook's pins (SPEC §14 r3).
 */
async function recordedPins(home: string, root: string, env: Record<string, string> = {}): Promise<string[]> {
  const listed = (await runCli(["list", "--json", "--home", home, "--cwd", root], { env })).json() as {
    hooks: { pinnedFiles: { path: string; state: string }[] | null }[];
  };
  return listed.hooks.flatMap((h) => (h.pinnedFiles ?? []).filter((f) => f.state === "pinned").map((f) => f.path));
}

/** A trusted project holding `files` (relative path → text; a `!` prefix makes it executable) and `hooks`. */
async function project(files: Record<string, string>, hooks: HooksSpec, env: Record<string, string> = {}) {
  const home = await makeHome();
  const proj = await makeProject();
  for (const [rel, text] of Object.entries(files)) {
    const path = join(proj.path, rel);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, text.replace(/^!/, ""));
    if (text.startsWith("!")) await Deno.chmod(path, 0o755);
  }
  const hooksJson = await writeHooksJson(proj.mindDir, hooks);
  assertEquals((await runCli(["project", "trust", proj.path, "--home", home.path])).code, 0);
  const trust = await runCli(["trust", "--all", "--home", home.path, "--cwd", proj.path], { env });
  return {
    home: home.path,
    root: proj.path,
    hooksJson,
    trust,
    /** The pinned paths the trust recorded. */
    pinned: await recordedPins(home.path, proj.path, env),
    /** One UserPromptSubmit dispatch: each run's status and reason. */
    async run(opts: { cwd?: string; env?: Record<string, string> } = {}) {
      const r = await dispatch(home.path, event("UserPromptSubmit", { cwd: opts.cwd ?? proj.path }), [], {
        env: { ...env, ...opts.env },
      });
      return r.runs.map((x) => [x.status, x.reason]);
    },
    async [Symbol.asyncDispose]() {
      await proj.cleanup();
      await home.cleanup();
    },
  };
}

/** Appends a line to a project file (an edit a repository could make after the trust). */
async function edit(root: string, rel: string): Promise<void> {
  await Deno.writeTextFile(join(root, rel), "echo injected\n", { append: true });
}

/** The forms of issue 21 item 2: the command, the files, and the file that must be pinned (and edited). */
const FORMS: {
  name: string;
  command: string;
  files: Record<string, string>;
  pins: string;
  env?: Record<string, string>;
}[] = [
  { name: "$PWD", command: 'sh "$PWD/.mind/check.sh"', files: { ".mind/check.sh": SCRIPT }, pins: ".mind/check.sh" },
  {
    name: "${PWD}",
    command: 'sh "${PWD}/.mind/check.sh"',
    files: { ".mind/check.sh": SCRIPT },
    pins: ".mind/check.sh",
  },
  {
    name: "$(pwd)",
    command: 'sh "$(pwd)/.mind/check.sh"',
    files: { ".mind/check.sh": SCRIPT },
    pins: ".mind/check.sh",
  },
  {
    name: "node resolving guard to guard.js",
    command: "node .claude/hooks/guard",
    files: { ".claude/hooks/guard.js": "console.log('ran')\n" },
    pins: ".claude/hooks/guard.js",
  },
  {
    name: "python3 -m after cd",
    command: `cd .mind && ${shq(PYTHON)} -m guard`,
    files: { ".mind/guard.py": "print('ran')\n" },
    pins: ".mind/guard.py",
  },
  {
    name: "python3 running a package folder",
    command: `${shq(PYTHON)} .mind/pkg`,
    files: { ".mind/pkg/__main__.py": "import helper\n", ".mind/pkg/helper.py": "print('ran')\n" },
    pins: ".mind/pkg/helper.py",
  },
  {
    name: "an assignment earlier on the line",
    command: 'D=.mind; sh "$D/check.sh"',
    files: { ".mind/check.sh": SCRIPT },
    pins: ".mind/check.sh",
  },
  {
    name: "export of an assignment",
    command: 'export D=.mind; sh "$D/check.sh"',
    files: { ".mind/check.sh": SCRIPT },
    pins: ".mind/check.sh",
  },
  { name: "a glob", command: "sh scripts/chec?.sh", files: { "scripts/check.sh": SCRIPT }, pins: "scripts/check.sh" },
  {
    name: "env -S",
    command: "env -S 'sh scripts/check.sh'",
    files: { "scripts/check.sh": SCRIPT },
    pins: "scripts/check.sh",
  },
  {
    name: "find -exec",
    command: "find .mind -name check.sh -exec sh {} ';'",
    files: { ".mind/check.sh": SCRIPT },
    pins: ".mind/check.sh",
  },
  {
    name: "pushd",
    command: "pushd scripts && sh check.sh",
    files: { "scripts/check.sh": SCRIPT },
    pins: "scripts/check.sh",
  },
  {
    name: "a bare name along the hook's PATH",
    command: "check-tool",
    files: { "bin/check-tool": "!" + SCRIPT },
    pins: "bin/check-tool",
    env: { PATH: `@ROOT@/bin:${Deno.env.get("PATH")}` },
  },
];

for (const form of FORMS) {
  Deno.test({
    name: `reader: ${form.name} (${form.command}) pins the script; editing it makes the hook modified`,
    ignore: WINDOWS,
  }, async () => {
    // The PATH names the project, which exists only once it is made: fill it in after.
    const home = await makeHome();
    const proj = await makeProject();
    await using _cleanup = { [Symbol.asyncDispose]: async () => (await proj.cleanup(), await home.cleanup()) };
    const env = Object.fromEntries(Object.entries(form.env ?? {}).map(([k, v]) => [k, v.replace("@ROOT@", proj.path)]));
    for (const [rel, text] of Object.entries(form.files)) {
      const path = join(proj.path, rel);
      await Deno.mkdir(join(path, ".."), { recursive: true });
      await Deno.writeTextFile(path, text.replace(/^!/, ""));
      if (text.startsWith("!")) await Deno.chmod(path, 0o755);
    }
    await writeHooksJson(proj.mindDir, { UserPromptSubmit: [group([cmd(form.command)])] });
    assertEquals((await runCli(["project", "trust", proj.path, "--home", home.path])).code, 0);
    const trust = await runCli(["trust", "--all", "--home", home.path, "--cwd", proj.path], { env });
    assertEquals(trust.code, 0, trust.stderr);
    const pinned = await recordedPins(home.path, proj.path, env);
    assert(pinned.includes(form.pins), `${form.command} pinned ${JSON.stringify(pinned)}`);
    assert(!trust.stdout.includes("cannot tell"), trust.stdout);
    const run = async () =>
      (await dispatch(home.path, event("UserPromptSubmit", { cwd: proj.path }), [], { env })).runs.map((
        x,
      ) => [x.status, x.reason]);
    // Trusted: it runs (pushd is no builtin of every sh: it may fail, but it is not skipped).
    assert((await run())[0][0] !== "skipped");
    await edit(proj.path, form.pins);
    assertEquals(await run(), [["skipped", `modified: ${form.pins} changed`]]);
  });
}

Deno.test(
  { name: "reader: a new match of a trusted glob makes the hook modified (added)", ignore: WINDOWS },
  async () => {
    await using p = await project({ "scripts/check.sh": SCRIPT }, {
      UserPromptSubmit: [group([cmd('for f in scripts/*.sh; do sh "$f"; done')])],
    });
    assertEquals([p.trust.code, p.pinned], [0, ["scripts/check.sh"]]);
    assertEquals(await p.run(), [["completed", null]]);
    await Deno.writeTextFile(join(p.root, "scripts", "zzz.sh"), SCRIPT);
    assertEquals(await p.run(), [["skipped", "modified: scripts/zzz.sh added"]]);
  },
);

// Item 3: unpinnable commands.

Deno.test({
  name: "unpinnable: trust says so in one line, the state records it, list marks it, and the hook runs",
  ignore: WINDOWS,
}, async () => {
  await using p = await project({ ".mind/check.sh": SCRIPT, "scripts/other.sh": SCRIPT }, {
    UserPromptSubmit: [group([cmd("sh .mind/$(printf check).sh"), cmd("sh scripts/other.sh")])],
  });
  assertEquals(p.trust.code, 0, p.trust.stderr);
  const mark = "⚠ cannot tell which files this runs: $(printf check)";
  // trust --all names it in its summary, by its command and the construct, before the per-hook lines.
  assertStringIncludes(
    p.trust.stdout,
    "  ⚠ 1 hook runs files mind-hooks cannot tell (not pinned):\n    sh .mind/$(printf check).sh   ($(printf check))\n",
  );
  const config = await Deno.readTextFile(join(p.home, "config.toml"));
  assertStringIncludes(config, `unpinnable = "$(printf check)"`);
  const listed = await runCli(["list", "--home", p.home, "--cwd", p.root]);
  assertEquals(listed.stdout.split("\n").filter((l) => l.includes("cannot tell")), [`    ${mark}`]);
  const json = (await runCli(["list", "--json", "--home", p.home, "--cwd", p.root])).json();
  assertEquals((json.hooks as { unpinnable: string | null }[]).map((h) => h.unpinnable), ["$(printf check)", null]);
  // The user was told: it runs.
  assertEquals(await p.run(), [["completed", null], ["completed", null]]);
  // A state written before the reader could tell (no `unpinnable`) is reviewed first.
  await Deno.writeTextFile(join(p.home, "config.toml"), config.replace(/^unpinnable = .*\n/m, ""));
  assertEquals((await p.run())[0], [
    "skipped",
    "modified: cannot tell which files this runs: $(printf check) (not known when it was trusted)",
  ]);
});

for (const layer of ["user", "managed"] as const) {
  Deno.test({
    name: `unpinnable: [hooks] require_pins = true in the ${layer} layer refuses it by name (exit 1), trusts the rest`,
    ignore: WINDOWS,
  }, async () => {
    const home = await makeHome();
    const proj = await makeProject();
    await using _cleanup = { [Symbol.asyncDispose]: async () => (await proj.cleanup(), await home.cleanup()) };
    const requirements = join(home.path, "requirements.toml");
    const settings = "[hooks]\nrequire_pins = true\n";
    await Deno.writeTextFile(layer === "user" ? join(home.path, "config.toml") : requirements, settings);
    await Deno.writeTextFile(join(proj.mindDir, "check.sh"), SCRIPT);
    const hooksJson = await writeHooksJson(proj.mindDir, {
      UserPromptSubmit: [group([cmd('eval "$(cat .mind/list)"'), cmd("sh .mind/check.sh")])],
    });
    const env = { MIND_REQUIREMENTS: requirements };
    assertEquals((await runCli(["project", "trust", proj.path, "--home", home.path], { env })).code, 0);
    const r = await runCli(["trust", "--all", "--home", home.path, "--cwd", proj.path], { env });
    const key = `project:${hooksJson}:UserPromptSubmit:0:0`;
    assertEquals([r.code, r.stderr], [
      1,
      `mind-hooks: not trusted: ${key}: cannot tell which files this runs: eval $(cat .mind/list) (hooks.require_pins is set)\n`,
    ]);
    assert(r.stdout.startsWith("trusted 1 hook on 1 event: UserPromptSubmit 1\n"), r.stdout);
    assertStringIncludes(r.stdout, "\n  .mind/hooks.json:UserPromptSubmit:0:1  sh .mind/check.sh\n");
  });
}

// Item 4: bytecode, and files named whatever their type or folder.

Deno.test({
  name: "bytecode: a planted unchecked-hash .pyc (PEP 552) beside a pinned helper is never loaded",
  ignore: WINDOWS,
}, async () => {
  await using p = await project({
    ".mind/check.py":
      "import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\nimport policy\nprint(policy.WORD)\n",
    ".mind/policy.py": "WORD = 'policy-ok'\n",
    "evil.py": "WORD = 'planted-bytecode-ran'\n",
  }, { UserPromptSubmit: [group([cmd(`${shq(PYTHON)} .mind/check.py`)])] });
  // The attacker compiles other source into policy's cache file, in unchecked-hash mode: Python then
  // never compares it with policy.py, which stays byte-identical (and pinned).
  const plant = new Deno.Command(PYTHON, {
    args: [
      "-c",
      "import importlib.util, py_compile, sys; py_compile.compile(sys.argv[1], cfile=importlib.util.cache_from_source(sys.argv[2]), invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)",
      join(p.root, "evil.py"),
      join(p.root, ".mind", "policy.py"),
    ],
  }).outputSync();
  assertEquals(plant.code, 0, new TextDecoder().decode(plant.stderr));
  await Deno.remove(join(p.root, "evil.py"));
  // Without the engine's prefix, Python loads it (the attack is real):
  const direct = new Deno.Command(PYTHON, { args: [join(p.root, ".mind", "check.py")], stdin: "null" }).outputSync();
  assertEquals(new TextDecoder().decode(direct.stdout), "planted-bytecode-ran\n");
  const r = await dispatch(p.home, event("UserPromptSubmit", { cwd: p.root }), [], {
    env: { PYTHONDONTWRITEBYTECODE: "" },
  });
  assertEquals([r.runs.map((x) => [x.status, x.reason]), r.additionalContext], [[["completed", null]], ["policy-ok"]]);
  // The bytecode went under the home.
  assert(Deno.statSync(join(p.home, "cache", "pycache")).isDirectory);
});

Deno.test({
  name: "bytecode: a PYTHONPYCACHEPREFIX of the user's own environment is kept",
  ignore: WINDOWS,
}, async () => {
  await using p = await project({ ".mind/check.py": "import lib\n", ".mind/lib.py": "print('ran')\n" }, {
    UserPromptSubmit: [group([cmd(`cd .mind && ${shq(PYTHON)} check.py`)])],
  });
  const own = await Deno.makeTempDir({ prefix: "mind-hooks-pycache-" });
  try {
    const r = await dispatch(p.home, event("UserPromptSubmit", { cwd: p.root }), [], {
      env: { PYTHONPYCACHEPREFIX: own, PYTHONDONTWRITEBYTECODE: "" },
    });
    assertEquals(r.additionalContext, ["ran"]);
    assert([...Deno.readDirSync(join(own, p.root.slice(1), ".mind"))].some((e) => e.name.endsWith(".pyc")));
    assertEquals(await Deno.stat(join(p.home, "cache", "pycache")).then(() => "made", () => "none"), "none");
  } finally {
    await Deno.remove(own, { recursive: true });
  }
});

Deno.test({
  name: "named files: a .pyc the command runs and a script inside a plugin's .claude-plugin/ are pinned",
  ignore: WINDOWS,
}, async () => {
  // A project hook running bytecode directly.
  await using p = await project({}, { UserPromptSubmit: [group([cmd(`${shq(PYTHON)} .mind/tool.pyc`)])] });
  await Deno.writeTextFile(join(p.root, ".mind", "tool.py"), "print('ran')\n");
  const compiled = new Deno.Command(PYTHON, {
    args: ["-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2])", ".mind/tool.py"]
      .concat([".mind/tool.pyc"]),
    cwd: p.root,
  }).outputSync();
  assertEquals(compiled.code, 0);
  await trustAll(p.home, p.root);
  const config = await Deno.readTextFile(join(p.home, "config.toml"));
  assertStringIncludes(config, `".mind/tool.pyc" = "sha256:`);
  // A plugin hook running a script it keeps in its manifest folder.
  const home = await makeHome();
  try {
    const root = join(home.path, "plugins", "guard");
    await Deno.mkdir(join(root, ".claude-plugin"), { recursive: true });
    await Deno.writeTextFile(join(root, ".claude-plugin", "plugin.json"), `{"name": "guard"}\n`);
    await Deno.writeTextFile(join(root, ".claude-plugin", "hook.sh"), SCRIPT);
    await writeHooksJson(join(root, "hooks"), {
      SessionStart: [group([cmd('sh "${CLAUDE_PLUGIN_ROOT}/.claude-plugin/hook.sh"')])],
    });
    await Deno.writeTextFile(join(home.path, "config.toml"), `[plugins.guard]\nenabled = true\n`);
    await trustAll(home.path, home.path);
    assertEquals(await recordedPins(home.path, home.path), [".claude-plugin/hook.sh"]);
    await Deno.writeTextFile(join(root, ".claude-plugin", "hook.sh"), "echo injected\n", { append: true });
    const r = await dispatch(home.path, event("SessionStart", { cwd: home.path }));
    assertEquals(r.runs.map((x) => x.reason), ["modified: .claude-plugin/hook.sh changed"]);
  } finally {
    await home.cleanup();
  }
});

// Item 5: what this run executes, from its cwd and PATH.

Deno.test({
  name: "run place: a relative script that resolves to another file from the run's cwd makes the hook modified (added)",
  ignore: WINDOWS,
}, async () => {
  await using p = await project({ "scripts/check.sh": SCRIPT }, {
    UserPromptSubmit: [group([cmd("sh scripts/check.sh")])],
  });
  assertEquals(p.pinned, ["scripts/check.sh"]);
  await Deno.mkdir(join(p.root, "sub"));
  // From sub/ the script does not resolve inside the root: the hook may run (it fails, harmlessly)…
  assertEquals((await p.run({ cwd: join(p.root, "sub") }))[0][1], null);
  // …but once sub/scripts/check.sh exists, that unpinned file is what would run.
  await Deno.mkdir(join(p.root, "sub", "scripts"));
  await Deno.writeTextFile(join(p.root, "sub", "scripts", "check.sh"), SCRIPT);
  assertEquals(await p.run({ cwd: join(p.root, "sub") }), [["skipped", "modified: sub/scripts/check.sh added"]]);
  assertEquals(await p.run(), [["completed", null]]);
});

Deno.test({
  name: "run place: a bare name resolving along the run's PATH to an unpinned file in the root is modified (added)",
  ignore: WINDOWS,
}, async () => {
  const path = `bin:${Deno.env.get("PATH")}`;
  await using p = await project({ "bin/check-tool": "!" + SCRIPT }, {
    UserPromptSubmit: [group([cmd("check-tool")])],
  }, { PATH: path });
  assertEquals(p.pinned, ["bin/check-tool"]);
  // (A login shell may set its own PATH: the engine reads the one it hands the hook.)
  assertEquals((await p.run({ env: { PATH: path } }))[0][0] !== "skipped", true);
  await Deno.mkdir(join(p.root, "sub", "bin"), { recursive: true });
  await Deno.writeTextFile(join(p.root, "sub", "bin", "check-tool"), SCRIPT, { mode: 0o755 });
  assertEquals(await p.run({ cwd: join(p.root, "sub"), env: { PATH: path } }), [[
    "skipped",
    "modified: sub/bin/check-tool added",
  ]]);
});

// Item 11: trees pin code, not data.

Deno.test({
  name: "code, not data: a linter hook's log beside its script modifies neither it nor the guard in the same folder",
  ignore: WINDOWS,
}, async () => {
  // Like disler's ruff_validator.py: it appends to a log file next to itself on every run.
  const linter = [
    "import json, os, sys",
    "here = os.path.dirname(os.path.abspath(__file__))",
    "data = json.load(sys.stdin)",
    "with open(os.path.join(here, 'lint_validator.log'), 'a') as log: log.write(json.dumps(data)[:60] + '\\n')",
    "with open(os.path.join(here, 'state.json'), 'w') as f: json.dump({'runs': 1}, f)",
    "print('lint ok')",
    "",
  ].join("\n");
  const guard = "import json, sys\ndata = json.load(sys.stdin)\nprint('guard ok')\n";
  await using p = await project({ ".claude/hooks/lint_validator.py": linter, ".claude/hooks/rm_guard.py": guard }, {
    UserPromptSubmit: [group([
      cmd(`${shq(PYTHON)} .claude/hooks/lint_validator.py`),
      cmd(`${shq(PYTHON)} .claude/hooks/rm_guard.py`),
    ])],
  });
  assertEquals(p.pinned.sort(), [
    ".claude/hooks/lint_validator.py",
    ".claude/hooks/lint_validator.py",
    ".claude/hooks/rm_guard.py",
    ".claude/hooks/rm_guard.py",
  ]);
  assertEquals(await p.run(), [["completed", null], ["completed", null]]);
  assert(Deno.statSync(join(p.root, ".claude", "hooks", "lint_validator.log")).isFile);
  assertEquals(await p.run(), [["completed", null], ["completed", null]]);
  // A script added beside them is code: that still modifies both.
  await Deno.writeTextFile(join(p.root, ".claude", "hooks", "sitecustomize.py"), "import os\n");
  assertEquals(await p.run(), [
    ["skipped", "modified: .claude/hooks/sitecustomize.py added"],
    ["skipped", "modified: .claude/hooks/sitecustomize.py added"],
  ]);
  // A script of another language beside them is not in a Python script's closure (SPEC §3.5 r4
  // precision: Python loads the modules of its directory, not a `#!` file there).
  await Deno.remove(join(p.root, ".claude", "hooks", "sitecustomize.py"));
  await Deno.writeTextFile(join(p.root, ".claude", "hooks", "notes"), "#!/bin/sh\necho hi\n");
  assertEquals((await p.run())[0], ["completed", null]);
});
