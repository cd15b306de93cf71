/**
 * Pinned files end to end (SPEC §3.4, §3.5), with the real CLI and real script hooks in temp
 * projects and plugins: trusting a hook records the files its command runs; editing the script, a
 * helper module in its folder, or a plugin's file makes it `modified` — not run, with a reason
 * naming the file; an unrelated repository file and a Python hook's own `__pycache__` do not;
 * re-trusting runs it again. Also: hooks trusted before pinning, the bounds, `trust --all`'s
 * output, `list` and `list --json`, and `serve` (its hash cache sees every change).
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  makeHome,
  makeProject,
  PYTHON,
  runCli,
  shq,
  trustAll,
  trustProject,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";

const WINDOWS = Deno.build.os === "windows";

/** A project with a Python guard hook: `.mind/check_tool.py` imports `.mind/lib/policy.py`. */
async function guardProject(): Promise<{ root: string; mind: string; key: string; cleanup(): Promise<void> }> {
  const proj = await makeProject();
  await Deno.mkdir(join(proj.mindDir, "lib"));
  await Deno.writeTextFile(
    join(proj.mindDir, "check_tool.py"),
    [
      "import json, os, sys",
      "sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))",
      "import policy",
      "json.load(sys.stdin)",
      "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'additionalContext': policy.NOTE}}))",
      "",
    ].join("\n"),
  );
  await Deno.writeTextFile(join(proj.mindDir, "lib", "policy.py"), "NOTE = 'guard ran'\n");
  await Deno.writeTextFile(join(proj.path, "README.md"), "# a repository\n");
  const hooksJson = await writeHooksJson(proj.mindDir, {
    PreToolUse: [group([cmd(`${shq(PYTHON)} .mind/check_tool.py`)], "Bash")],
  });
  return { root: proj.path, mind: proj.mindDir, key: `project:${hooksJson}:PreToolUse:0:0`, cleanup: proj.cleanup };
}

/** A PreToolUse (Bash) event in `root`. */
const toolEvent = (root: string) => event("PreToolUse", { cwd: root });

/** Python writes bytecode next to imported modules (unless told not to): the tests want it to. */
const PY_ENV = { PYTHONDONTWRITEBYTECODE: "" };

async function trustedProject(): Promise<
  { home: string; p: Awaited<ReturnType<typeof guardProject>> } & AsyncDisposable
> {
  const home = await makeHome();
  const p = await guardProject();
  await trustProject(home.path, p.root);
  return {
    home: home.path,
    p,
    [Symbol.asyncDispose]: async () => {
      await p.cleanup();
      await home.cleanup();
    },
  };
}

/** What one dispatch did with the guard: its run record's status and reason, and the context it gave. */
async function guardRun(home: string, root: string): Promise<[string, string | null, string[], string[]]> {
  const r = await dispatch(home, toolEvent(root), [], { env: PY_ENV });
  assertEquals(r.runs.length, 1, JSON.stringify(r.runs));
  return [r.runs[0].status, r.runs[0].reason, r.additionalContext, r.systemMessages];
}

const RAN: [string, null, string[], string[]] = ["completed", null, ["guard ran"], []];
const needsReview = ["1 hook needs review: run mind-hooks review"];

