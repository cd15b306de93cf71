/**
 * `mind-hooks list [--json]` end to end (SPEC §14): the real CLI in temporary
 * homes and projects — grouping by layer and file, what runs, status, enabled,
 * coverage labels, the untrusted-project line, the server-tool note, warnings
 * with line and column at the end, and the JSON shape.
 */
import { assert, assertEquals, assertMatch, assertNotEquals } from "./helpers/assert.ts";
import { cli, listJson, makeWorld, markCommand, type World } from "../fixtures/review/harness.ts";

/** These tests build POSIX paths and run `sh` hooks; on Windows they are skipped (and say so). */
const WINDOWS = Deno.build.os === "windows";
if (WINDOWS) console.log("list_test: skipped on Windows (POSIX paths and sh hook fixtures)");

const USER_TOML = (w: World) =>
  `# the user's own config
[mcp_servers.fs]
command = "fs-server"

[[hooks.PreToolUse]]
matcher = "Bash"
hooks = [{ type = "command", command = "${markCommand(w, "bash")}", statusMessage = "checking" }]

[[hooks.PreToolUse]]
hooks = [{ type = "command", command = "echo any-tool" }]

[[hooks.PostToolUse]]
matcher = "mcp__.*"
hooks = [{ type = "command", command = "echo regex" }]

[[hooks.PreToolUse]]
matcher = "mcp__fs__read|Edit"
hooks = [{ type = "command", command = "echo local-mcp" }]

[[hooks.PreToolUse]]
matcher = "mcp__remote__search"
hooks = [{ type = "command", command = "echo remote-mcp" }]

[[hooks.PreToolUse]]
matcher = "web_search"
hooks = [{ type = "command", command = "echo hosted" }]

[[hooks.PermissionRequest]]
matcher = "Bash"
hooks = [{ type = "mcp_tool", server = "scanner", tool = "scan_patch", input = { cmd = "\${tool_input.command}" } }]

[[hooks.Stop]]
hooks = [
  { type = "command", command = "echo stop", async = true, colour = "blue" },
]
`;

async function world(): Promise<World> {
  const w = await makeWorld();
  await Deno.writeTextFile(`${w.home}/config.toml`, USER_TOML(w));
  await Deno.writeTextFile(
    `${w.repo}/.mind/hooks.json`,
    `{
  // the project's hooks
  "hooks": {
    "SessionStart": [{ "hooks": [{ "type": "command", "command": "echo project-start" }] }],
  },
}
`,
  );
  return w;
}

Deno.test(
  "list: text groups hooks by layer and file with what runs, status, enabled and coverage",
  { ignore: WINDOWS },
  async () => {
    const w = await world();
    try {
      const r = await cli(["list", ...w.opts], { cwd: w.repo });
      assertEquals(r.code, 0, r.stderr);
      const out = r.stdout;
      const cfg = `${w.home}/config.toml`;
      // Header, grouped by layer and file.
      assertMatch(out, /^8 hooks: 0 trusted, 8 need review/);
      assert(out.includes(`\nuser  ${cfg}\n`), out);
      // Every hook: key (its tail), event, matcher, what runs, status, enabled, coverage, line.
      assert(out.includes(`  config.toml:PreToolUse:0:0\n`), out);
      assert(
        out.includes(`    PreToolUse  matcher: "Bash"  command: ${markCommand(w, "bash")}\n`),
        out,
      );
      assert(out.includes("    status: untrusted  enabled: yes  coverage: client-full  line: 7\n"), out);
      assert(out.includes('PermissionRequest  matcher: "Bash"  mcp_tool scanner/scan_patch'), out);
      // Coverage labels, per the documented rule.
      const coverageOf = (cmd: string) => {
        const i = out.indexOf(cmd);
        assert(i >= 0, `${cmd} not listed`);
        return /coverage: ([a-z-]+)/.exec(out.slice(i))![1];
      };
      assertEquals(coverageOf("echo any-tool"), "server-approval-only");
      assertEquals(coverageOf("echo regex"), "server-approval-only");
      assertEquals(coverageOf("echo local-mcp"), "client-full");
      assertEquals(coverageOf("echo remote-mcp"), "server-approval-only");
      assertEquals(coverageOf("echo hosted"), "server-approval-only");
      assertEquals(coverageOf("mcp_tool scanner/scan_patch"), "approval-events");
      assertEquals(coverageOf("echo stop"), "client-only");
      // The untrusted project is named with what it holds and the command that loads it; its hooks are not listed.
      assert(
        out.includes(
          `project ${w.repo}: NOT trusted — 1 hook not loaded: .mind/ 1 hook (.mind/hooks.json)\n` +
            `  to load them (each still needs your trust to run): mind-hooks project trust ${w.repo}\n`,
        ),
        out,
      );
      assert(!out.includes("project-start"));
      // The server-tool note.
      assertMatch(out, /does not mean a same-named server-side tool is fully controlled/);
      // Warnings at the end, with file, line and column.
      const warnings = out.slice(out.indexOf("\nWarnings ("));
      assert(warnings.length > 1 && out.trimEnd().endsWith(warnings.trimEnd()));
      assertMatch(
        warnings,
        new RegExp(`W_UNKNOWN_FIELD ${cfg}:34:60: Stop\\[0\\]\\.hooks\\[0\\]: unknown field "colour"`),
      );
      assertMatch(warnings, /W_PROJECT_UNTRUSTED /);
    } finally {
      await w.cleanup();
    }
  },
);

