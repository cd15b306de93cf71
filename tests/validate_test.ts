/**
 * `mind-hooks validate [FILE...]` end to end (SPEC §1, §2.2): every warning on
 * stderr with file, line and column, a one-line summary on stdout, exit 1 only
 * when a file has an error, and — without FILE — every file the catalog would
 * read, including an untrusted project's (read, never run).
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { cli, makeWorld, markCommand, ran } from "../fixtures/review/harness.ts";

/** These tests build POSIX paths and run `sh` hooks; on Windows they are skipped (and say so). */
const WINDOWS = Deno.build.os === "windows";
if (WINDOWS) console.log("validate_test: skipped on Windows (POSIX paths and sh hook fixtures)");

Deno.test(
  "validate FILE: clean TOML and JSONC files pass with exit 0 and nothing on stderr",
  { ignore: WINDOWS },
  async () => {
    const w = await makeWorld();
    try {
      const toml = `${w.root}/config.toml`;
      const json = `${w.root}/hooks.json`;
      await Deno.writeTextFile(
        toml,
        `[hooks]\nstop_block_cap = 4\n[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "true"\n[hooks.state."user:/x:Stop:0:0"]\nenabled = false\n`,
      );
      await Deno.writeTextFile(
        json,
        `{\n  // comments and trailing commas are fine\n  "description": "d",\n  "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "true", }, ], }, ], },\n}\n`,
      );
      const r = await cli(["validate", toml, json]);
      assertEquals(r.stderr, "");
      assertEquals(r.stdout, "2 files checked: 0 errors, 0 warnings — ok\n");
      assertEquals(r.code, 0);
    } finally {
      await w.cleanup();
    }
  },
);

Deno.test("validate FILE: warnings only → exit 0, each with file, line and column", { ignore: WINDOWS }, async () => {
  const w = await makeWorld();
  try {
    const json = `${w.root}/hooks.json`;
    await Deno.writeTextFile(
      json,
      `{
  "hooks": {
    "Stop": [
      {
        "matcher": "ignored",
        "hooks": [{ "type": "command", "command": "true", "colour": "red" }]
      }
    ],
    "SessionEnd": [{ "hooks": [{ "type": "command", "command": "true", "timeout": 30 }] }]
  },
  "extra": 1
}
`,
    );
    const r = await cli(["validate", json]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, "1 file checked: 0 errors, 4 warnings — ok\n");
    const lines = r.stderr.trimEnd().split("\n");
    assertEquals(lines, [
      `W_UNKNOWN_FIELD ${json}:11:3: unknown root field "extra" ignored (hooks.json accepts description and hooks)`,
      `W_MATCHER_IGNORED ${json}:5:9: Stop[0]: Stop ignores matchers; "ignored" dropped`,
      `W_UNKNOWN_FIELD ${json}:6:59: Stop[0].hooks[0]: unknown field "colour" ignored`,
      `W_TIMEOUT_CLAMPED ${json}:9:72: SessionEnd[0].hooks[0]: SessionEnd timeout 30s clamped to 3s`,
    ]);
  } finally {
    await w.cleanup();
  }
});

Deno.test("validate FILE: errors → exit 1: bad matcher, empty command, unsupported type, bad field", {
  ignore: WINDOWS,
}, async () => {
  const w = await makeWorld();
  try {
    const toml = `${w.root}/config.toml`;
    await Deno.writeTextFile(
      toml,
      `[[hooks.PreToolUse]]
matcher = "(unclosed"
hooks = [{ type = "command", command = "true" }]

[[hooks.PostToolUse]]
hooks = [
  { type = "command", command = "" },
  { type = "agent", prompt = "judge this" },
  { type = "command", command = "true", timeout = "soon" },
  { type = "command", command = "fine" },
]
`,
    );
    const r = await cli(["validate", toml]);
    assertEquals(r.code, 1);
    assertEquals(r.stdout, "1 file checked: 4 errors, 0 warnings\n");
    const lines = r.stderr.trimEnd().split("\n");
    assertEquals(lines.length, 4, r.stderr);
    assertMatch(lines[0], new RegExp(`^W_BAD_MATCHER ${toml}:2:1: PreToolUse\\[0\\]: invalid matcher "\\(unclosed"`));
    assertEquals(
      lines[1],
      `W_EMPTY_COMMAND ${toml}:7:23: PostToolUse[0].hooks[0]: empty or missing command; handler skipped`,
    );
    assertEquals(
      lines[2],
      `W_UNSUPPORTED_HANDLER ${toml}:8:3: PostToolUse[0].hooks[1]: handler type "agent" is not supported; skipped`,
    );
    assertEquals(
      lines[3],
      `W_BAD_FIELD ${toml}:9:41: PostToolUse[0].hooks[2]: timeout must be an integer ≥ 1; handler skipped`,
    );
  } finally {
    await w.cleanup();
  }
});