Deno.test({
  name: "pinned: trust records the script and its helper; editing either makes the hook modified, not run",
  ignore: WINDOWS,
}, async () => {
  await using w = await trustedProject();
  const config = await Deno.readTextFile(join(w.home, "config.toml"));
  assertStringIncludes(config, `trusted_files = { ".mind/check_tool.py" = "sha256:`);
  assertStringIncludes(config, `".mind/lib/policy.py" = "sha256:`);
  assertEquals(await guardRun(w.home, w.p.root), RAN);

  // Edit the script: modified, named, not run.
  const script = join(w.p.mind, "check_tool.py");
  const original = await Deno.readTextFile(script);
  await Deno.writeTextFile(script, original + "print('injected')\n");
  assertEquals(await guardRun(w.home, w.p.root), [
    "skipped",
    "modified: .mind/check_tool.py changed",
    [],
    needsReview,
  ]);
  // Restored byte for byte: trusted again.
  await Deno.writeTextFile(script, original);
  assertEquals(await guardRun(w.home, w.p.root), RAN);

  // Edit a helper module in the script's folder: modified too.
  await Deno.writeTextFile(join(w.p.mind, "lib", "policy.py"), "NOTE = 'something else'\n");
  assertEquals(await guardRun(w.home, w.p.root), ["skipped", "modified: .mind/lib/policy.py changed", [], needsReview]);

  // Re-trusting pins the new content: it runs again.
  await trustAll(w.home, w.p.root);
  const [status, , context] = await guardRun(w.home, w.p.root);
  assertEquals([status, context], ["completed", ["something else"]]);
});

Deno.test({
  name:
    "pinned: a script outside .mind/ (the seed's scripts/check_tool.py) pins its Python closure (its directory's modules), checked in the sandboxed dispatch",
  ignore: WINDOWS,
}, async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  await Deno.mkdir(join(proj.path, "scripts"));
  await Deno.writeTextFile(join(proj.path, "scripts", "check_tool.py"), "import sys, json; sys.stdin.read()\n");
  await Deno.writeTextFile(join(proj.path, "scripts", "unrelated.sh"), "echo 1\n");
  await writeHooksJson(proj.mindDir, {
    PreToolUse: [group([cmd(`${shq(PYTHON)} scripts/check_tool.py`)], "Bash")],
  });
  await trustProject(home.path, proj.path);
  assertEquals(await pinnedPaths(home.path, proj.path), ["scripts/check_tool.py"]);
  const run = async () => (await dispatch(home.path, toolEvent(proj.path), [], { env: PY_ENV })).runs[0];
  assertEquals([(await run()).status, (await run()).reason], ["completed", null]);
  // A shell script beside it is not in its closure (SPEC §3.5 r4 precision)…
  await Deno.writeTextFile(join(proj.path, "scripts", "unrelated.sh"), "echo 2\n");
  assertEquals((await run()).status, "completed");
  // …but a later scripts/json.py shadows the standard library: it is sys.path[0] (SPEC §3.5 r4).
  await Deno.writeTextFile(join(proj.path, "scripts", "json.py"), "raise SystemExit(0)\n");
  assertEquals([(await run()).status, (await run()).reason], ["skipped", "modified: scripts/json.py added"]);
  await Deno.remove(join(proj.path, "scripts", "json.py"));
  await Deno.writeTextFile(join(proj.path, "scripts", "check_tool.py"), "import os\n");
  assertEquals([(await run()).status, (await run()).reason], ["skipped", "modified: scripts/check_tool.py changed"]);
});

Deno.test({
  name: "pinned: an unrelated repository file and the hook's own __pycache__ leave it trusted",
  ignore: WINDOWS,
}, async () => {
  await using w = await trustedProject();
  await Deno.writeTextFile(join(w.p.root, "README.md"), "# edited by the agent\n");
  await Deno.mkdir(join(w.p.root, "src"));
  await Deno.writeTextFile(join(w.p.root, "src", "main.py"), "print('app')\n");
  assertEquals(await guardRun(w.home, w.p.root), RAN);
  // The first run imported lib/policy.py and so wrote its bytecode — under the home (SPEC §3.5 r3:
  // PYTHONPYCACHEPREFIX), never beside it in the repository…
  const prefix = join(w.home, "cache", "pycache");
  const written = [...Deno.readDirSync(join(prefix, w.p.mind.slice(1), "lib"))].map((e) => e.name);
  assert(written.some((n) => n.endsWith(".pyc")), `no bytecode written: ${written}`);
  assertEquals([...Deno.readDirSync(join(w.p.mind, "lib"))].map((e) => e.name), ["policy.py"]);
  // …and the second run still finds every pinned file unchanged.
  assertEquals(await guardRun(w.home, w.p.root), RAN);
  assertEquals(await guardRun(w.home, w.p.root), RAN);
});

