/**
 * Errors that say what to type (issue 16): did-you-mean for commands, options, actions and event
 * names wherever one is typed; one exit-code table for every command (a command missing what it
 * needs is a usage error: exit 1, the message and the usage line on stderr, nothing on stdout —
 * bare `mind-hooks` included); `--help` texts that stand alone; a clear error for a missing `--cwd`.
 * Every case runs the real CLI.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { event, group, makeHome, makeProject, runCli, writeHooksJson } from "./helpers/cli.ts";
import { COMMANDS } from "../src/cli/commands.ts";

/** Exit code, stdout and stderr lines of one run. */
async function outcome(args: string[], stdin?: string): Promise<[number, string, string[]]> {
  const r = await runCli(args, { stdin });
  return [r.code, r.stdout, r.stderr.split("\n").filter((l) => l !== "")];
}

Deno.test("did you mean: commands, options, actions, hosts, shells, kinds and layers", async () => {
  const cases: [string[], string][] = [
    [["lsit"], 'mind-hooks: unknown command "lsit"; did you mean "list"? (see mind-hooks --help)'],
    [["reveiw"], 'mind-hooks: unknown command "reveiw"; did you mean "review"? (see mind-hooks --help)'],
    [["frobnicate"], 'mind-hooks: unknown command "frobnicate" (see mind-hooks --help)'],
    [["list", "--jsn"], "mind-hooks: unknown option --jsn; did you mean --json?"],
    [["dispatch", "--hoem", "/h"], "mind-hooks: unknown option --hoem; did you mean --home?"],
    [["install", "claude", "--dry"], "mind-hooks: unknown option --dry; did you mean --dry-run?"],
    [
      ["project", "trsut"],
      'mind-hooks: project: unknown action "trsut"; did you mean "trust"? (trust, untrust or status)',
    ],
    [
      ["transcript", "shwo"],
      'mind-hooks: transcript: unknown action "shwo"; did you mean "show"? (append, path or show)',
    ],
    [
      ["install", "cladue"],
      'mind-hooks: install: unknown host "cladue"; did you mean "claude"? (claude, codex, gemini or copilot)',
    ],
    [["completions", "bsh"], 'mind-hooks: completions: unknown shell "bsh"; did you mean "bash"? (bash, zsh or fish)'],
    [
      ["schema", "inptu"],
      'mind-hooks: schema: unknown kind "inptu"; did you mean "input"? (input, output, config or result)',
    ],
  ];
  const got = await Promise.all(cases.map(([args]) => outcome(args)));
  assertEquals(got, cases.map(([, line]) => [1, "", [line]]));
});

Deno.test("did you mean: event names in hook_event_name, schema EVENT and a hooks file's keys", async () => {
  await using home = await makeHome();
  const ev = JSON.stringify(event("PreToolUse", { hook_event_name: "PreTooluse" }));
  assertEquals(await outcome(["dispatch", "--home", home.path], ev), [1, "", [
    'mind-hooks: unknown event "PreTooluse" in hook_event_name; did you mean "PreToolUse"?',
  ]]);
  const schema = await outcome(["schema", "input", "PreToolUsed"]);
  assertEquals([schema[0], schema[1]], [1, ""]);
  assert(
    schema[2][0].startsWith('mind-hooks: unknown event "PreToolUsed"; did you mean "PreToolUse"? (events: '),
    schema[2][0],
  );
  const file = await writeHooksJson(home.path, { PreTooluse: [group([{ type: "command", command: "true" }])] });
  const list = await runCli(["list", "--json", "--home", home.path]);
  assertEquals(
    list.json().warnings.filter((w: { code: string }) => w.code === "W_UNKNOWN_EVENT"),
    [{
      code: "W_UNKNOWN_EVENT",
      message: 'unknown event "PreTooluse"; its hooks are ignored; did you mean "PreToolUse"?',
      source: file,
      line: 3,
      column: 5,
      path: ["hooks", "PreTooluse"],
    }],
  );
});

Deno.test("exit codes: a command missing what it needs is a usage error with its usage line, nothing on stdout", async () => {
  const cases: [string[], string, string][] = [
    [["schema"], "schema needs a kind: input, output, config or result", "schema input|output|config|result [EVENT]"],
    [["project"], "project needs an action: trust, untrust or status", "project trust|untrust|status [DIR] [options]"],
    [
      ["transcript"],
      "transcript needs an action: append, path or show",
      "transcript append|path|show --session ID ... [options]",
    ],
    [["completions"], "completions needs a shell: bash, zsh or fish", "completions bash|zsh|fish"],
    [
      ["install"],
      "install needs a host: claude, codex, gemini or copilot",
      "install claude|codex|gemini|copilot [--user|--project DIR|--local] [--uninstall] [--dry-run] [--force] [--sync] [options]",
    ],
    [["trust"], "trust needs KEY... or --all", "trust KEY...|--all [--layer LAYER] [options]"],
    [["session-end"], "session-end needs --session ID", "session-end --session ID [options]"],
    [
      ["transcript", "show"],
      "--session ID is required",
      "transcript append|path|show --session ID ... [options]",
    ],
  ];
  const got = await Promise.all(cases.map(([args]) => outcome(args)));
  assertEquals(got, cases.map(([, msg, usage]) => [1, "", [`mind-hooks: ${msg}`, `usage: mind-hooks ${usage}`]]));
});

