/**
 * End-to-end tests of the core engine through the real CLI (issue 2):
 * command-line errors (SPEC §1), configuration layers and fault tolerance
 * (§2) and trust (§3). Matching (§4), hook input normalization and environment
 * (§5, §7.1) and the command runner's limits (§7.1) are tests/dispatch_e2e_run_test.ts.
 * Every case spawns `mind-hooks` exactly as `deno task mind-hooks` does, with real
 * hook scripts from `fixtures/hooks/`.
 */

import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import denoJson from "../deno.json" with { type: "json" };
import {
  cmd,
  dispatch,
  type DispatchResult,
  event,
  group,
  makeHome,
  makeProject,
  runCli,
  runKeys,
  trustAll,
  warningCodes,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { BYPASS, warningsOf } from "./helpers/dispatch_e2e.ts";

/** Asserts the §1 contract for bad input: exit 1, exactly one `mind-hooks: …` line on stderr, empty stdout. */
function assertUsageError(res: { code: number; stdout: string; stderr: string }, pattern: RegExp, what: string) {
  assertEquals(res.code, 1, `${what}: exit code (stderr: ${res.stderr})`);
  assertEquals(res.stdout, "", `${what}: stdout must be empty`);
  const lines = res.stderr.split("\n").filter((l) => l !== "");
  assertEquals(lines.length, 1, `${what}: exactly one stderr line, got:\n${res.stderr}`);
  assertMatch(lines[0], /^mind-hooks: /, what);
  assertMatch(lines[0], pattern, what);
}

// ---------------------------------------------------------------------------------------------
// §1 Command line
// ---------------------------------------------------------------------------------------------

Deno.test("§1 bad dispatch input: exit 1, one mind-hooks line on stderr, nothing on stdout", async () => {
  await using home = await makeHome();
  const stdinCases: [string, string, RegExp][] = [
    ["empty stdin", "", /stdin is empty/],
    ["blank stdin", "  \n\t", /stdin is empty/],
    ["not JSON", "{nope", /not valid JSON/],
    ["JSON array", "[]", /JSON object/],
    ["JSON string", '"PreToolUse"', /JSON object/],
    ["no hook_event_name", JSON.stringify(event("Stop", { hook_event_name: undefined })), /hook_event_name/],
    [
      "unknown event",
      JSON.stringify(event("PreToolUse", { hook_event_name: "PreToolUze" })),
      /unknown event "PreToolUze"/,
    ],
    [
      "missing required field",
      JSON.stringify(event("PreToolUse", { tool_name: undefined })),
      /PreToolUse.*tool_name.*required/,
    ],
    [
      "missing session_id",
      JSON.stringify(event("SessionEnd", { session_id: undefined })),
      /session_id.*required/,
    ],
    [
      "mistyped field",
      JSON.stringify(event("Stop", { stop_hook_active: "yes" })),
      /stop_hook_active.*expected boolean/,
    ],
    [
      "mistyped tool_input",
      JSON.stringify(event("PreToolUse", { tool_input: "ls" })),
      /tool_input.*expected object/,
    ],
    [
      "bad permission_mode",
      JSON.stringify(event("UserPromptSubmit", { permission_mode: "yolo" })),
      /permission_mode/,
    ],
  ];
  const results = await Promise.all(
    stdinCases.map(([, stdin]) => runCli(["dispatch", "--home", home.path], { stdin })),
  );
  stdinCases.forEach(([what, , pattern], i) => assertUsageError(results[i], pattern, what));

  const valid = JSON.stringify(event("Stop"));
  const argCases: [string, string[], RegExp][] = [
    ["unknown option", ["dispatch", "--home", home.path, "--bogus"], /unknown option --bogus/],
    ["unknown short option", ["dispatch", "--home", home.path, "-z"], /unknown option -z/],
    ["option without value", ["dispatch", "--home"], /--home needs a value/],
    ["malformed -c", ["dispatch", "--home", home.path, "-c", "novalue"], /-c expects KEY=VALUE/],
    ["unknown command", ["frobnicate"], /unknown command "frobnicate"/],
  ];
  const argResults = await Promise.all(argCases.map(([, args]) => runCli(args, { stdin: valid })));
  argCases.forEach(([what, , pattern], i) => assertUsageError(argResults[i], pattern, what));
});

Deno.test("§1 --help and --version", async () => {
  const [help, version, dispatchHelp] = await Promise.all([
    runCli(["--help"]),
    runCli(["--version"]),
    runCli(["dispatch", "--help"]),
  ]);
  assertEquals(help.code, 0);
  assertEquals(help.stderr, "");
  assertMatch(help.stdout, /^mind-hooks /);
  for (const command of ["dispatch", "trust", "project", "validate", "schema"]) {
    assertMatch(help.stdout, new RegExp(`mind-hooks ${command}`), `help mentions ${command}`);
  }
  assertEquals(version.code, 0);
  assertEquals(version.stderr, "");
  assertEquals(version.stdout, `mind-hooks ${denoJson.version}\n`);
  assertEquals(dispatchHelp.code, 0);
  assertMatch(dispatchHelp.stdout, /mind-hooks dispatch/);
  assertMatch(dispatchHelp.stdout, /--dangerously-bypass-hook-trust/);
});

// ---------------------------------------------------------------------------------------------
// §2 Configuration layers
// ---------------------------------------------------------------------------------------------

Deno.test("§2 layers: user TOML + JSONC, profile, trusted project, -c and --hooks-file, in configuration order", async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  // The first hook is the slowest: `runs` and additionalContext must still follow configuration order.
  await writeConfigToml(
    home.path,
    `# user config: hooks as inline TOML (SPEC §2.2)
[[hooks.UserPromptSubmit]]
hooks = [
  { type = "command", command = "sleep 0.6; echo user-toml" },
]
`,
  );
  await Deno.writeTextFile(
    join(home.path, "hooks.json"),
    `{
  // JSONC: comments and trailing commas are allowed (SPEC §2.1)
  "description": "user hooks",
  "hooks": {
    "UserPromptSubmit": [
      { "hooks": [ { "type": "command", "command": "echo user-json", }, ], },
    ],
  },
}
`,
  );
  await writeHooksJson(join(home.path, "profiles", "work"), {
    UserPromptSubmit: [group([cmd("echo profile")])],
  });
  await writeConfigToml(
    project.mindDir,
    `[hooks]
UserPromptSubmit = [ { hooks = [ { type = "command", command = "echo project" } ] } ]
`,
  );
  const cliFile = await writeHooksJson(join(home.path, "extra"), {
    UserPromptSubmit: [group([cmd("echo cli-file")])],
  });
  const layerArgs = [
    "--profile",
    "work",
    "-c",
    `hooks.UserPromptSubmit=[{hooks=[{type="command",command="echo cli-c"}]}]`,
    "--hooks-file",
    cliFile,
  ];
  const ev = event("UserPromptSubmit", { cwd: project.path });

  // Untrusted project: its layer is not loaded at all, with a warning naming it.
  const before = await dispatch(home.path, ev, [...layerArgs, BYPASS]);
  assertEquals(before.runs.map((r) => r.layer), ["user", "user", "profile", "cli", "cli"]);
  assert(
    warningsOf(before, "W_PROJECT_UNTRUSTED").some((w) => w.message.includes(project.path)),
    JSON.stringify(before.warnings),
  );

  const trusted = await runCli(["project", "trust", project.path, "--home", home.path]);
  assertEquals(trusted.code, 0, trusted.stderr);
  assertMatch(trusted.stdout, new RegExp(`trusted project ${project.path}`));
  assertMatch(await Deno.readTextFile(join(home.path, "config.toml")), /trust_level = "trusted"/);

  await trustAll(home.path, project.path, layerArgs);
  const result = await dispatch(home.path, ev, layerArgs);
  assertEquals(runKeys(result), [
    `user:${home.path}/config.toml:UserPromptSubmit:0:0`,
    `user:${home.path}/hooks.json:UserPromptSubmit:0:0`,
    `profile:${home.path}/profiles/work/hooks.json:UserPromptSubmit:0:0`,
    `project:${project.mindDir}/config.toml:UserPromptSubmit:0:0`,
    `cli:cli-override:UserPromptSubmit:0:0`,
    `cli:${cliFile}:UserPromptSubmit:0:0`,
  ]);
  assertEquals(result.runs.map((r) => r.layer), ["user", "user", "profile", "project", "cli", "cli"]);
  assertEquals(result.runs.map((r) => r.status), Array(6).fill("completed"));
  assertEquals(result.additionalContext, ["user-toml", "user-json", "profile", "project", "cli-c", "cli-file"]);
  assertEquals(warningsOf(result, "W_BOTH_REPRESENTATIONS").map((w) => w.source), [home.path]);
  assertEquals(warningsOf(result, "W_PROJECT_UNTRUSTED").length, 0);
  assertEquals(result.systemMessages, []);
});