Deno.test({
  name: "pinned: a file added to the script's folder (at any depth) or a pinned file removed modifies the hook",
  ignore: WINDOWS,
}, async () => {
  await using w = await trustedProject();
  await Deno.mkdir(join(w.p.mind, "lib", "deep"), { recursive: true });
  await Deno.writeTextFile(join(w.p.mind, "lib", "deep", "sitecustomize.py"), "import os\n");
  assertEquals(await guardRun(w.home, w.p.root), [
    "skipped",
    "modified: .mind/lib/deep/sitecustomize.py added",
    [],
    needsReview,
  ]);
  await Deno.remove(join(w.p.mind, "lib", "deep"), { recursive: true });
  assertEquals(await guardRun(w.home, w.p.root), RAN);
  await Deno.remove(join(w.p.mind, "lib", "policy.py"));
  assertEquals(await guardRun(w.home, w.p.root), ["skipped", "modified: .mind/lib/policy.py removed", [], needsReview]);
});

Deno.test({
  name:
    "pinned: a symbolic link in the script's folder is pinned by where it points, and a folder it leads to inside the project is followed",
  ignore: WINDOWS,
}, async () => {
  await using w = await trustedProject();
  // The repository keeps its helpers elsewhere and links them in.
  await Deno.mkdir(join(w.p.root, "vendor"));
  await Deno.writeTextFile(join(w.p.root, "vendor", "extra.py"), "X = 1\n");
  await Deno.symlink("../../vendor", join(w.p.mind, "lib", "vendored"));
  await trustAll(w.home, w.p.root);
  assertEquals(await guardRun(w.home, w.p.root), RAN);
  const listed = (await runCli(["list", "--json", "--home", w.home, "--cwd", w.p.root])).json();
  assertEquals((listed.hooks[0].pinnedFiles as { path: string }[]).map((f) => f.path), [
    ".mind/check_tool.py",
    ".mind/lib/policy.py",
    ".mind/lib/vendored",
    "vendor/extra.py",
  ]);
  // Editing the file behind the link: modified.
  await Deno.writeTextFile(join(w.p.root, "vendor", "extra.py"), "X = 2\n");
  assertEquals(await guardRun(w.home, w.p.root), ["skipped", "modified: vendor/extra.py changed", [], needsReview]);
  await Deno.writeTextFile(join(w.p.root, "vendor", "extra.py"), "X = 1\n");
  assertEquals(await guardRun(w.home, w.p.root), RAN);
  // Pointing the link elsewhere: modified.
  await Deno.remove(join(w.p.mind, "lib", "vendored"));
  await Deno.symlink("/usr/lib", join(w.p.mind, "lib", "vendored"));
  const [status, reason] = await guardRun(w.home, w.p.root);
  assertEquals([status, reason], ["skipped", "modified: .mind/lib/vendored changed"]);
});

