/**
 * `mind-hooks list [--json]` end to end (SPEC §14): the real CLI in temporary
 * homes and projects — grouping by layer and file, what runs, status, enabled,
 * coverage labels, the untrusted-project line, the server-tool note, warnings
 * with line and column at the end, and the JSON shape.
 */
import assert from "node:assert/strict";
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
      assert.equal(r.code, 0, r.stderr);
      const out = r.stdout;
      const cfg = `${w.home}/config.toml`;
      // Header, grouped by layer and file.
      assert.match(out, /^8 hooks: 0 trusted, 8 need review/);
      assert.ok(out.includes(`\nuser  ${cfg}\n`), out);
      // Every hook: key (its tail), event, matcher, what runs, status, enabled, coverage, line.
      assert.ok(out.includes(`  config.toml:PreToolUse:0:0\n`), out);
      assert.ok(
        out.includes(`    PreToolUse  matcher: "Bash"  command: ${markCommand(w, "bash")}\n`),
        out,
      );
      assert.ok(out.includes("    status: untrusted  enabled: yes  coverage: client-full  line: 7\n"), out);
      assert.ok(out.includes('PermissionRequest  matcher: "Bash"  mcp_tool scanner/scan_patch'), out);
      // Coverage labels, per the documented rule.
      const coverageOf = (cmd: string) => {
        const i = out.indexOf(cmd);
        assert.ok(i >= 0, `${cmd} not listed`);
        return /coverage: ([a-z-]+)/.exec(out.slice(i))![1];
      };
      assert.equal(coverageOf("echo any-tool"), "server-approval-only");
      assert.equal(coverageOf("echo regex"), "server-approval-only");
      assert.equal(coverageOf("echo local-mcp"), "client-full");
      assert.equal(coverageOf("echo remote-mcp"), "server-approval-only");
      assert.equal(coverageOf("echo hosted"), "server-approval-only");
      assert.equal(coverageOf("mcp_tool scanner/scan_patch"), "approval-events");
      assert.equal(coverageOf("echo stop"), "client-only");
      // The untrusted project is named with what it holds and the command that loads it; its hooks are not listed.
      assert.ok(
        out.includes(
          `project ${w.repo}: NOT trusted — 1 hook not loaded: .mind/ 1 hook (.mind/hooks.json)\n` +
            `  to load them (each still needs your trust to run): mind-hooks project trust ${w.repo}\n`,
        ),
        out,
      );
      assert.ok(!out.includes("project-start"));
      // The server-tool note.
      assert.match(out, /does not mean a same-named server-side tool is fully controlled/);
      // Warnings at the end, with file, line and column.
      const warnings = out.slice(out.indexOf("\nWarnings ("));
      assert.ok(warnings.length > 1 && out.trimEnd().endsWith(warnings.trimEnd()));
      assert.match(
        warnings,
        new RegExp(`W_UNKNOWN_FIELD ${cfg}:34:60: Stop\\[0\\]\\.hooks\\[0\\]: unknown field "colour"`),
      );
      assert.match(warnings, /W_PROJECT_UNTRUSTED /);
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
      assert.deepEqual(data.project, {
        layers: [{ files: [`${w.repo}/.mind/hooks.json`], folder: ".mind", hooks: 1, layer: "project" }],
        root: w.repo,
        trusted: false,
        trustLevel: null,
        trustCommand: `mind-hooks project trust ${w.repo}`,
      });
      assert.equal(data.hooks.length, 8);
      const first = data.hooks[0];
      assert.deepEqual(Object.keys(first), [
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
        "statusMessage",
        "timeout",
        "async",
        "additionalContextLimit",
        "dialect",
        "if",
        "failClosed",
        "plugin",
        // (r3) the key of the hook this one is an identical Claude copy of, or null
        "duplicateOf",
      ]);
      const key = `user:${w.home}/config.toml:PreToolUse:0:0`;
      assert.equal(first.key, key);
      assert.equal(first.source, `${w.home}/config.toml`);
      assert.equal(first.line, 7);
      assert.equal(first.command, markCommand(w, "bash"));
      assert.equal(first.status, "untrusted");
      assert.equal(first.enabled, true);
      assert.equal(first.coverage, "client-full");
      assert.match(first.hash as string, /^sha256:[0-9a-f]{64}$/);
      assert.equal(first.trustedHash, null);
      assert.equal(first.statusMessage, "checking");
      assert.equal(first.timeout, 600);
      assert.equal(first.async, false);
      assert.deepEqual([first.dialect, first.if, first.failClosed], ["mind", null, false]);
      const mcp = data.hooks.find((h) => h.type === "mcp_tool")!;
      assert.equal(mcp.server, "scanner");
      assert.equal(mcp.tool, "scan_patch");
      assert.deepEqual(mcp.input, { cmd: "${tool_input.command}" });
      assert.equal(mcp.coverage, "approval-events");
      assert.ok(!("command" in mcp));
      const stop = data.hooks.find((h) => h.event === "Stop")!;
      assert.equal(stop.async, true);
      assert.equal(stop.coverage, "client-only");
      assert.ok(data.warnings.some((x) => x.code === "W_UNKNOWN_FIELD" && x.line === 34 && x.column === 60));

      // Trust one, disable another: the list reads the stored state back.
      assert.equal((await cli(["trust", key, ...w.opts], { cwd: w.repo })).code, 0);
      assert.equal((await cli(["disable", stop.key as string, ...w.opts], { cwd: w.repo })).code, 0);
      data = await listJson(w);
      const trusted = data.hooks.find((h) => h.key === key)!;
      assert.equal(trusted.status, "trusted");
      assert.equal(trusted.trustedHash, first.hash);
      assert.equal(data.hooks.find((h) => h.key === stop.key)!.enabled, false);

      // Editing the trusted hook makes it modified, with both hashes shown.
      const cfg = await Deno.readTextFile(`${w.home}/config.toml`);
      await Deno.writeTextFile(`${w.home}/config.toml`, cfg.replace(`statusMessage = "checking"`, "timeout = 5"));
      data = await listJson(w);
      const modified = data.hooks.find((h) => h.key === key)!;
      assert.equal(modified.status, "modified");
      assert.equal(modified.trustedHash, first.hash);
      assert.notEqual(modified.hash, first.hash);

      // Trusting the project loads its hooks (untrusted, project layer, with their JSONC line).
      assert.equal((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
      data = await listJson(w);
      assert.equal(data.project!.trusted, true);
      assert.equal(data.project!.trustCommand, null);
      const proj = data.hooks.find((h) => h.layer === "project")!;
      assert.equal(proj.key, `project:${w.repo}/.mind/hooks.json:SessionStart:0:0`);
      assert.equal(proj.status, "untrusted");
      assert.equal(proj.line, 4);
      assert.equal(proj.coverage, "client-only");
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
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^1 hook: 1 managed, 0 trusted, 0 need review/);
      assert.ok(r.stdout.includes(`\nmanaged  ${req}\n`), r.stdout);
      assert.ok(r.stdout.includes("status: managed  enabled: yes  coverage: server-approval-only  line: 4"), r.stdout);
      assert.ok(r.stdout.includes("hooks are turned off ([features] hooks = false)"));
      assert.ok(r.stdout.includes("only managed hooks are loaded"));
      assert.ok(!r.stdout.includes("echo user"));
      assert.match(r.stdout, /W_MANAGED_ONLY /);
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
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes("\x1b"), "raw ESC reached stdout");
    assert.ok(r.stdout.includes("command: rm -rf ~ \\x1b[2K\\x1b[1Aecho harmless"), r.stdout);
  } finally {
    await w.cleanup();
  }
});

Deno.test("list: no hooks, and usage errors are one line with exit 1", { ignore: WINDOWS }, async () => {
  const w = await makeWorld();
  try {
    await Deno.remove(`${w.repo}/.mind`);
    const empty = await cli(["list", ...w.opts], { cwd: w.repo });
    assert.equal(empty.code, 0);
    assert.match(empty.stdout, /^0 hooks: 0 trusted, 0 need review\n/);
    assert.ok(empty.stdout.includes("no hooks configured"));
    assert.ok(!empty.stdout.includes("project "));
    const json = JSON.parse((await cli(["list", "--json", ...w.opts], { cwd: w.repo })).stdout);
    assert.deepEqual(json.hooks, []);
    assert.equal(json.project, null);

    const extra = await cli(["list", "extra", ...w.opts]);
    assert.equal(extra.code, 1);
    assert.equal(extra.stderr, 'mind-hooks: list takes no arguments (got "extra")\n');
    const unknown = await cli(["list", "--jsno"]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, "mind-hooks: unknown option --jsno; did you mean --json?\n");
  } finally {
    await w.cleanup();
  }
});
