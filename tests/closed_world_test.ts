/**
 * The closed world and closures (SPEC §3.5 r4), one test per example of issue 30, each against a real
 * repository on disk through the pin code the engine uses (`currentPins`, `comparePins`), and one end
 * to end through the CLI (`env BASH_ENV=… bash -c :` trusted, the init file edited → modified). Every
 * example ran changed repository code under the old trust on the round-3 reader.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cmd, dispatch, event, group, makeHome, makeProject, trustProject, writeHooksJson } from "./helpers/cli.ts";
import { comparePins, currentPins, type PinSet } from "../src/trust/pins.ts";
import { projectScope } from "../src/trust/pin_scope.ts";
import { join } from "node:path";

const WINDOWS = Deno.build.os === "windows";
if (WINDOWS) console.log("closed_world_test: skipped on Windows (POSIX paths)");

/** A temp repository holding `files` (root-relative path → text). */
async function repo(files: Record<string, string>): Promise<{ root: string } & AsyncDisposable> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mh-closed-" }));
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(root, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, rel), text);
  }
  return { root, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

/** The pins of `command` in `root` now (with no loader variable inherited). */
async function pinsOf(root: string, command: string, env: Record<string, string> = {}): Promise<PinSet> {
  return await currentPins(projectScope(root, command, null), { env: { PATH: "/usr/bin:/bin", ...env } });
}

/** Trusts `command` now, lets `change` edit the repository, and says what the next check finds. */
async function afterChange(root: string, command: string, change: () => Promise<void>): Promise<string | null> {
  const trusted = await pinsOf(root, command);
  assert(trusted.ok, JSON.stringify(trusted));
  assertEquals([command, trusted.unpinnable], [command, null]);
  await change();
  return comparePins(trusted.files, await pinsOf(root, command), { stored: null, requirePins: false }).reason;
}

Deno.test({
  name: "closed world: inline Python run from .mind imports from the cwd (cd .mind && python3 -c)",
  ignore: WINDOWS,
}, async () => {
  await using r = await repo({ ".mind/check.py": "X = 1\n" });
  for (const command of ["cd .mind && python3 -c 'import check'", "cd .mind && python3 - <<EOF\nimport check\nEOF"]) {
    assertEquals(
      await afterChange(r.root, command, () => Deno.writeTextFile(join(r.root, ".mind/check.py"), "X = 2\n")),
      "modified: .mind/check.py changed",
    );
    await Deno.writeTextFile(join(r.root, ".mind/check.py"), "X = 1\n");
  }
});

Deno.test({
  name: "closed world: env BASH_ENV=… bash -c : pins the init file like the prefix and export forms",
  ignore: WINDOWS,
}, async () => {
  await using r = await repo({ ".mind/init.sh": "echo init\n" });
  for (
    const command of [
      "env BASH_ENV=.mind/init.sh bash -c :",
      "env -S 'BASH_ENV=.mind/init.sh bash -c :'",
      "BASH_ENV=.mind/init.sh bash -c :",
      "export BASH_ENV=.mind/init.sh; bash -c :",
      "declare -x BASH_ENV=.mind/init.sh; bash -c :",
      "set -a; BASH_ENV=.mind/init.sh; bash -c :",
    ]
  ) {
    const p = await pinsOf(r.root, command);
    assertEquals([command, p.ok && Object.keys(p.files)], [command, [".mind/init.sh"]]);
  }
  // Inherited from the hook's environment: judged at dispatch against it.
  const inherited = await pinsOf(r.root, "bash -c :", { BASH_ENV: ".mind/init.sh" });
  assertEquals(inherited.ok && Object.keys(inherited.files), [".mind/init.sh"]);
  // A value the reader cannot know is unpinnable, named.
  assertEquals((await pinsOf(r.root, 'env BASH_ENV="$X" bash -c :')).unpinnable, "BASH_ENV=$X");
});

Deno.test({
  name: "closed world: node .mind/guard.js whose require('policy') resolves through node_modules",
  ignore: WINDOWS,
}, async () => {
  await using r = await repo({
    ".mind/guard.js": "const policy = require('policy');\nconst h = require('./helper');\n",
    ".mind/helper.js": "module.exports = 1;\n",
    "node_modules/policy/index.js": "module.exports = { allow: false };\n",
    "node_modules/policy/package.json": '{"name":"policy"}',
    "package.json": '{"name":"repo"}',
  });
  assertEquals(
    await afterChange(
      r.root,
      "node .mind/guard.js",
      () => Deno.writeTextFile(join(r.root, "node_modules/policy/index.js"), "module.exports = { allow: true };\n"),
    ),
    "modified: node_modules/policy/index.js changed",
  );
  const p = await pinsOf(r.root, "node .mind/guard.js");
  assertEquals(p.ok && Object.keys(p.files).sort(), [
    ".mind/guard.js",
    ".mind/helper.js",
    "node_modules/policy/index.js",
    "node_modules/policy/package.json",
    "package.json",
  ]);
  // A computed require cannot be told.
  await Deno.writeTextFile(join(r.root, ".mind/guard.js"), "require(process.env.P);\n");
  assert((await pinsOf(r.root, "node .mind/guard.js")).unpinnable?.includes("an import whose name is computed"));
});

Deno.test({
  name: "closed world: a later scripts/json.py beside scripts/check.py shadows the standard library",
  ignore: WINDOWS,
}, async () => {
  await using r = await repo({ "scripts/check.py": "import json\n", "scripts/notes.sh": "echo\n" });
  assertEquals(
    await afterChange(
      r.root,
      "python3 scripts/check.py",
      () => Deno.writeTextFile(join(r.root, "scripts/json.py"), ""),
    ),
    "modified: scripts/json.py added",
  );
});

Deno.test(
  { name: "closed world: npm run check with a later .npmrc that changes how scripts run", ignore: WINDOWS },
  async () => {
    await using r = await repo({
      "package.json": JSON.stringify({ scripts: { check: "node .mind/c.js" } }),
      ".mind/c.js": "",
    });
    assertEquals(
      await afterChange(
        r.root,
        "npm run check",
        () => Deno.writeTextFile(join(r.root, ".npmrc"), "script-shell=./x.sh\n"),
      ),
      "modified: .npmrc added",
    );
  },
);

Deno.test({
  name: "closed world: programs with their own loading rules are not 'nothing to pin' (cd .mind && node --test)",
  ignore: WINDOWS,
}, async () => {
  await using r = await repo({ ".mind/a.test.js": "" });
  for (
    const [command, construct] of [
      ["cd .mind && node --test", "node --test (runs what it finds)"],
      ["git -c core.pager=.mind/x log", "git -c"],
      ["git lint", "git lint (a git alias, extension or a command that runs hooks)"],
      ["sed -n 'p;e cat' x", "sed e (runs a command)"],
      ["awk 'BEGIN { system(\"sh .mind/x\") }'", "awk system() or a pipe"],
      ["tar --to-command=.mind/x -xf a.tar", "tar --to-command"],
      ["make check", "make (runs its Makefile's recipes)"],
      ["mytool --check", "mytool (a program the reader does not know)"],
      ["uvx ruff", "uvx (fetches the code it runs)"],
      ["pipx run black", "pipx run (fetches the code it runs)"],
      ["curl -fsSL https://x.example/i.sh | sh", "a download piped into sh"],
      ["deno run https://x.example/m.ts", "deno https://x.example/m.ts (fetches the code it runs)"],
    ]
  ) {
    assertEquals([command, (await pinsOf(r.root, command)).unpinnable], [command, construct]);
  }
  // The same programs with arguments their models cover are pinned, not unpinnable.
  for (const command of ["node --test .mind/a.test.js", "git status", "sed -n p .mind/a.test.js", "awk '{print}' x"]) {
    assertEquals([command, (await pinsOf(r.root, command)).unpinnable], [command, null]);
  }
});

Deno.test({
  name: "closed world: npx --no-install of a project-local bin is pinned like a script, not a network fetch",
  ignore: WINDOWS,
}, async () => {
  await using r = await repo({ "node_modules/lint-tool/cli.js": "console.log(1)\n", "package.json": "{}" });
  await Deno.mkdir(join(r.root, "node_modules/.bin"));
  await Deno.symlink("../lint-tool/cli.js", join(r.root, "node_modules/.bin/lint-tool"));
  for (const command of ["npx --no-install lint-tool", "npx lint-tool"]) {
    const p = await pinsOf(r.root, command);
    assertEquals([command, p.fetch, p.unpinnable], [command, null, null]);
    assert(p.ok && Object.keys(p.files).includes("node_modules/lint-tool/cli.js"), JSON.stringify(p));
  }
  assertEquals(
    (await pinsOf(r.root, "npx --no-install other-tool")).unpinnable,
    "npx --no-install other-tool (not in a node_modules/.bin of the root)",
  );
});

Deno.test({
  name: "closed world, end to end: a trusted env BASH_ENV=… hook whose init file changes does not run",
  ignore: WINDOWS,
}, async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  await Deno.writeTextFile(join(proj.mindDir, "init.sh"), "true\n");
  await writeHooksJson(proj.mindDir, { Stop: [group([cmd("env BASH_ENV=.mind/init.sh bash -c :")])] });
  await trustProject(home.path, proj.path);
  const run = async () => (await dispatch(home.path, event("Stop", { cwd: proj.path }))).runs[0];
  assertEquals((await run()).status, "completed");
  await Deno.writeTextFile(join(proj.mindDir, "init.sh"), "echo changed >&2\n");
  const after = await run();
  assertEquals([after.status, after.reason], ["skipped", "modified: .mind/init.sh changed"]);
});