Deno.test("§2 profile selection: --profile over $MIND_PROFILE over profile = in the user config", async () => {
  await using home = await makeHome();
  for (const name of ["a", "b", "c"]) {
    await writeHooksJson(join(home.path, "profiles", name), {
      SessionStart: [group([cmd(`echo profile-${name}`)])],
    });
  }
  await writeConfigToml(home.path, `profile = "c"\n`);
  const ev = event("SessionStart");
  const [fromConfig, fromEnv, fromFlag] = await Promise.all([
    dispatch(home.path, ev, [BYPASS]),
    dispatch(home.path, ev, [BYPASS], { env: { MIND_PROFILE: "b" } }),
    dispatch(home.path, ev, [BYPASS, "--profile", "a"], { env: { MIND_PROFILE: "b" } }),
  ]);
  assertEquals(fromConfig.additionalContext, ["profile-c"]);
  assertEquals(fromEnv.additionalContext, ["profile-b"]);
  assertEquals(fromFlag.additionalContext, ["profile-a"]);
  assertEquals(fromFlag.runs.map((r) => r.layer), ["profile"]);
});

Deno.test("§2.3/§3.1 the home's own .mind is not a project; keys use the real path of a symlinked file", async () => {
  await using root = await makeHome();
  const home = join(root.path, ".mind");
  const real = await writeHooksJson(join(root.path, "dotfiles"), { Stop: [group([cmd("true")])] });
  await Deno.mkdir(home);
  await Deno.symlink(real, join(home, "hooks.json"));
  const r = await dispatch(home, event("Stop", { cwd: root.path }), [BYPASS]);
  assertEquals(runKeys(r), [`user:${real}:Stop:0:0`]);
  assertEquals(r.runs.map((x) => x.status), ["completed"]);
  assertEquals(warningsOf(r, "W_PROJECT_UNTRUSTED").length, 0, JSON.stringify(r.warnings));
});

