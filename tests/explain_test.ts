/**
 * `dispatch --explain` and `--pretty` (issue 16): why each hook of the event ran or not, on stderr —
 * the files read, layer by layer, then one line per hook (matched or not) with its key, matcher
 * result, trust status, outcome, duration and how its output was read — while stdout stays the
 * exact result; `--pretty` indents it. Without `--explain` the trace code is never even loaded.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  echoHook,
  event,
  group,
  makeHome,
  makeProject,
  runCli,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { modulesEvaluated } from "./helpers/evaluated.ts";

/** A result without its timings, which differ from run to run. */
function untimed(result: { runs: { duration_ms: number | null }[] }) {
  return { ...result, runs: result.runs.map((r) => ({ ...r, duration_ms: null })) };
}

Deno.test("dispatch --explain: one line per hook of the event, matched or not; stdout is the exact result", async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  const toml = await writeConfigToml(home.path, `[features]\nhooks = true\n`);
  const deny = echoHook({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm" },
  });
  const file = await writeHooksJson(project.mindDir, {
    PreToolUse: [
      group([{ ...cmd(deny), name: "No rm -rf" }], "Bash"),
      group([cmd("echo edit")], "Edit"),
      group([cmd("echo later")]),
      group([cmd("exit 3")], "Bash"),
    ],
    Stop: [group([cmd("echo stop")])],
  });
  const base = ["--home", home.path, "--cwd", project.path];
  assertEquals((await runCli(["project", "trust", ...base])).code, 0);
  await trustAll(home.path, project.path);
  // Modify the third hook after trusting it: it matches but does not run.
  const text = await Deno.readTextFile(file);
  await Deno.writeTextFile(file, text.replace('"echo later"', '"echo changed"'));
  const input = JSON.stringify(event("PreToolUse", { cwd: project.path }));
  const plain = await runCli(["dispatch", ...base], { stdin: input });
  const explained = await runCli(["dispatch", "--explain", ...base], { stdin: input });
  const pretty = await runCli(["dispatch", "--explain", "--pretty", ...base], { stdin: input });
  assertEquals([plain.code, explained.code, pretty.code, plain.stderr], [0, 0, 0, ""]);
  assertEquals(untimed(explained.json()), untimed(plain.json()), "--explain leaves the result as it is");
  assertEquals(pretty.stdout, JSON.stringify(pretty.json(), null, 2) + "\n");
  assertEquals(untimed(pretty.json()), untimed(plain.json()));

  // Keys as their shortest telling tails, paths relative to the project or with ~ (as list and review
  // show them): a line fits 100 columns instead of wrapping (issue 36).
  const key = (g: number) => `.mind/hooks.json:PreToolUse:${g}:0`;
  const files: [string, string, string][] = [
    ["managed", "/nonexistent/mind-hooks-tests/requirements.toml", "absent"],
    ["user", toml, "0 hooks"],
    ["user", `${home.path}/hooks.json`, "absent"],
    // The user's own Claude Code, Codex and Gemini CLI hooks (SPEC §2.8 r3), under the tests' HOME (no folder).
    ["claude-user", "~/.claude/settings.json", "absent"],
    ["codex-user", "~/.codex/config.toml", "absent"],
    ["codex-user", "~/.codex/hooks.json", "absent"],
    ["gemini-user", "~/.gemini/settings.json", "absent"],
    ["project", `.mind/config.toml`, "absent"],
    ["project", ".mind/hooks.json", "5 hooks"],
    // A trusted project's foreign layers are looked for too (SPEC §2.8).
    ["claude-project", `.claude/settings.json`, "absent"],
    ["claude-project", `.claude/settings.local.json`, "absent"],
    ["codex-project", `.codex/config.toml`, "absent"],
    ["codex-project", `.codex/hooks.json`, "absent"],
    ["gemini-project", `.gemini/settings.json`, "absent"],
  ];
  const width = Math.max(...files.map(([, p]) => p.length));
  const layerWidth = Math.max(...files.map(([l]) => l.length));
  const lines = explained.stderr.replace(/ in \d+ ms/g, " in N ms")
    .replace(/(parse|catalog|select|verdict|pins|run|fold|finish) [\d.]+ ms/g, "$1 T").split("\n");
  // At most one wrap at 100 columns (the absolute keys made lines of 200+ characters).
  for (const l of lines.slice(3)) assert(l.length <= 100 || l.includes(home.path), `wraps at 100 columns: ${l}`);
  assertEquals(lines, [
    "mind-hooks dispatch --explain · PreToolUse · matchers tested against exec_command, Bash",
    `project ${project.path}: trusted`,
    "files:",
    ...files.map(([layer, path, what]) => `  ${layer.padEnd(layerWidth)} ${path.padEnd(width)}  ${what}`),
    "hooks of PreToolUse: 4 (2 ran, 1 matched but not run, 1 not matched)",
    `  ${key(0)} ("No rm -rf")`,
    `      matcher "Bash": matched · trusted · blocked in N ms · exit 0, JSON: deny "no rm"`,
    `  ${key(1)}`,
    `      matcher "Edit": not matched · trusted · not run`,
    `  ${key(2)}`,
    `      matches every call · modified · not run (modified)`,
    `  ${key(3)}`,
    `      matcher "Bash": matched · trusted · failed in N ms · exit 3`,
    `result: deny "no rm"; 2 system messages, 0 warnings`,
    "answered in-process (no daemon answered)",
    // Four stages a line: the eight on one line would wrap at 100 columns.
    "stages: parse T · catalog T · select T · verdict T",
    "        pins T · run T · fold T · finish T",
    "",
  ]);
});

