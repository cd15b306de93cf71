/**
 * SPEC §15 (r2): a `timeout` of any size works. `setTimeout` holds a signed 32-bit delay, so
 * `timeout = 2200000` (seconds: 2.2e9 ms > 2^31 − 1) used to fire at once and kill the hook the
 * moment it started. Each runner is driven end to end: command, async command, mcp_tool (with a
 * huge server `tool_timeout_sec` too); the timer itself is unit-tested in src/util/timer_test.ts.
 */
import { assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  echoHook,
  event,
  group,
  makeHome,
  sessionId,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { startHttpServer } from "./helpers/mcp_server.ts";
import { waitFor } from "../fixtures/async/harness.ts";
import { join } from "node:path";

const HUGE = 2_200_000;

Deno.test("timeouts: a command hook with timeout = 2200000 runs to completion", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    UserPromptSubmit: [group([
      cmd(echoHook("slow but fine", { sleep: 0.3 }), { timeout: HUGE }),
      cmd(echoHook("huger still"), { timeout: 1e300 }),
    ])],
  });
  // TOML integers past 2^53 are numbers too (smol-toml alone refuses the whole file). In a profile:
  // the state writer edits the user config.toml and keeps refusing such a file there.
  await writeConfigToml(
    join(home.path, "profiles", "p"),
    `[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = "echo toml"\ntimeout = 99999999999999999999\n`,
  );
  await trustAll(home.path, undefined, ["--profile", "p"]);
  const r = await dispatch(home.path, event("UserPromptSubmit"), ["--profile", "p"]);
  assertEquals(r.runs.map((x) => [x.status, x.reason]), [["completed", null], ["completed", null], [
    "completed",
    null,
  ]]);
  assertEquals(r.additionalContext, ["slow but fine", "huger still", "toml"]);
});

Deno.test("timeouts: an async hook with timeout = 2200000 delivers its result", async () => {
  await using home = await makeHome();
  await writeHooksJson(home.path, {
    PostToolUse: [
      group([cmd(echoHook({ systemMessage: "async done" }, { sleep: 0.2 }), { async: true, timeout: HUGE })]),
    ],
  });
  await trustAll(home.path);
  const sid = sessionId("huge-async");
  const first = await dispatch(home.path, event("PostToolUse", { session_id: sid }));
  assertEquals(first.runs.map((x) => x.status), ["started"]);
  const results = await waitFor("the async result", 15_000, async () => {
    const r = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid }));
    return r.asyncResults.length > 0 ? r.asyncResults : undefined;
  });
  assertEquals(results.map((a) => [a.status, a.systemMessage]), [["completed", "async done"]]);
});

Deno.test("timeouts: an mcp_tool hook with timeout = 2200000 and a huge tool_timeout_sec is called", async () => {
  const server = await startHttpServer();
  try {
    await using home = await makeHome();
    await writeConfigToml(home.path, `[mcp_servers.s]\nurl = "${server.url}"\ntool_timeout_sec = 1e12\n`);
    await writeHooksJson(home.path, {
      UserPromptSubmit: [
        group([{ type: "mcp_tool", server: "s", tool: "structured", input: { p: 1 }, timeout: HUGE }]),
      ],
    });
    await trustAll(home.path);
    const r = await dispatch(home.path, event("UserPromptSubmit"));
    assertEquals(r.runs.map((x) => [x.status, x.reason]), [["completed", null]]);
    assertEquals(r.additionalContext, ['structured:{"p":1}']);
  } finally {
    await server.stop();
  }
});

Deno.test("timeouts: non-finite and unrepresentable timeouts are field warnings, never a crash", async () => {
  await using home = await makeHome();
  await Deno.writeTextFile(
    `${home.path}/hooks.json`,
    `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo a", "timeout": 1e400},
      {"type": "command", "command": "echo b", "timeout": -5}, {"type": "command", "command": "echo c", "timeout": 0.5}]}]}}`,
  );
  const r = await dispatch(home.path, event("UserPromptSubmit"));
  const bad = r.warnings.filter((w) => w.code === "W_BAD_FIELD").map((w) => w.message.replace(/^.*: /, ""));
  assertEquals(bad, [
    "timeout must be an integer ≥ 1; handler skipped",
    "timeout must be an integer ≥ 1; handler skipped",
    "timeout must be an integer ≥ 1; handler skipped",
  ]);
});