Deno.test("§2.4 feature switch: [features] hooks = false, codex_hooks alias, -c features.hooks=true wins", async () => {
  await using home = await makeHome();
  const off = join(home.path, "off");
  const alias = join(home.path, "alias");
  for (const [dir, features] of [[off, "hooks = false"], [alias, "codex_hooks = false"]]) {
    await writeConfigToml(dir, `[features]\n${features}\n`);
    await writeHooksJson(dir, { Stop: [group([cmd("true")])] });
  }
  const ev = event("Stop");
  const [offResult, aliasResult, forcedOn, aliasOn] = await Promise.all([
    dispatch(off, ev, [BYPASS]),
    dispatch(alias, ev, [BYPASS]),
    dispatch(off, ev, [BYPASS, "-c", "features.hooks=true"]),
    dispatch(alias, ev, [BYPASS, "-c", "features.hooks=true"]),
  ]);
  assertEquals(offResult.runs, []);
  assertEquals(offResult.decision, null);
  assertEquals(aliasResult.runs, []);
  assert(warningCodes(aliasResult).includes("W_DEPRECATED_ALIAS"), JSON.stringify(aliasResult.warnings));
  assert(!warningCodes(offResult).includes("W_DEPRECATED_ALIAS"));
  assertEquals(forcedOn.runs.map((r) => r.status), ["completed"]);
  assertEquals(aliasOn.runs.map((r) => r.status), ["completed"]);
});

