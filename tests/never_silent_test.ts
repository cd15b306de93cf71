/**
 * A guard hook is never lost silently (SPEC §6): a file of a loaded layer that does not parse, a
 * group dropped for its matcher, a handler dropped for a bad field, and above all a trust store
 * (the user config.toml) that does not parse each give every dispatch result a `systemMessages`
 * line naming the file, line and column and the fix — at most five, then a count — in mind's own
 * result and, through the adapter, in the host's message field. A broken trust store gives no
 * trust advice anywhere; the commands that write it exit 1 naming it; errors are printed once.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  makeHome,
  makeProject,
  runCli,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";

/** A home at `<os home>/.mind`, so that paths under the OS home are shown as `~/…`. */
async function osHome(): Promise<{ os: string; home: string } & AsyncDisposable> {
  const dir = await makeHome();
  const home = join(dir.path, ".mind");
  await Deno.mkdir(home);
  return { os: dir.path, home, [Symbol.asyncDispose]: dir.cleanup };
}

/** The Claude Code form of a Bash PreToolUse event, for `dispatch --protocol claude`. */
function claudeEvent(cwd: string): Record<string, unknown> {
  return {
    session_id: "s-claude",
    transcript_path: "/dev/null",
    cwd,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_use_id: "toolu_1",
  };
}

/** `dispatch --protocol claude|codex`: the host's own stdout object. */
async function hostDispatch(
  host: "claude" | "codex",
  home: string,
  os: string,
  cwd: string,
): Promise<Record<string, unknown>> {
  const input = host === "claude"
    ? claudeEvent(cwd)
    : { ...claudeEvent(cwd), turn_id: "t1", model: "m", tool_use_id: "call_1" };
  const r = await runCli(["dispatch", "--protocol", host, "--home", home], {
    stdin: JSON.stringify(input),
    env: { HOME: os },
  });
  assertEquals(r.code, 0, r.stderr);
  return r.json();
}

Deno.test("never silent: a trusted project's hooks.json that does not parse names file, line and column — in dispatch and through --protocol claude", async () => {
  await using h = await osHome();
  await using proj = await makeProject();
  assertEquals((await runCli(["project", "trust", proj.path, "--home", h.home])).code, 0);
  // A typo (",,") in the repository's guard file: its hooks vanish.
  await Deno.writeTextFile(
    join(proj.mindDir, "hooks.json"),
    `{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash",, "hooks": [{ "type": "command", "command": "exit 2" }] }\n    ]\n  }\n}\n`,
  );
  const line = `${proj.path}/.mind/hooks.json does not parse at 4:27: its hooks are not loaded — fix the file`;
  const r = await dispatch(h.home, event("PreToolUse", { cwd: proj.path }), [], { env: { HOME: h.os } });
  assertEquals([r.runs, r.systemMessages], [[], [line]]);
  assertEquals(r.warnings.map((w) => w.code), ["W_PARSE"]);
  // In adapter mode the line reaches the host's user through its own message field.
  assertEquals(await hostDispatch("claude", h.home, h.os, proj.path), { systemMessage: line });
  assertEquals(await hostDispatch("codex", h.home, h.os, proj.path), { systemMessage: line });
});