Deno.test("exit codes: bare mind-hooks is a usage error (help on stderr); --help and help COMMAND exit 0 on stdout", async () => {
  const bare = await runCli([]);
  assertEquals([bare.code, bare.stdout], [1, ""]);
  const help = await runCli(["--help"]);
  assertEquals([help.code, help.stderr], [0, ""]);
  assertEquals(bare.stderr, help.stdout, "the same text, on stderr");
  assert(help.stdout.includes("Exit codes:\n  0 "), help.stdout);
  const list = await runCli(["help", "list"]);
  assertEquals([list.code, list.stdout, list.stderr], [0, (await runCli(["list", "--help"])).stdout, ""]);
  assertEquals(await outcome(["help", "lsit"]), [1, "", [
    'mind-hooks: unknown command "lsit"; did you mean "list"? (see mind-hooks --help)',
  ]]);
});

Deno.test("--help: every command's text stands alone and names every option it takes", async () => {
  const names = [...COMMANDS].filter(([, c]) => !c.internal).map(([n]) => n);
  const results = await Promise.all(names.map((n) => runCli([n, "--help"])));
  const problems: string[] = [];
  results.forEach((r, i) => {
    const name = names[i];
    const entry = COMMANDS.get(name)!;
    if (r.code !== 0 || r.stderr !== "") problems.push(`${name}: exit ${r.code}, stderr ${r.stderr}`);
    if (!r.stdout.startsWith(`Usage: mind-hooks ${name}`)) problems.push(`${name}: no usage line first`);
    // A person with the binary has neither the SPEC nor the README.
    if (/SPEC|§|README/.test(r.stdout)) problems.push(`${name}: refers to a document`);
    const options = new Set([
      ...Object.keys(entry.options),
      ...Object.values(entry.actionOptions ?? {}).flatMap((o) => Object.keys(o)),
    ]);
    for (const o of options) if (!r.stdout.includes(`--${o}`)) problems.push(`${name}: --${o} not described`);
  });
  assertEquals(problems, []);
});

Deno.test("--cwd: a folder that does not exist, or a file, is a clear usage error, never a silent empty list", async () => {
  await using home = await makeHome();
  await using project = await makeProject();
  const file = `${project.mindDir}/hooks.json`;
  await Deno.writeTextFile(file, "{}");
  const missing = `${project.path}/nonexistent`;
  const cases: [string[], string][] = [
    [["list", "--home", home.path, "--cwd", missing], `mind-hooks: --cwd ${missing}: no such directory`],
    [["review", "--home", home.path, "--cwd", missing], `mind-hooks: --cwd ${missing}: no such directory`],
    [["trust", "--all", "--home", home.path, "--cwd", file], `mind-hooks: --cwd ${file}: not a directory`],
  ];
  const got = await Promise.all(cases.map(([args]) => outcome(args)));
  const ev = JSON.stringify(event("Stop"));
  got.push(await outcome(["dispatch", "--home", home.path, "--cwd", missing], ev));
  assertEquals(got, [...cases.map(([, line]) => [1, "", [line]]), [1, "", [
    `mind-hooks: --cwd ${missing}: no such directory`,
  ]]]);
});

Deno.test("event fields: every missing or mistyped field is named in one error, typos with what was given", async () => {
  await using home = await makeHome();
  const ev = event("PreToolUse", {
    tool_name: undefined,
    tool_use_id: undefined,
    turn_id: undefined,
    tool_nmae: "exec_command",
    cwd: 3,
    permission_mode: "sometimes",
  });
  const [code, stdout, stderr] = await outcome(["dispatch", "--home", home.path], JSON.stringify(ev));
  assertEquals([code, stdout, stderr], [1, "", [
    "mind-hooks: invalid PreToolUse event: turn_id: is required; " +
    'tool_name: is required ("tool_nmae" was given); tool_use_id: is required; cwd: expected string, got integer 3; ' +
    'permission_mode: expected one of "default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", got string "sometimes"',
  ]]);
});

Deno.test("parser errors are sentences, not the parsers' codes", async () => {
  await using home = await makeHome();
  const files: [string, string][] = [
    ["quotes.json", `{\n  "hooks": {\n    'Stop': []\n  }\n}\n`],
    ["commas.json", `{"hooks": {"Stop": [,,]}}`],
    ["name.json", `{"hooks": {3: []}}`],
    ["open.json", `{"hooks": {"Stop": [] `],
    ["table.toml", "[[hooks.Stop]\n"],
  ];
  for (const [name, text] of files) await Deno.writeTextFile(`${home.path}/${name}`, text);
  const r = await runCli(["validate", ...files.map(([n]) => `${home.path}/${n}`)]);
  assertEquals(r.stderr.split("\n").filter((l) => l !== ""), [
    `W_PARSE ${home.path}/quotes.json:3:5: JSON does not parse: unexpected text "'Stop'" (JSON strings take double quotes)`,
    `W_PARSE ${home.path}/commas.json:1:21: JSON does not parse: expected a value`,
    `W_PARSE ${home.path}/name.json:1:12: JSON does not parse: expected a property name in double quotes`,
    `W_PARSE ${home.path}/open.json:1:23: JSON does not parse: expected } to close the object`,
    `W_PARSE ${home.path}/table.toml:1:14: TOML does not parse: expected end of table array declaration`,
  ]);
});

Deno.test("list: the coverage note only when a hook can meet server-side tools", async () => {
  await using home = await makeHome();
  const note = async () => (await runCli(["list", "--home", home.path])).stdout.includes("Note: ");
  const none = await note();
  await writeHooksJson(home.path, { Stop: [group([{ type: "command", command: "true" }])] });
  const stopOnly = await note();
  // A Bash-only hook meets client-executed tools only: the note is not about it.
  await writeHooksJson(home.path, { PreToolUse: [group([{ type: "command", command: "true" }], "Bash")] });
  const bashOnly = await note();
  await writeHooksJson(home.path, { PreToolUse: [group([{ type: "command", command: "true" }], "Bash|WebSearch")] });
  assertEquals([none, stopOnly, bashOnly, await note()], [false, false, false, true]);
});