Deno.test("§2.2 fault tolerance: bad groups and handlers are skipped alone, with stable warning codes", async () => {
  await using home = await makeHome();
  const hooksPath = join(home.path, "hooks.json");
  await Deno.writeTextFile(
    hooksPath,
    JSON.stringify({
      version: 2, // hooks.json's root accepts only description and hooks
      hooks: {
        PreToolUse: [
          { matcher: "(", hooks: [cmd("echo bad-regex")] }, // 0: invalid regex → whole group skipped
          {
            matcher: "Bash",
            hooks: [
              cmd(""), // 1:0 empty command
              cmd("true", { timeout: "ten" }), // 1:1 wrong type
              { type: "prompt", prompt: "is this ok?" }, // 1:2 (r4) runs only with [hooks.model]: skipped, said
              { type: "agent", agent: "reviewer" }, // 1:3 unsupported
              cmd("true", { colour: "red" }), // 1:4 unknown field: still runs
              { type: "command", command: 42 }, // 1:5 wrong type
              { type: "command" }, // 1:6 missing command
              cmd("true"), // 1:7 fine
            ],
          },
        ],
        PreToolUze: [group([cmd("true")])],
        SessionEnd: [group([cmd("true", { timeout: 10 })])],
      },
    }),
  );
  // A profile whose two files do not parse: warnings with line and column; the user layer still loads.
  const broken = join(home.path, "profiles", "broken");
  await writeConfigToml(broken, "# fine\n[features]\nhooks = = true\n");
  await Deno.writeTextFile(
    join(broken, "hooks.json"),
    '{\n  // c\n  "hooks": {\n    "Stop": [ { "hooks": [ } ] }\n}\n',
  );
  const result = await dispatch(home.path, event("PreToolUse"), [BYPASS, "--profile", "broken"]);
  assertEquals(runKeys(result), [
    `user:${hooksPath}:PreToolUse:1:2`,
    `user:${hooksPath}:PreToolUse:1:4`,
    `user:${hooksPath}:PreToolUse:1:7`,
  ]);
  assertEquals(result.runs.map((r) => [r.status, r.reason]), [
    ["skipped", "no model: set [hooks.model] in the user config"],
    ["completed", null],
    ["completed", null],
  ]);

  const codes = warningCodes(result);
  for (
    const code of [
      "W_BAD_MATCHER",
      "W_EMPTY_COMMAND",
      "W_BAD_FIELD",
      "W_UNSUPPORTED_HANDLER",
      "W_UNKNOWN_FIELD",
      "W_UNKNOWN_EVENT",
      "W_TIMEOUT_CLAMPED",
      "W_PARSE",
    ]
  ) assert(codes.includes(code), `${code} missing from ${codes.join(", ")}`);
  assertEquals(warningsOf(result, "W_BAD_MATCHER").length, 1);
  assertEquals(warningsOf(result, "W_UNSUPPORTED_HANDLER").length, 1);
  assertEquals(warningsOf(result, "W_EMPTY_COMMAND").length, 2);
  assertEquals(warningsOf(result, "W_BAD_FIELD").length, 2);
  assertEquals(
    warningsOf(result, "W_UNKNOWN_FIELD").map((w) => /"(\w+)"/.exec(w.message)?.[1]).sort(),
    ["colour", "version"],
  );
  assertMatch(warningsOf(result, "W_UNKNOWN_EVENT")[0].message, /PreToolUze/);
  assertMatch(warningsOf(result, "W_TIMEOUT_CLAMPED")[0].message, /SessionEnd.*3/);
  for (const w of result.warnings.filter((w) => w.code !== "W_PARSE")) assertEquals(w.source, hooksPath);

  const parse = warningsOf(result, "W_PARSE");
  const toml = parse.find((w) => w.source === join(broken, "config.toml"));
  const json = parse.find((w) => w.source === join(broken, "hooks.json"));
  assert(toml && json, JSON.stringify(parse));
  assertEquals([toml.line, toml.column], [3, 9]);
  assertEquals([json.line, json.column], [4, 28]);
});