Deno.test("never silent: a broken user config.toml (the trust store) gives exactly the fix of the file, and no trust advice", async () => {
  await using h = await osHome();
  await using proj = await makeProject();
  await writeHooksJson(proj.mindDir, { PreToolUse: [group([cmd("exit 2")], "Bash")] });
  await writeHooksJson(h.home, { PreToolUse: [group([cmd("echo user-guard")], "Bash")] });
  // The project was trusted and the user hook reviewed, then a hand edit broke the file on line 6.
  await writeConfigToml(
    h.home,
    `# mind-hooks user configuration\n[projects.${
      JSON.stringify(proj.path)
    }]\ntrust_level = "trusted"\n\n# reviewed hooks\n[hooks.state."k"]]\n`,
  );
  const line =
    "~/.mind/config.toml does not parse at 6:18: trust state unreadable, only managed hooks can run — fix the file";
  const r = await dispatch(h.home, event("PreToolUse", { cwd: proj.path }), [], { env: { HOME: h.os } });
  // The user hook is matched and skipped as untrusted, the project is unreadable as trusted: still
  // neither "N hooks need review" nor "project trust" — only the fix of the file.
  assertEquals(r.runs.map((x) => [x.layer, x.status, x.reason]), [["user", "skipped", "untrusted"]]);
  assertEquals(r.systemMessages, [line]);
  assertEquals(await hostDispatch("claude", h.home, h.os, proj.path), { systemMessage: line });

  // list: the problem at the top, no advice to trust anything.
  const listed = await runCli(["list", "--home", h.home, "--cwd", proj.path], { env: { HOME: h.os } });
  const lines = listed.stdout.split("\n");
  assertEquals(lines.slice(0, 3), [
    "1 hook: 0 trusted, 1 needs review",
    `problem: ${line}`,
    // What the project holds is said; the command that would load it is not (no trust advice).
    `project ${proj.path}: NOT trusted — 1 hook not loaded: .mind/ 1 hook (.mind/hooks.json)`,
  ]);
  assert(!listed.stdout.includes("mind-hooks project trust"), listed.stdout);
  assert(!listed.stdout.includes("project trust") && !listed.stdout.includes("review them"), listed.stdout);

  // Every command that writes trust state exits 1 naming the file; nothing is written.
  const before = await Deno.readTextFile(join(h.home, "config.toml"));
  for (
    const args of [
      ["trust", "--all"],
      ["untrust", "--all"],
      ["enable", "--all"],
      ["disable", "--all"],
      ["project", "trust", proj.path],
    ]
  ) {
    const res = await runCli([...args, "--home", h.home, "--cwd", proj.path], { env: { HOME: h.os } });
    assertEquals([res.code, res.stdout, res.stderr], [1, "", `mind-hooks: ${line}; nothing written\n`], args.join(" "));
  }
  const status = await runCli(["project", "status", proj.path, "--home", h.home], { env: { HOME: h.os } });
  assertEquals(status.stdout, `${proj.path}: not trusted (${line})\n`);
  assertEquals(await Deno.readTextFile(join(h.home, "config.toml")), before);
});

Deno.test("never silent: a user config.toml that is not valid UTF-8 is a broken trust store — the fix of the file only; validate fails; writers refuse", async () => {
  await using h = await osHome();
  await using proj = await makeProject();
  await writeHooksJson(h.home, { PreToolUse: [group([cmd("echo user-guard")], "Bash")] });
  await trustAll(h.home, h.os);
  const good = await Deno.readTextFile(join(h.home, "config.toml"));
  // A byte that is no UTF-8 (an editor's Latin-1 save) in a comment on line 2, column 12.
  const bytes = new Uint8Array([
    ...new TextEncoder().encode(`# mind-hooks\n# caf\u00e9 au l`),
    0xe9,
    ...new TextEncoder().encode(`t\n${good}`),
  ]);
  await Deno.writeFile(join(h.home, "config.toml"), bytes);
  const line =
    "~/.mind/config.toml does not parse at 2:12 (not valid UTF-8): trust state unreadable, only managed hooks can run — fix the file";
  const r = await dispatch(h.home, event("PreToolUse", { cwd: proj.path }), [], { env: { HOME: h.os } });
  assertEquals(r.runs.map((x) => [x.layer, x.status, x.reason]), [["user", "skipped", "untrusted"]]);
  assertEquals(r.systemMessages, [line]);
  assertEquals(r.warnings.filter((w) => w.code === "W_PARSE").map((w) => [w.line, w.column, w.message]), [
    [2, 12, "TOML does not parse: not valid UTF-8; the file is not loaded"],
  ]);

  const validated = await runCli(["validate", "--home", h.home], { env: { HOME: h.os } });
  assertEquals(validated.code, 1, validated.stdout);
  assertStringIncludes(validated.stderr, "not valid UTF-8");
  assertStringIncludes(validated.stdout, "1 error");

  for (const args of [["trust", "--all"], ["project", "trust", proj.path]]) {
    const res = await runCli([...args, "--home", h.home, "--cwd", proj.path], { env: { HOME: h.os } });
    assertEquals([res.code, res.stdout, res.stderr], [1, "", `mind-hooks: ${line}; nothing written\n`], args.join(" "));
  }
  assertEquals(await Deno.readFile(join(h.home, "config.toml")), bytes);
});

