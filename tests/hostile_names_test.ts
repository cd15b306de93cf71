/**
 * SPEC §15 (r2): no name a stranger chooses reaches a plain-object lookup. Every name below is a
 * property of `Object.prototype` (or its accessor); each is sent through the real CLI wherever a
 * name is chosen outside the engine: tool names (the model's), option and command names, actions,
 * event names, session ids, MCP server names, JSON-RPC methods and `-c` keys.
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  echoHook,
  event,
  group,
  makeHome,
  runCli,
  shHook,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";

const NAMES = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"] as const;

/** Exit 1 with one `mind-hooks: …` line that is not an internal error. */
function assertUsageError(res: { code: number; stderr: string }, part: string): void {
  assertEquals(res.code, 1, res.stderr);
  const lines = res.stderr.trimEnd().split("\n");
  assertEquals(lines.length, 1, res.stderr);
  assert(lines[0].startsWith("mind-hooks: ") && !lines[0].includes("internal error"), res.stderr);
  assertStringIncludes(lines[0], part);
}

Deno.test("names: tools named after Object.prototype keep their own name and match only exact matchers", async () => {
  await using home = await makeHome();
  const seen = join(home.path, "seen.json");
  await writeHooksJson(home.path, {
    PreToolUse: [
      group([cmd(shHook("capture_stdin.sh", [seen]))], NAMES.join("|")),
      group([cmd("echo never")], "Bash"),
      group([cmd("echo never")], "apply_patch"),
    ],
  });
  await trustAll(home.path);
  for (const name of NAMES) {
    for (const ev of ["PreToolUse", "PermissionRequest", "PostToolUse"] as const) {
      const input = { [name]: "x", cmd: "ls" };
      const r = await dispatch(
        home.path,
        event(ev, { tool_name: name, tool_input: JSON.parse(JSON.stringify(input)) }),
      );
      assertEquals(r.decision, null, name);
      if (ev === "PreToolUse") {
        assertEquals(r.runs.map((x) => x.status), ["completed"], name);
        const got = JSON.parse(await Deno.readTextFile(seen));
        assertEquals([got.tool_name, Object.keys(got.tool_input).sort()], [name, [name, "cmd"].sort()], name);
      }
    }
  }
});

Deno.test("names: options, commands and actions named after Object.prototype are usage errors", async () => {
  for (const name of NAMES) {
    assertUsageError(await runCli(["dispatch", `--${name}`]), `unknown option --${name}`);
    assertUsageError(await runCli(["list", `--${name}=1`]), `unknown option --${name}`);
    assertUsageError(await runCli([name]), `unknown command ${JSON.stringify(name)}`);
    assertUsageError(await runCli(["transcript", name]), `unknown action ${JSON.stringify(name)}`);
    assertUsageError(await runCli(["project", name]), `unknown action ${JSON.stringify(name)}`);
    assertUsageError(await runCli(["schema", "input", name]), `unknown event ${JSON.stringify(name)}`);
    assertUsageError(await runCli(["schema", name]), `unknown kind ${JSON.stringify(name)}`);
  }
});

Deno.test("names: event names, session ids and MCP server names after Object.prototype", async () => {
  await using home = await makeHome();
  await writeConfigToml(home.path, NAMES.map((n) => `[mcp_servers.${n}]\nurl = "http://127.0.0.1:9/mcp"\n`).join(""));
  await writeHooksJson(home.path, {
    ...Object.fromEntries(NAMES.map((n) => [n, [group([cmd("echo x")])]])),
    UserPromptSubmit: [group(NAMES.map((n) => ({ type: "mcp_tool", server: n, tool: n })))],
  });
  await trustAll(home.path);
  for (const name of NAMES) {
    const bad = await runCli(["dispatch", "--home", home.path], {
      stdin: JSON.stringify(event("UserPromptSubmit", { hook_event_name: name })),
    });
    assertUsageError(bad, `unknown event ${JSON.stringify(name)}`);
    const r = await dispatch(home.path, event("UserPromptSubmit", { session_id: name }));
    // Each server is configured (a closed port): every hook fails reaching it, none is "not configured".
    assertEquals(r.runs.length, NAMES.length);
    for (const run of r.runs) {
      assertEquals(run.status, "failed");
      assert(!/not configured|internal/.test(run.reason ?? ""), run.reason ?? "");
    }
    const unknown = r.warnings.filter((w) => w.code === "W_UNKNOWN_EVENT").map((w) => w.message);
    assertEquals(unknown, NAMES.map((n) => `unknown event ${JSON.stringify(n)}; its hooks are ignored`));
  }
});

Deno.test("names: -c keys after Object.prototype set keys, never Object.prototype (no borrowed trust)", async () => {
  await using home = await makeHome();
  const path = await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd("echo RAN")])] });
  const key = `user:${path}:UserPromptSubmit:0:0`;
  // The hook has state (enabled) but no trusted_hash: it is untrusted.
  await writeConfigToml(home.path, `[hooks.state."${key}"]\nenabled = true\n`);
  const listed = await runCli(["list", "--json", "--home", home.path]);
  const hash = listed.json().hooks[0].hash;
  for (
    const c of [
      `__proto__.trusted_hash="${hash}"`,
      `hooks.state.__proto__.trusted_hash="${hash}"`,
      `constructor.prototype.trusted_hash="${hash}"`,
      `__proto__.enabled=false`,
      `toString=1`,
    ]
  ) {
    const r = await dispatch(home.path, event("UserPromptSubmit"), ["-c", c]);
    assertEquals(r.runs.map((x) => [x.status, x.reason]), [["skipped", "untrusted"]], c);
  }
});

Deno.test("names: serve answers methods named after Object.prototype with method-not-found", async () => {
  await using home = await makeHome();
  const lines = NAMES.map((n, i) => JSON.stringify({ jsonrpc: "2.0", id: i, method: n, params: {} }));
  const res = await runCli(["serve", "--home", home.path], { stdin: lines.join("\n") + "\n" });
  assertEquals(res.code, 0, res.stderr);
  const codes = res.stdout.trim().split("\n").map((l) => JSON.parse(l).error?.code);
  assertEquals(codes, NAMES.map(() => -32601));
});

Deno.test("names: hook output keys after Object.prototype fail the hook by the schema, never reach a lookup", async () => {
  await using home = await makeHome();
  const outputs = NAMES.flatMap((n) => [
    `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "${n}": {"permissionDecision": "deny"}}}`,
    `{"${n}": {"decision": "block", "reason": "x"}}`,
    `{"hookSpecificOutput": {"hookEventName": "${n}"}}`,
  ]);
  await writeHooksJson(home.path, { PreToolUse: [group(outputs.map((o) => cmd(echoHook(o))))] });
  await trustAll(home.path);
  const r = await dispatch(home.path, event("PreToolUse"));
  assertEquals(r.decision, null);
  for (const run of r.runs) {
    assertEquals(run.status, "failed", JSON.stringify(run));
    assert(/^invalid PreToolUse output: /.test(run.reason ?? ""), run.reason ?? "");
  }
  assertEquals(r.runs.length, outputs.length);
});