Deno.test({
  name: "pinned: a plugin's file edit modifies its hooks; its manifest and hooks.json are not pinned",
  ignore: WINDOWS,
}, async () => {
  await using home = await makeHome();
  const root = join(home.path, "plugins", "guard");
  await Deno.mkdir(join(root, ".claude-plugin"), { recursive: true });
  await Deno.mkdir(join(root, "hooks"));
  await Deno.mkdir(join(root, "lib"));
  await Deno.writeTextFile(join(root, ".claude-plugin", "plugin.json"), `{"name": "guard", "version": "1.0.0"}\n`);
  await Deno.writeTextFile(join(root, "hooks", "guard.sh"), `#!/bin/sh\n. "$CLAUDE_PLUGIN_ROOT/lib/util.sh"\nsay\n`);
  await Deno.writeTextFile(join(root, "lib", "util.sh"), `say() { cat >/dev/null; echo plugin-ran; }\n`);
  const hooksJson = await writeHooksJson(join(root, "hooks"), {
    SessionStart: [group([cmd('sh "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"')])],
  });
  await Deno.writeTextFile(join(home.path, "config.toml"), `[plugins.guard]\nenabled = true\n`);
  await trustAll(home.path, home.path);
  assertEquals(await pinnedPaths(home.path, home.path), ["hooks/guard.sh", "lib/util.sh"]);
  const key = `plugin:${await Deno.realPath(hooksJson)}:SessionStart:0:0`;
  const run = async () => {
    const r = await dispatch(home.path, event("SessionStart", { cwd: home.path }));
    return [r.runs.map((x) => [x.key, x.status, x.reason]), r.additionalContext];
  };
  assertEquals(await run(), [[[key, "completed", null]], ["plugin-ran"]]);
  // Bumping the version in the manifest changes nothing pinned.
  await Deno.writeTextFile(join(root, ".claude-plugin", "plugin.json"), `{"name": "guard", "version": "1.0.1"}\n`);
  assertEquals(await run(), [[[key, "completed", null]], ["plugin-ran"]]);
  // Its library, sourced by the script: modified.
  await Deno.writeTextFile(join(root, "lib", "util.sh"), `say() { cat >/dev/null; echo evil; }\n`);
  assertEquals(await run(), [[[key, "skipped", "modified: lib/util.sh changed"]], []]);
  await trustAll(home.path, home.path);
  assertEquals(await run(), [[[key, "completed", null]], ["evil"]]);
});

Deno.test({
  name: "pinned: a hook trusted before pinning counts as modified until reviewed, and the message says so once",
  ignore: WINDOWS,
}, async () => {
  await using w = await trustedProject();
  const path = join(w.home, "config.toml");
  // The state an earlier mind-hooks (or an installer computing the §3.2 hash) wrote: no trusted_files.
  const legacy = (await Deno.readTextFile(path)).replace(/^trusted_files = .*\n/m, "");
  await Deno.writeTextFile(path, legacy);
  const r = await dispatch(w.home, toolEvent(w.p.root), [], { env: PY_ENV });
  assertEquals(r.runs.map((x) => [x.status, x.reason]), [[
    "skipped",
    "modified: its files were never pinned (trusted before mind-hooks pinned files)",
  ]]);
  assertEquals(r.systemMessages, [
    "1 hook needs review: run mind-hooks review",
    "1 of them was trusted before mind-hooks pinned the files hooks run: one review pins its files",
  ]);
  const listed = await runCli(["list", "--home", w.home, "--cwd", w.p.root]);
  assertStringIncludes(listed.stdout, "not pinned yet (trusted before mind-hooks pinned files): .mind/check_tool.py");
  await trustAll(w.home, w.p.root);
  assertEquals(await guardRun(w.home, w.p.root), RAN);
});