Deno.test("never silent: a dropped group (bad matcher) and a dropped handler get lines with line and column, TOML and JSON", async () => {
  await using home = await makeHome();
  const toml = await writeConfigToml(
    home.path,
    `[[hooks.PreToolUse]]\nmatcher = "("\nhooks = [{ type = "command", command = "exit 2" }]\n`,
  );
  const json = await writeHooksJson(home.path, {
    PostToolUse: [group([cmd("true", { timeout: "ten" })])],
  });
  const r = await dispatch(home.path, event("SessionStart"));
  assertEquals(r.systemMessages, [
    `${toml}:2:1: PreToolUse[0]: invalid matcher "(" (Invalid regular expression: /(/: Unterminated group): its hooks do not run — fix the matcher`,
    `${json}:9:13: PostToolUse[0].hooks[0]: timeout must be an integer ≥ 1: the hook does not run — fix the hook`,
  ]);
  // Informational warnings stay in `warnings` only.
  await writeConfigToml(
    home.path,
    `[[hooks.Stop]]\nhooks = [{ type = "command", command = "true", colour = "red" }]\n`,
  );
  await Deno.remove(json);
  const ok = await dispatch(home.path, event("SessionStart"));
  // (r3) A session start names the (untrusted) Stop hook; the unknown field stays a warning only.
  assertEquals([ok.systemMessages, ok.warnings.map((w) => w.code)], [
    [`mind-hooks: 1 hook will not run until reviewed — Stop "true" (untrusted): run mind-hooks review`],
    ["W_UNKNOWN_FIELD"],
  ]);
});

Deno.test("never silent: at most five problem lines, then one with the count", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    Stop: Array.from({ length: 8 }, () => group([cmd("")])),
  });
  const r = await dispatch(home.path, event("SessionStart"));
  assertEquals(r.systemMessages.length, 6);
  assert(r.systemMessages.slice(0, 5).every((l) => l.includes("empty or missing command")), r.systemMessages[0]);
  assertEquals(r.systemMessages[5], "3 more configuration problems: run mind-hooks list to see them all");
});

Deno.test("never silent: trust --all in a home whose trust store is fine says nothing to trust with exit 0; a writer refusal is printed once", async () => {
  await using home = await makeHome();
  const empty = await runCli(["trust", "--all", "--home", home.path, "--cwd", home.path]);
  assertEquals([empty.code, empty.stdout], [0, "nothing to trust\n"]);
  // State written as an inline table: the writer refuses to edit it, and says "file unchanged" once.
  await writeConfigToml(
    home.path,
    `hooks = { state = { "k" = { enabled = false } }, Stop = [{ hooks = [{ type = "command", command = "true" }] }] }\n`,
  );
  const r = await runCli(["trust", "--all", "--home", home.path, "--cwd", home.path]);
  assertEquals(r.code, 1);
  assertEquals(r.stderr.split("\n").length, 2, r.stderr);
  assertEquals(r.stderr.match(/file unchanged/g)?.length, 1, r.stderr);
  assertStringIncludes(r.stderr, "is written as an inline value");
});

Deno.test("never silent: a trusted hook keeps running beside a broken file, and the line says what was lost", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  await writeHooksJson(home.path, { Stop: [group([cmd("echo '{}'")])] });
  await trustAll(home.path, home.path);
  assertEquals((await runCli(["project", "trust", proj.path, "--home", home.path])).code, 0);
  await Deno.writeTextFile(join(proj.mindDir, "config.toml"), `[[hooks.Stop]\n`);
  const r = await dispatch(home.path, event("Stop", { cwd: proj.path }));
  assertEquals(r.runs.map((x) => [x.layer, x.status]), [["user", "completed"]]);
  assertEquals(r.systemMessages, [
    `${proj.path}/.mind/config.toml does not parse at 1:14: its hooks are not loaded — fix the file`,
  ]);
});
