/**
 * A misspelling never loses a guard silently (SPEC §2.2 r4, issue 31 item 6), through the real CLI: an
 * event name or handler field within two edits of a known one (`PreTooluse`, `timout`) is a problem —
 * `validate` exits 1, `list` shows `problem:`, every dispatch and session start carries its line; the
 * settings of `[hooks]` are never events; another host's event mind does not serve is named at every
 * session start; a hooks file that is a dangling link is a broken file, not an absent one.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { cmd, dispatch, event, group, makeHome, makeProject, runCli, trustAll, writeHooksJson } from "./helpers/cli.ts";

const typoLines = (messages: string[]) => messages.filter((m) => m.includes("did you mean"));

Deno.test("misspellings: PreTooluse and timout are problems in validate, list, every dispatch and session start", async () => {
  await using home = await makeHome();
  const file = await writeHooksJson(home.path, {
    PreTooluse: [group([cmd("echo never-runs")], "Bash")],
    Stop: [group([cmd("true", { timout: 5 })])],
  });
  await trustAll(home.path);
  const v = await runCli(["validate", "--home", home.path]);
  assertEquals(v.code, 1, v.stdout + v.stderr);
  assertStringIncludes(v.stderr, `unknown event "PreTooluse"`);
  assertStringIncludes(v.stderr, `did you mean "PreToolUse"?`);
  assertStringIncludes(v.stderr, `did you mean "timeout"?`);
  assertStringIncludes(v.stdout, "2 errors");

  const l = await runCli(["list", "--home", home.path]);
  const problems = l.stdout.split("\n").filter((x) => x.includes("problem:"));
  assertEquals(problems.length, 2, l.stdout);
  assertStringIncludes(
    problems.join("\n"),
    `${file}:3:5: unknown event "PreTooluse": its hooks do not run; did you mean`,
  );

  for (const name of ["SessionStart", "PreToolUse", "Stop"] as const) {
    const r = await dispatch(home.path, event(name, name === "PreToolUse" ? { tool_name: "Bash" } : {}));
    assertEquals(typoLines(r.systemMessages), [
      `${file}:3:5: unknown event "PreTooluse": its hooks do not run; did you mean "PreToolUse"? — fix the name`,
      `${file}:20:13: unknown field "timout": ignored, the hook runs without it; did you mean "timeout"? — fix the name`,
    ], name);
  }
});

Deno.test("misspellings: a name far from every known one stays a warning; another host's name for a served event is a problem", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    MyOwnThing: [group([cmd("true")])],
    BeforeTool: [group([cmd("true")])],
    Stop: [group([cmd("true", { owner: "me" })])],
  });
  const r = await dispatch(home.path, event("Stop"));
  assertEquals(typoLines(r.systemMessages).length, 1, r.systemMessages.join("\n"));
  assertStringIncludes(
    r.systemMessages.join("\n"),
    `unknown event "BeforeTool": its hooks do not run; did you mean "PreToolUse"?`,
  );
  assert(r.warnings.some((w) => w.code === "W_UNKNOWN_EVENT" && w.message.includes("MyOwnThing")));
  assert(r.warnings.some((w) => w.code === "W_UNKNOWN_FIELD" && w.message.includes("owner")));
});

Deno.test("misspellings: the settings of [hooks] are settings, never events", async () => {
  await using home = await makeHome();
  await Deno.writeTextFile(
    `${home.path}/config.toml`,
    [
      "[hooks]",
      `allowed_http_hook_urls = ["https://hooks.example/*"]`,
      "record = true",
      `record_redact = ["^session"]`,
      "daemon = false",
      "require_pins = false",
      "",
      "[hooks.model]",
      `provider = "anthropic"`,
      `base_url = "https://api.anthropic.com"`,
      `model = "claude-haiku-4-5"`,
      `api_key_env = "ANTHROPIC_API_KEY"`,
      "",
      "[[hooks.Stop]]",
      `hooks = [{ type = "command", command = "true" }]`,
      "",
    ].join("\n"),
  );
  const r = await dispatch(home.path, event("Stop"));
  assertEquals(r.warnings.filter((w) => w.code === "W_UNKNOWN_EVENT"), []);
  const v = await runCli(["validate", "--home", home.path]);
  assertEquals(v.code, 0, v.stderr);
});

Deno.test("misspellings: an event mind does not serve (ConfigChange), in any layer, is named at every session start", async () => {
  await using home = await makeHome();
  const os = `${home.path}/os`;
  await Deno.mkdir(`${os}/.claude`, { recursive: true });
  await Deno.writeTextFile(
    `${os}/.claude/settings.json`,
    JSON.stringify({ hooks: { ConfigChange: [{ hooks: [{ type: "command", command: "true" }] }] } }),
  );
  await writeHooksJson(home.path, { TeammateIdle: [group([cmd("true")])] });
  const r = await dispatch(home.path, event("SessionStart"), [], { env: { HOME: os } });
  assert(
    r.systemMessages.includes(
      "mind-hooks: hooks on TeammateIdle, ConfigChange will not run here (an event of another host that mind does not serve)",
    ),
    r.systemMessages.join("\n"),
  );
  assertEquals(typoLines(r.systemMessages), [], "not a misspelling");
  // Only session starts say it.
  const stop = await dispatch(home.path, event("Stop"), [], { env: { HOME: os } });
  assertEquals(stop.systemMessages.filter((m) => m.includes("will not run here")), []);
});

Deno.test({
  name: "misspellings: a hooks file that is a dangling link is a broken file, not an absent one",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await Deno.symlink(`${home.path}/dotfiles/hooks.json`, `${home.path}/hooks.json`);
    const r = await dispatch(home.path, event("Stop"));
    const line = r.systemMessages.find((m) => m.includes("hooks.json"));
    assertEquals(
      line,
      `${home.path}/hooks.json cannot be read (cannot read: a link to ${home.path}/dotfiles/hooks.json that leads ` +
        `nowhere): its hooks are not loaded — fix the file`,
    );
    const v = await runCli(["validate", "--home", home.path]);
    assertEquals(v.code, 1, v.stdout + v.stderr);

    // A trusted project's .mind/hooks.json the same (the sandboxed run of a project's hooks).
    await using project = await makeProject();
    await Deno.remove(`${home.path}/hooks.json`);
    await writeHooksJson(project.mindDir, { Stop: [group([cmd("true")])] });
    assertEquals((await runCli(["project", "trust", project.path, "--home", home.path])).code, 0);
    await Deno.remove(`${project.mindDir}/hooks.json`);
    await Deno.symlink(`${project.path}/moved/hooks.json`, `${project.mindDir}/hooks.json`);
    const p = await dispatch(home.path, event("Stop", { cwd: project.path }));
    assertStringIncludes(p.systemMessages.join("\n"), `.mind/hooks.json cannot be read (cannot read: a link to`);
  },
});