Deno.test({
  name: "pinned: past the bound (256 files) a hook cannot be trusted: trust exits 1 naming it, the others are trusted",
  ignore: WINDOWS,
}, async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  await Deno.mkdir(join(proj.mindDir, "big"));
  for (let i = 0; i < 260; i++) await Deno.writeTextFile(join(proj.mindDir, "big", `m${i}.py`), `X = ${i}\n`);
  // A Python script's closure is its directory's modules (SPEC §3.5 r4): 261 of them here.
  await Deno.writeTextFile(join(proj.mindDir, "big", "main.py"), "import sys\n");
  const hooksJson = await writeHooksJson(proj.mindDir, {
    Stop: [group([cmd("python3 .mind/big/main.py"), cmd("echo small")])],
  });
  assertEquals((await runCli(["project", "trust", proj.path, "--home", home.path])).code, 0);
  const r = await runCli(["trust", "--all", "--home", home.path, "--cwd", proj.path]);
  const big = `project:${hooksJson}:Stop:0:0`;
  const small = `project:${hooksJson}:Stop:0:1`;
  assertEquals(r.code, 1, r.stderr);
  assertEquals(
    r.stderr,
    `mind-hooks: not trusted: ${big}: its files cannot be pinned: more than 256 files to pin (the bound is 256 files and 8 MiB per hook)\n`,
  );
  // trust --all's summary names the refused hook; the trusted one has its line (key tail and command).
  assert(r.stdout.startsWith("trusted 1 hook on 1 event: Stop 1\n"), r.stdout);
  assert(r.stdout.endsWith("\n  .mind/hooks.json:Stop:0:1  echo small\n"), r.stdout);
  const listed = await runCli(["list", "--json", "--home", home.path, "--cwd", proj.path]);
  const hooks = listed.json().hooks as { key: string; status: string; pinError: string | null }[];
  assertEquals(hooks.map((h) => [h.key, h.status, h.pinError]), [
    [big, "untrusted", "more than 256 files to pin (the bound is 256 files and 8 MiB per hook)"],
    [small, "trusted", null],
  ]);
});

Deno.test({
  name: "pinned: list and list --json show each hook's pinned files and what changed; network fetches are marked",
  ignore: WINDOWS,
}, async () => {
  await using w = await trustedProject();
  await writeHooksJson(w.p.mind, {
    PreToolUse: [group([cmd(`${shq(PYTHON)} .mind/check_tool.py`)], "Bash")],
    PostToolUse: [group([cmd("jq -r '.tool_input.file_path' | xargs npx prettier --write")], "Edit|Write")],
  });
  await Deno.writeTextFile(join(w.p.mind, "lib", "policy.py"), "NOTE = 'x'\n");
  const text = await runCli(["list", "--home", w.home, "--cwd", w.p.root]);
  assertStringIncludes(text.stdout, "status: modified (modified: .mind/lib/policy.py changed)");
  assertStringIncludes(text.stdout, "    pinned: .mind/check_tool.py, .mind/lib/policy.py (changed)\n");
  assertStringIncludes(text.stdout, "    network: it fetches at run time (npx); what it fetches is not pinned\n");
  const json = (await runCli(["list", "--json", "--home", w.home, "--cwd", w.p.root])).json();
  const [guard, fmt] = json.hooks as Record<string, unknown>[];
  const files = guard.pinnedFiles as { path: string; hash: string; state: string }[];
  assertEquals(files.map((f) => [f.path, f.state, /^sha256:[0-9a-f]{64}$/.test(f.hash)]), [
    [".mind/check_tool.py", "pinned", true],
    [".mind/lib/policy.py", "changed", true],
  ]);
  assertEquals([guard.status, guard.modifiedReason, guard.fetch], [
    "modified",
    "modified: .mind/lib/policy.py changed",
    null,
  ]);
  assertEquals([fmt.status, fmt.pinnedFiles, fmt.fetch], ["untrusted", [], "npx"]);
});