// ---------------------------------------------------------------------------------------------
// §3 Identity and trust
// ---------------------------------------------------------------------------------------------

Deno.test("§3 trust statuses: untrusted, trusted, modified, disabled, re-trust, bypass", async (t) => {
  await using home = await makeHome();
  const hooksPath = join(home.path, "hooks.json");
  const keyA = `user:${hooksPath}:UserPromptSubmit:0:0`;
  const keyB = `user:${hooksPath}:UserPromptSubmit:0:1`;
  const keyC = `user:${hooksPath}:UserPromptSubmit:0:2`;
  const write = (commands: string[]) =>
    writeHooksJson(home.path, { UserPromptSubmit: [group(commands.map((c) => cmd(c)))] });
  const ev = event("UserPromptSubmit", { prompt: "PROMPT-TEXT-NEVER-LOGGED" });
  const summary = (r: DispatchResult) => r.runs.map((x) => `${x.status}:${x.reason ?? ""}`);

  await t.step("new hooks are untrusted, skipped, and reported", async () => {
    await write(["echo A", "echo B"]);
    const r = await dispatch(home.path, ev);
    assertEquals(runKeys(r), [keyA, keyB]);
    assertEquals(summary(r), ["skipped:untrusted", "skipped:untrusted"]);
    assertEquals(r.additionalContext, []);
    assertEquals(r.systemMessages, ["2 hooks need review: run mind-hooks review"]);
  });

  await t.step("trust --all: trusted hooks run", async () => {
    const trusted = await trustAll(home.path);
    // The summary, then one line per hook: its key tail and command (SPEC §14 r3).
    assertEquals(
      trusted.stdout,
      `trusted 2 hooks on 1 event: UserPromptSubmit 2\n  from 1 file: ${hooksPath} (2)\n  no file pinned\n` +
        "  hooks.json:UserPromptSubmit:0:0  echo A\n  hooks.json:UserPromptSubmit:0:1  echo B\n",
    );
    const r = await dispatch(home.path, ev);
    assertEquals(summary(r), ["completed:", "completed:"]);
    assertEquals(r.additionalContext, ["A", "B"]);
    assertEquals(r.systemMessages, []);
  });

  await t.step("editing a trusted hook makes it modified (skipped)", async () => {
    await write(["echo A2", "echo B"]);
    const r = await dispatch(home.path, ev);
    assertEquals(summary(r), ["skipped:modified", "completed:"]);
    assertEquals(r.additionalContext, ["B"]);
    assertEquals(r.systemMessages, ["1 hook needs review: run mind-hooks review"]);
  });

  await t.step("disable keeps trust but skips; it is not a review item", async () => {
    const res = await runCli(["disable", keyB, "--home", home.path]);
    assertEquals(res.code, 0, res.stderr);
    const r = await dispatch(home.path, ev);
    assertEquals(summary(r), ["skipped:modified", "skipped:disabled"]);
    assertEquals(r.systemMessages, ["1 hook needs review: run mind-hooks review"]);
  });

  await t.step("re-trusting keeps a disabled hook disabled", async () => {
    const res = await runCli(["trust", keyA, keyB, "--home", home.path]);
    assertEquals(res.code, 0, res.stderr);
    const r = await dispatch(home.path, ev);
    assertEquals(summary(r), ["completed:", "skipped:disabled"]);
    assertEquals(r.additionalContext, ["A2"]);
  });

  await t.step("--dangerously-bypass-hook-trust runs untrusted and modified hooks, never disabled ones", async () => {
    await write(["echo A3", "echo B", "echo C"]);
    const plain = await dispatch(home.path, ev);
    assertEquals(summary(plain), ["skipped:modified", "skipped:disabled", "skipped:untrusted"]);
    const r = await dispatch(home.path, ev, [BYPASS]);
    assertEquals(runKeys(r), [keyA, keyB, keyC]);
    assertEquals(summary(r), ["completed:", "skipped:disabled", "completed:"]);
    assertEquals(r.additionalContext, ["A3", "C"]);
  });

  await t.step("enable brings the disabled hook back", async () => {
    const res = await runCli(["enable", keyB, "--home", home.path]);
    assertEquals(res.code, 0, res.stderr);
    const r = await dispatch(home.path, ev);
    assertEquals(summary(r), ["skipped:modified", "completed:", "skipped:untrusted"]);
  });

  await t.step("§12 every run went to the observation log, without the hook input", async () => {
    const log = await Deno.readTextFile(join(home.path, "logs", "hooks.jsonl"));
    const entries = log.trim().split("\n").map((l) => JSON.parse(l));
    const runs = entries.filter((e) => e.kind === "run" && e.key === keyB).map((e) => `${e.status}:${e.reason ?? ""}`);
    assertEquals(runs, [
      "skipped:untrusted",
      "completed:",
      "completed:",
      "skipped:disabled",
      "skipped:disabled",
      "skipped:disabled",
      "skipped:disabled",
      "completed:",
    ]);
    assert(!log.includes("PROMPT-TEXT-NEVER-LOGGED"));
  });
});

