/**
 * A changed guard that must not fail open does not (SPEC §3.5 r4), end to end with the real CLI and a
 * real Python guard: the trust record keeps `trusted_fail_closed = true`; a hook trusted as
 * `failClosed` that is now modified (its definition or a pinned file changed) or whose pinned files
 * cannot be read denies on an event that can block, naming the change; on an event that cannot block
 * it is skipped; a modified hook that was not `failClosed` keeps r1's rule (skipped, named). And
 * precision (§3.5 r4): editing a shell helper that the Python guard never loads leaves it running.
 */
import { assertEquals, assertStringIncludes } from "./helpers/assert.ts";
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
  trustProject,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";

const WINDOWS = Deno.build.os === "windows";
if (WINDOWS) console.log("changed_guard_test: skipped on Windows (POSIX paths and sh helpers)");

/** The guard: denies a Bash command holding `rm -rf`, allows the rest. */
const GUARD = [
  "import json, sys",
  "e = json.load(sys.stdin)",
  "c = str(e.get('tool_input', {}).get('command', ''))",
  "if 'rm -rf' in c:",
  "    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'permissionDecision': 'deny', 'permissionDecisionReason': 'guard: no rm -rf'}}))",
  "",
].join("\n");

type Guarded = { home: string; root: string; mind: string; hooksJson: string; key: string } & AsyncDisposable;

/**
 * A trusted project with the guard (`failClosed` unless told) on PreToolUse and SessionStart, and a
 * shell hook in `.mind/hooks/` that sources a helper beside it.
 */
async function guarded(failClosed = true): Promise<Guarded> {
  const home = await makeHome();
  const proj = await makeProject();
  await Deno.writeTextFile(join(proj.mindDir, "guard.py"), GUARD);
  await Deno.mkdir(join(proj.mindDir, "hooks"));
  await Deno.writeTextFile(join(proj.mindDir, "hooks", "helper.sh"), "note() { :; }\n");
  await Deno.writeTextFile(join(proj.mindDir, "hooks", "lint.sh"), '. "$(dirname "$0")/helper.sh"\nnote\n');
  const guard = cmd(`${shq(PYTHON)} .mind/guard.py`, failClosed ? { failClosed: true } : {});
  const hooksJson = await writeHooksJson(proj.mindDir, {
    PreToolUse: [group([guard], "Bash"), group([cmd("sh .mind/hooks/lint.sh")], "Bash")],
    SessionStart: [group([guard])],
  });
  await trustProject(home.path, proj.path);
  return {
    home: home.path,
    root: proj.path,
    mind: proj.mindDir,
    hooksJson,
    key: `project:${hooksJson}:PreToolUse:0:0`,
    [Symbol.asyncDispose]: async () => {
      await proj.cleanup();
      await home.cleanup();
    },
  };
}

/** A Bash PreToolUse of `command` in the project. */
async function bash(g: Guarded, command: string) {
  const r = await dispatch(g.home, event("PreToolUse", { cwd: g.root, tool_input: { cmd: command } }));
  return { decision: r.decision, reason: r.reason, guard: r.runs.find((x) => x.key === g.key) };
}

Deno.test({ name: "changed guard: the trust record keeps trusted_fail_closed = true", ignore: WINDOWS }, async () => {
  await using g = await guarded();
  const config = await Deno.readTextFile(join(g.home, "config.toml"));
  assertStringIncludes(config, `[hooks.state."${g.key}"]`);
  const table = config.slice(config.indexOf(`[hooks.state."${g.key}"]`)).split("\n[")[0];
  assertStringIncludes(table, "trusted_fail_closed = true");
  const other = config.slice(config.indexOf(`[hooks.state."project:${g.hooksJson}:PreToolUse:1:0"]`)).split("\n[")[0];
  assertEquals(other.includes("trusted_fail_closed"), false);
  // Trusted and unchanged, it runs and denies what it denies.
  const r = await bash(g, "rm -rf /");
  assertEquals([r.decision, r.reason, r.guard?.status], ["deny", "guard: no rm -rf", "blocked"]);
});