Deno.test("validate FILE: unparseable TOML and JSONC name line and column; a missing file is an error", {
  ignore: WINDOWS,
}, async () => {
  const w = await makeWorld();
  try {
    const toml = `${w.root}/broken.toml`;
    const json = `${w.root}/broken.json`;
    await Deno.writeTextFile(toml, `[hooks]\nstop_block_cap = 3\nthis is not toml\n`);
    await Deno.writeTextFile(json, `{\n  "hooks": {\n    "Stop": [ }\n}\n`);
    const r = await cli(["validate", toml, json, `${w.root}/missing.json`]);
    assertEquals(r.code, 1);
    assertEquals(r.stdout, "3 files checked: 3 errors, 0 warnings\n");
    const lines = r.stderr.trimEnd().split("\n");
    assertMatch(lines[0], new RegExp(`^W_PARSE ${toml}:3:\\d+: TOML does not parse`));
    assertMatch(lines[1], new RegExp(`^W_PARSE ${json}:3:\\d+: JSON does not parse: `));
    assertEquals(lines[2], `W_UNREADABLE ${w.root}/missing.json: file not found`);
  } finally {
    await w.cleanup();
  }
});

Deno.test(
  "validate: without FILE checks every layer, the untrusted project too, and runs nothing",
  { ignore: WINDOWS },
  async () => {
    const w = await makeWorld();
    try {
      await Deno.writeTextFile(
        `${w.home}/config.toml`,
        `profile = "work"\n[[hooks.Stop]]\nhooks = [{ type = "command", command = "true", extra = 1 }]\n`,
      );
      await Deno.mkdir(`${w.home}/profiles/work`, { recursive: true });
      await Deno.writeTextFile(
        `${w.home}/profiles/work/hooks.json`,
        `{"hooks": {"Stop": [{"hooks": [{"type": "agent"}]}]}}`,
      );
      // The untrusted project: its hooks.json has an error, its config.toml claims state it may not hold.
      await Deno.writeTextFile(
        `${w.repo}/.mind/hooks.json`,
        `{\n  "hooks": {\n    "PreToolUse": [{ "matcher": 3, "hooks": [{ "type": "command", "command": "${
          markCommand(w, "project")
        }" }] }],\n    "Bogus": []\n  }\n}\n`,
      );
      await Deno.writeTextFile(
        `${w.repo}/.mind/config.toml`,
        `[hooks.state."project:${w.repo}/.mind/hooks.json:PreToolUse:0:0"]\ntrusted_hash = "sha256:${
          "0".repeat(64)
        }"\n`,
      );
      const r = await cli(["validate", ...w.opts], { cwd: w.repo });
      assertEquals(r.code, 1, r.stderr);
      assertEquals(r.stdout, "4 files checked: 2 errors, 4 warnings\n", r.stderr);
      const err = r.stderr;
      assert(
        err.includes(`W_UNKNOWN_FIELD ${w.home}/config.toml:3:48: Stop[0].hooks[0]: unknown field "extra" ignored`),
        err,
      );
      assert(
        err.includes(
          `W_UNSUPPORTED_HANDLER ${w.home}/profiles/work/hooks.json:1:32: Stop[0].hooks[0]: handler type "agent"`,
        ),
        err,
      );
      assert(err.includes(`W_PROJECT_UNTRUSTED ${w.repo}/.mind:`), err);
      assert(
        err.includes(`W_BAD_MATCHER ${w.repo}/.mind/hooks.json:3:22: PreToolUse[0]: matcher must be a string`),
        err,
      );
      assert(err.includes(`W_UNKNOWN_EVENT ${w.repo}/.mind/hooks.json:4:5: unknown event "Bogus"`), err);
      assert(
        err.includes(`W_STATE_NOT_AUTHORITATIVE ${w.repo}/.mind/config.toml:1:1: hook state in the project layer`),
        err,
      );
      assertEquals(await ran(w, "project"), false);
    } finally {
      await w.cleanup();
    }
  },
);

Deno.test("validate: without FILE and nothing configured → 0 files, exit 0", { ignore: WINDOWS }, async () => {
  const w = await makeWorld();
  try {
    await Deno.remove(`${w.repo}/.mind`);
    const r = await cli(["validate", ...w.opts], { cwd: w.repo });
    assertEquals(r.code, 0);
    assertEquals(r.stdout, "0 files checked: 0 errors, 0 warnings — ok\n");
    assertEquals(r.stderr, "");
  } finally {
    await w.cleanup();
  }
});

Deno.test("validate: positions follow every way TOML can write hooks (inline arrays, dotted keys, sub-tables)", {
  ignore: WINDOWS,
}, async () => {
  const w = await makeWorld();
  try {
    const toml = `${w.root}/config.toml`;
    await Deno.writeTextFile(
      toml,
      `hooks.SessionStart = [{ hooks = [{ type = "agent" }] }]
hooks.PreToolUse = [
  { matcher = "(", hooks = [{ type = "command", command = "x" }] },
  # a comment with ] and } in it
  { hooks = [
      { type = "command", command = """multi
line""" },
      { type = "command", command = "" },
  ] },
]
[[hooks.Stop]]
[[hooks.Stop.hooks]]
type = "command"
command = "ok"
[[hooks.Stop.hooks]]
type = "command"
"command" = 7
`,
    );
    const r = await cli(["validate", toml]);
    assertEquals(r.code, 1);
    const lines = r.stderr.trimEnd().split("\n");
    assertEquals(lines.map((l) => l.split(": ")[0]), [
      `W_UNSUPPORTED_HANDLER ${toml}:1:34`,
      `W_BAD_MATCHER ${toml}:3:5`,
      `W_EMPTY_COMMAND ${toml}:8:27`,
      `W_BAD_FIELD ${toml}:17:1`,
    ]);
  } finally {
    await w.cleanup();
  }
});