Deno.test("§3.3 state: ignored in project and profile files (W_STATE_NOT_AUTHORITATIVE); -c state for one process", async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  const projectHooks = await writeHooksJson(project.mindDir, { Stop: [group([cmd("true")])] });
  const key = `project:${projectHooks}:Stop:0:0`;
  assertEquals((await runCli(["project", "trust", project.path, "--home", home.path])).code, 0);
  // Learn the hook's hash from a real trust, then take the trust back.
  const trusted = await runCli(["trust", key, "--home", home.path, "--cwd", project.path]);
  assertEquals(trusted.code, 0, trusted.stderr);
  const hash = /sha256:[0-9a-f]{64}/.exec(trusted.stdout)?.[0];
  assert(hash, trusted.stdout);
  const untrusted = await runCli(["untrust", key, "--home", home.path, "--cwd", project.path]);
  assertEquals(untrusted.code, 0, untrusted.stderr);

  // The project (and a profile) claim the hook is trusted: a layer can never authorize itself.
  const stateToml = `[hooks.state."${key}"]\ntrusted_hash = "${hash}"\nenabled = true\n`;
  await writeConfigToml(project.mindDir, stateToml);
  await writeConfigToml(join(home.path, "profiles", "p"), stateToml);
  const userConfigBefore = await Deno.readTextFile(join(home.path, "config.toml"));
  const ev = event("Stop", { cwd: project.path });

  const ignored = await dispatch(home.path, ev, ["--profile", "p"]);
  assertEquals(ignored.runs.map((r) => [r.key, r.status, r.reason]), [[key, "skipped", "untrusted"]]);
  assertEquals(
    warningsOf(ignored, "W_STATE_NOT_AUTHORITATIVE").map((w) => w.source).sort(),
    [join(home.path, "profiles", "p", "config.toml"), join(project.mindDir, "config.toml")].sort(),
  );
  // A config.toml holding only [hooks.state] does not define hooks: no both-representations warning.
  assertEquals(warningsOf(ignored, "W_BOTH_REPRESENTATIONS").length, 0);

  const viaC = await dispatch(home.path, ev, ["-c", `hooks.state."${key}".trusted_hash="${hash}"`]);
  assertEquals(viaC.runs.map((r) => [r.status, r.reason]), [["completed", null]]);
  const after = await dispatch(home.path, ev);
  assertEquals(after.runs.map((r) => [r.status, r.reason]), [["skipped", "untrusted"]]);
  assertEquals(await Deno.readTextFile(join(home.path, "config.toml")), userConfigBefore);

  // -c can disable for one process too.
  const disabled = await dispatch(home.path, ev, [
    "-c",
    `hooks.state."${key}".trusted_hash="${hash}"`,
    "-c",
    `hooks.state."${key}".enabled=false`,
  ]);
  assertEquals(disabled.runs.map((r) => [r.status, r.reason]), [["skipped", "disabled"]]);
});