Deno.test(
  { name: "changed guard: a failClosed guard whose script changed denies, naming the file", ignore: WINDOWS },
  async () => {
    await using g = await guarded();
    await Deno.writeTextFile(join(g.mind, "guard.py"), "import sys\n");
    const r = await bash(g, "ls");
    assertEquals([r.decision, r.reason, r.guard?.status], [
      "deny",
      `hook ${g.key} changed since you trusted it (.mind/guard.py changed): review it`,
      "skipped",
    ]);
    // An event that cannot block: skipped, named, nothing denied.
    const s = await dispatch(g.home, event("SessionStart", { cwd: g.root }));
    assertEquals([s.decision, s.runs[0].status, s.runs[0].reason], [
      null,
      "skipped",
      "modified: .mind/guard.py changed",
    ]);
  },
);

Deno.test({
  name: "changed guard: a definition change denies too, even one that drops failClosed; an unreadable pin denies",
  ignore: WINDOWS,
}, async () => {
  await using g = await guarded();
  const hooks = JSON.parse(await Deno.readTextFile(g.hooksJson));
  hooks.hooks.PreToolUse[0].hooks[0] = cmd(`${shq(PYTHON)} .mind/guard.py --lenient`);
  await Deno.writeTextFile(g.hooksJson, JSON.stringify(hooks));
  const r = await bash(g, "ls");
  assertEquals([r.decision, r.reason], [
    "deny",
    `hook ${g.key} changed since you trusted it (.mind/hooks.json changed): review it`,
  ]);
  await using h = await guarded();
  // The pinned script is now a folder: its pins cannot be read.
  await Deno.remove(join(h.mind, "guard.py"));
  await Deno.mkdir(join(h.mind, "guard.py"));
  const u = await bash(h, "ls");
  assertEquals(u.decision, "deny");
  assertStringIncludes(u.reason ?? "", `hook ${h.key} changed since you trusted it (`);
});

Deno.test(
  { name: "changed guard: a modified hook that was not failClosed is skipped, not denying", ignore: WINDOWS },
  async () => {
    await using g = await guarded(false);
    await Deno.writeTextFile(join(g.mind, "guard.py"), "import sys\n");
    const r = await bash(g, "rm -rf /");
    assertEquals([r.decision, r.guard?.status, r.guard?.reason], [null, "skipped", "modified: .mind/guard.py changed"]);
  },
);

Deno.test({
  name: "precision: editing a shell helper the Python guard never loads leaves the guard running (rm -rf / denied)",
  ignore: WINDOWS,
}, async () => {
  await using g = await guarded();
  await Deno.writeTextFile(join(g.mind, "hooks", "helper.sh"), "note() { echo changed; }\n");
  const r = await bash(g, "rm -rf /");
  assertEquals([r.decision, r.reason, r.guard?.status], ["deny", "guard: no rm -rf", "blocked"]);
  // `list` shows each hook's closure and why each file is in it (SPEC §3.5 r4).
  const listed = await runCli(["list", "--home", g.home, "--cwd", g.root]);
  assertStringIncludes(listed.stdout, "    closure: .mind/guard.py (a script the command runs)\n");
  const json = listed.code === 0 ? await runCli(["list", "--json", "--home", g.home, "--cwd", g.root]) : listed;
  const guard = (json.json().hooks as { key: string; pinnedFiles: { path: string; why?: string }[] }[])
    .find((h) => h.key === g.key);
  assertEquals(guard?.pinnedFiles.map((f) => [f.path, f.why]), [[".mind/guard.py", "a script the command runs"]]);
  // The shell hook that sources the helper is the one modified.
  const lint = (await dispatch(g.home, event("PreToolUse", { cwd: g.root, tool_input: { cmd: "ls" } }))).runs[1];
  assertEquals([lint.status, lint.reason], ["skipped", "modified: .mind/hooks/helper.sh changed"]);
});