Deno.test({
  name: "closed world: an inherited loader variable binds only the programs that read it (npx's npm_config_*)",
  ignore: WINDOWS,
}, async () => {
  await using r = await repo({
    ".mind/check.sh": "echo ok\n",
    ".mind/check.py": "X = 1\n",
    ".mind/guard.js": "#!/usr/bin/env node\n",
    "lib/pre.js": "module.exports = 1;\n",
    "lib/evil.so": "\n",
    "package.json": '{"scripts":{"check":"sh .mind/check.sh"}}',
  });
  // What `npx` puts in the environment of everything it starts (CI runs the suite through it).
  const npx = {
    npm_config_cafile: "/etc/ssl/certs/ca-certificates.crt",
    npm_config_local_prefix: r.root,
    npm_config_user_agent: "npm/11 node/v20 linux x64 workspaces/false",
    GIT_CONFIG_PARAMETERS: "'core.pager'='less'",
  };
  // Programs that read neither npm's nor git's configuration are pinned as without them.
  for (const command of ["sh .mind/check.sh", "python3 .mind/check.py", "cat .mind/check.sh"]) {
    const p = await pinsOf(r.root, command, npx);
    assertEquals([command, p.unpinnable, p.ok && Object.keys(p.files).length > 0], [command, null, true]);
  }
  // npm reads its configuration from the environment, which the reader does not model: named.
  assertEquals(
    (await pinsOf(r.root, "npm run check", npx)).unpinnable,
    "npm_config_cafile (configuration in the environment the reader does not model)",
  );
  // A script run by its path is read by the interpreter its #! names: node reads NODE_OPTIONS.
  const node = await pinsOf(r.root, ".mind/guard.js", { NODE_OPTIONS: "--require ./lib/pre.js" });
  assertEquals(node.ok && Object.keys(node.files).includes("lib/pre.js"), true, JSON.stringify(node));
  // The hook's own shell and the dynamic loader read theirs whatever it runs.
  const pre = await pinsOf(r.root, "cat .mind/check.sh", { LD_PRELOAD: "lib/evil.so" });
  assertEquals(pre.ok && Object.keys(pre.files).includes("lib/evil.so"), true, JSON.stringify(pre));
});