Deno.test("dispatch --explain: hooks turned off, no hook for the event, an untrusted project", async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  await writeHooksJson(project.mindDir, { Stop: [group([cmd("true")])] });
  await writeHooksJson(home.path, { Stop: [group([cmd("true")])] });
  const base = ["--home", home.path, "--cwd", project.path];
  const stop = JSON.stringify(event("Stop", { cwd: project.path }));
  const untrusted = (await runCli(["dispatch", "--explain", ...base], { stdin: stop })).stderr;
  assert(untrusted.includes(`project ${project.path}: NOT trusted, its .mind/ files are not read`), untrusted);
  assert(
    /:Stop:0:0\n {6}no matcher \(the event has none\) · untrusted · not run \(untrusted\)\n/.test(untrusted),
    untrusted,
  );
  assert(/ \.mind\/hooks\.json +not read\n/.test(untrusted), untrusted);
  const none = (await runCli(["dispatch", "--explain", ...base], {
    stdin: JSON.stringify(event("SessionStart", { cwd: project.path })),
  })).stderr;
  assert(none.includes("no hook is configured for SessionStart\n"), none);
  const off = (await runCli(["dispatch", "--explain", ...base, "-c", "features.hooks=false"], { stdin: stop })).stderr;
  assert(off.includes("hooks are turned off ([features] hooks = false): no hook runs\n"), off);
  assert(off.includes("not matched (hooks are off) · untrusted · not run"), off);
  // The mind protocol only: a host reads its own protocol's output.
  const r = await runCli(["dispatch", "--explain", "--protocol", "codex", ...base], { stdin: stop });
  assertEquals([r.code, r.stdout], [0, ""]);
  assert(r.stderr.startsWith("mind-hooks: --explain and --pretty are for the mind protocol"), r.stderr);
});

Deno.test("dispatch --explain: what hooks and files say is shown escaped on the terminal", async () => {
  await using home = await makeHome();
  const hostile = "no\u001b[2J\u202eyes\u0085\u2028!";
  await writeHooksJson(home.path, {
    PreToolUse: [group([{
      ...cmd(echoHook({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: hostile,
        },
      })),
      name: hostile,
    }])],
  });
  await trustAll(home.path);
  const r = await runCli(["dispatch", "--explain", "--home", home.path], {
    stdin: JSON.stringify(event("PreToolUse")),
  });
  assertEquals([r.code, r.json().reason], [0, hostile]);
  // deno-lint-ignore no-control-regex -- control characters are what must not be there
  assertEquals(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2028\u2029]/.test(r.stderr), false);
  assert(r.stderr.includes('("no\\u001b[2J\\u202eyes\\x85\\u2028!")'), r.stderr);
});

Deno.test("dispatch --explain: without it, the trace and its rendering are never evaluated", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, { Stop: [group([cmd("true")])] });
  await trustAll(home.path);
  const input = JSON.stringify(event("Stop"));
  const traceCode = (modules: string[]) => modules.filter((m) => m === "engine/trace.ts" || m === "cli/explain.ts");
  const plain = await modulesEvaluated(["dispatch", "--home", home.path], input);
  assert(plain.includes("engine/dispatch.ts"), plain.join(" "));
  assertEquals(traceCode(plain), []);
  assertEquals(traceCode(await modulesEvaluated(["dispatch", "--explain", "--home", home.path], input)), [
    "cli/explain.ts",
    "engine/trace.ts",
  ]);
});