Deno.test({
  name:
    "pinned: a one-shot dispatch's hash cache (in the home) never hides a change, even one that keeps size and mtime",
  ignore: WINDOWS,
}, async () => {
  await using w = await trustedProject();
  assertEquals(await guardRun(w.home, w.p.root), RAN);
  // Files changed within a second are not cached: wait, so that the next dispatch caches them.
  await new Promise((r) => setTimeout(r, 1100));
  assertEquals(await guardRun(w.home, w.p.root), RAN);
  const trusted = join(w.home, "hooks", "trusted");
  const caches = [...Deno.readDirSync(trusted)].filter((e) => e.name.endsWith(".hashes.json"));
  assertEquals(caches.length, 1, "the dispatch cached the hashes it read");
  const cached = JSON.parse(await Deno.readTextFile(join(trusted, caches[0].name)));
  assertEquals(Object.keys(cached).sort(), [
    "#readings", // the hook's command as read (SPEC §3.5 r3: the reader is not run again while it holds)
    join(w.p.mind, "check_tool.py"),
    join(w.p.mind, "lib", "policy.py"),
  ]);
  // Same size, same mtime: only the content (and so the ctime) changes.
  const policy = join(w.p.mind, "lib", "policy.py");
  const stat = await Deno.stat(policy);
  await Deno.writeTextFile(policy, "NOTE = 'guard RAN'\n");
  await Deno.utime(policy, stat.atime!, stat.mtime!);
  assertEquals((await Deno.stat(policy)).size, stat.size);
  assertEquals(await guardRun(w.home, w.p.root), ["skipped", "modified: .mind/lib/policy.py changed", [], needsReview]);
  // A damaged cache is no cache.
  await Deno.writeTextFile(join(trusted, caches[0].name), '{"nonsense": ');
  assertEquals(await guardRun(w.home, w.p.root), ["skipped", "modified: .mind/lib/policy.py changed", [], needsReview]);
  await Deno.writeTextFile(policy, "NOTE = 'guard ran'\n");
  assertEquals(await guardRun(w.home, w.p.root), RAN);
});

Deno.test({
  name: "pinned: serve sees every change of a pinned file between two events (the hash cache keys on ctime and inode)",
  ignore: WINDOWS,
}, async () => {
  await using w = await trustedProject();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", join(Deno.cwd(), "deno.json"), join(Deno.cwd(), "main.ts")]
      .concat(["serve", "--home", w.home]),
    env: { SHELL: "/bin/sh", MIND_REQUIREMENTS: "/nonexistent/r.toml", ...PY_ENV },
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let id = 0;
  const call = async (): Promise<[string, string | null]> => {
    const req = { jsonrpc: "2.0", id: ++id, method: "dispatch", params: toolEvent(w.p.root) };
    await writer.write(new TextEncoder().encode(JSON.stringify(req) + "\n"));
    while (!buffered.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("serve ended");
      buffered += value;
    }
    const line = buffered.slice(0, buffered.indexOf("\n"));
    buffered = buffered.slice(buffered.indexOf("\n") + 1);
    const run = JSON.parse(line).result.runs[0];
    return [run.status, run.reason];
  };
  try {
    assertEquals(await call(), ["completed", null]);
    // Files changed within a second are not cached: wait, so that the next event caches them.
    await new Promise((r) => setTimeout(r, 1100));
    assertEquals(await call(), ["completed", null]);
    const script = join(w.p.mind, "check_tool.py");
    const original = await Deno.readFile(script);
    // Same size, same mtime: only the content (and so the ctime) changes.
    const stat = await Deno.stat(script);
    const tampered = new TextEncoder().encode(new TextDecoder().decode(original).replace("import json", "import jsoN"));
    assertEquals(tampered.length, original.length);
    await Deno.writeFile(script, tampered);
    await Deno.utime(script, stat.atime!, stat.mtime!);
    assertEquals(await call(), ["skipped", "modified: .mind/check_tool.py changed"]);
    await Deno.writeFile(script, original);
    assertEquals(await call(), ["completed", null]);
  } finally {
    await writer.close().catch(() => {});
    await reader.cancel().catch(() => {});
    child.kill();
    await child.status;
  }
});

/** The pinned files of the first hook `list --json` shows (what the trust recorded). */
async function pinnedPaths(home: string, cwd: string): Promise<string[]> {
  const listed = await runCli(["list", "--json", "--home", home, "--cwd", cwd]);
  const hooks = listed.json().hooks as { pinnedFiles: { path: string; state: string }[] | null }[];
  return (hooks[0].pinnedFiles ?? []).filter((f) => f.state === "pinned").map((f) => f.path);
}