Deno.test(
  "list --json: the same as data, and it follows trust, disable, edits and the project",
  { ignore: WINDOWS },
  async () => {
    const w = await world();
    try {
      let data = await listJson(w);
      assertEquals<unknown>(data.project, {
        layers: [{ files: [`${w.repo}/.mind/hooks.json`], folder: ".mind", hooks: 1, layer: "project" }],
        root: w.repo,
        trusted: false,
        trustLevel: null,
        trustCommand: `mind-hooks project trust ${w.repo}`,
      });
      assertEquals(data.hooks.length, 8);
      const first = data.hooks[0];
      assertEquals(Object.keys(first), [
        "key",
        "layer",
        "source",
        "line",
        "event",
        "matcher",
        "type",
        "name",
        "command",
        "commandWindows",
        "status",
        "enabled",
        "coverage",
        "modifiedReason",
        "hash",
        "trustedHash",
        "pinnedFiles",
        "pinError",
        "unpinnable",
        "fetch",
        "hostRuns",
        "statusMessage",
        "timeout",
        "async",
        "additionalContextLimit",
        "dialect",
        "if",
        // (r4) Claude Code's once
        "once",
        "failClosed",
        "plugin",
        // (r3) the key of the hook this one is an identical Claude copy of, or null
        "duplicateOf",
      ]);
      const key = `user:${w.home}/config.toml:PreToolUse:0:0`;
      assertEquals(first.key, key);
      assertEquals(first.source, `${w.home}/config.toml`);
      assertEquals(first.line, 7);
      assertEquals(first.command, markCommand(w, "bash"));
      assertEquals(first.status, "untrusted");
      assertEquals(first.enabled, true);
      assertEquals(first.coverage, "client-full");
      assertMatch(first.hash as string, /^sha256:[0-9a-f]{64}$/);
      assertEquals(first.trustedHash, null);
      assertEquals(first.statusMessage, "checking");
      assertEquals(first.timeout, 600);
      assertEquals(first.async, false);
      assertEquals([first.dialect, first.if, first.failClosed], ["mind", null, false]);
      const mcp = data.hooks.find((h) => h.type === "mcp_tool")!;
      assertEquals(mcp.server, "scanner");
      assertEquals(mcp.tool, "scan_patch");
      assertEquals(mcp.input, { cmd: "${tool_input.command}" });
      assertEquals(mcp.coverage, "approval-events");
      assert(!("command" in mcp));
      const stop = data.hooks.find((h) => h.event === "Stop")!;
      assertEquals(stop.async, true);
      assertEquals(stop.coverage, "client-only");
      assert(data.warnings.some((x) => x.code === "W_UNKNOWN_FIELD" && x.line === 34 && x.column === 60));

      // Trust one, disable another: the list reads the stored state back.
      assertEquals((await cli(["trust", key, ...w.opts], { cwd: w.repo })).code, 0);
      assertEquals((await cli(["disable", stop.key as string, ...w.opts], { cwd: w.repo })).code, 0);
      data = await listJson(w);
      const trusted = data.hooks.find((h) => h.key === key)!;
      assertEquals(trusted.status, "trusted");
      assertEquals(trusted.trustedHash, first.hash);
      assertEquals(data.hooks.find((h) => h.key === stop.key)!.enabled, false);

      // Editing the trusted hook makes it modified, with both hashes shown.
      const cfg = await Deno.readTextFile(`${w.home}/config.toml`);
      await Deno.writeTextFile(`${w.home}/config.toml`, cfg.replace(`statusMessage = "checking"`, "timeout = 5"));
      data = await listJson(w);
      const modified = data.hooks.find((h) => h.key === key)!;
      assertEquals(modified.status, "modified");
      assertEquals(modified.trustedHash, first.hash);
      assertNotEquals(modified.hash, first.hash);

      // Trusting the project loads its hooks (untrusted, project layer, with their JSONC line).
      assertEquals((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
      data = await listJson(w);
      assertEquals(data.project!.trusted, true);
      assertEquals(data.project!.trustCommand, null);
      const proj = data.hooks.find((h) => h.layer === "project")!;
      assertEquals(proj.key, `project:${w.repo}/.mind/hooks.json:SessionStart:0:0`);
      assertEquals(proj.status, "untrusted");
      assertEquals(proj.line, 4);
      assertEquals(proj.coverage, "client-only");
    } finally {
      await w.cleanup();
    }
  },
);

Deno.test(
  "list: managed hooks show as managed; hooks turned off and managed-only are said",
  { ignore: WINDOWS },
  async () => {
    const w = await makeWorld();
    try {
      const req = `${w.root}/requirements.toml`;
      await Deno.writeTextFile(
        req,
        `allow_managed_hooks_only = true\n[[hooks.PreToolUse]]\nmatcher = "^Bash$"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "policy.sh"\n`,
      );
      await Deno.writeTextFile(
        `${w.home}/config.toml`,
        `[features]\nhooks = false\n[[hooks.Stop]]\nhooks = [{ type = "command", command = "echo user" }]\n`,
      );
      const r = await cli(["list", "--home", w.home, "--requirements", req], { cwd: w.root });
      assertEquals(r.code, 0, r.stderr);
      assertMatch(r.stdout, /^1 hook: 1 managed, 0 trusted, 0 need review/);
      assert(r.stdout.includes(`\nmanaged  ${req}\n`), r.stdout);
      assert(r.stdout.includes("status: managed  enabled: yes  coverage: server-approval-only  line: 4"), r.stdout);
      assert(r.stdout.includes("hooks are turned off ([features] hooks = false)"));
      assert(r.stdout.includes("only managed hooks are loaded"));
      assert(!r.stdout.includes("echo user"));
      assertMatch(r.stdout, /W_MANAGED_ONLY /);
    } finally {
      await w.cleanup();
    }
  },
);

Deno.test("list: a command holding escape sequences is printed visibly, never sent to the terminal", {
  ignore: WINDOWS,
}, async () => {
  const w = await makeWorld();
  try {
    await Deno.writeTextFile(
      `${w.home}/config.toml`,
      `[[hooks.Stop]]\nhooks = [{ type = "command", command = "rm -rf ~ \\u001b[2K\\u001b[1Aecho harmless" }]\n`,
    );
    const r = await cli(["list", ...w.opts], { cwd: w.root });
    assertEquals(r.code, 0, r.stderr);
    assert(!r.stdout.includes("\x1b"), "raw ESC reached stdout");
    assert(r.stdout.includes("command: rm -rf ~ \\x1b[2K\\x1b[1Aecho harmless"), r.stdout);
  } finally {
    await w.cleanup();
  }
});

Deno.test("list: no hooks, and usage errors are one line with exit 1", { ignore: WINDOWS }, async () => {
  const w = await makeWorld();
  try {
    await Deno.remove(`${w.repo}/.mind`);
    const empty = await cli(["list", ...w.opts], { cwd: w.repo });
    assertEquals(empty.code, 0);
    assertMatch(empty.stdout, /^0 hooks: 0 trusted, 0 need review\n/);
    assert(empty.stdout.includes("no hooks configured"));
    assert(!empty.stdout.includes("project "));
    const json = JSON.parse((await cli(["list", "--json", ...w.opts], { cwd: w.repo })).stdout);
    assertEquals(json.hooks, []);
    assertEquals(json.project, null);

    const extra = await cli(["list", "extra", ...w.opts]);
    assertEquals(extra.code, 1);
    assertEquals(extra.stderr, 'mind-hooks: list takes no arguments (got "extra")\n');
    const unknown = await cli(["list", "--jsno"]);
    assertEquals(unknown.code, 1);
    assertEquals(unknown.stderr, "mind-hooks: unknown option --jsno; did you mean --json?\n");
  } finally {
    await w.cleanup();
  }
});
