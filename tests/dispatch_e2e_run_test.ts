/**
 * End-to-end tests of the core engine through the real CLI (issue 2), continued from
 * tests/dispatch_e2e_test.ts: matching (SPEC §4), hook input normalization and environment
 * (§5, §7.1) and the command runner's limits (§7.1). Every case spawns `mind-hooks` exactly as
 * `deno task mind-hooks` does, with real hook scripts from `fixtures/hooks/`.
 */

import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import {
  cmd,
  dispatch,
  type DispatchResult,
  echoHook,
  event,
  group,
  type Json,
  makeHome,
  makeProject,
  pyHook,
  runCli,
  runKeys,
  shHook,
  trustAll,
  writeHooksJson,
} from "./helpers/cli.ts";
import { BYPASS, warningsOf } from "./helpers/dispatch_e2e.ts";

// ---------------------------------------------------------------------------------------------
// §4 Matching
// ---------------------------------------------------------------------------------------------

Deno.test("§4 matchers through dispatch: aliases, exact names, alternatives, regex, match-all, ignored matchers", async () => {
  await using home = await makeHome();
  const hooksPath = join(home.path, "hooks.json");
  const matchers: (string | undefined)[] = [
    "Bash", // 0
    "Edit|Write", // 1
    "mcp__fs__.*", // 2
    "*", // 3
    "", // 4
    undefined, // 5
    "Bash|exec_command|shell_command", // 6: several names match, runs once
    "BashOutput", // 7
    "^apply_patch$", // 8
    "Agent", // 9
  ];
  await writeHooksJson(home.path, {
    PreToolUse: matchers.map((m, i) => group([cmd(i === 6 ? "echo once >> ran6.log" : "true")], m)),
    UserPromptSubmit: [group([cmd("true")], "never-matches-anything")],
    Stop: [group([cmd("true")], "x")],
    SessionStart: [group([cmd("true")], "resume"), group([cmd("true")], "startup|clear")],
  });
  await trustAll(home.path);
  const groupsRun = (r: DispatchResult) =>
    r.runs.map((run) => {
      assertEquals(run.status, "completed", JSON.stringify(run));
      return Number(run.key.split(":").at(-2));
    });

  const cases: [string, Json, number[]][] = [
    ["exec_command", { cmd: "ls" }, [0, 3, 4, 5, 6]],
    ["shell_command", { command: "ls" }, [0, 3, 4, 5, 6]],
    ["write_stdin", { session_id: 1, chars: "y\n" }, [0, 3, 4, 5, 6]],
    ["BashOutput", { bash_id: "1" }, [3, 4, 5, 7]],
    ["apply_patch", { input: "*** Begin Patch\n*** End Patch" }, [1, 3, 4, 5, 8]],
    ["mcp__fs__read_file", { path: "/x" }, [2, 3, 4, 5]],
    ["mcp__fsx__read_file", { path: "/x" }, [3, 4, 5]],
    ["spawn_agent", { prompt: "go" }, [3, 4, 5, 9]],
  ];
  const cwds = await Promise.all(cases.map(async (_, i) => {
    const dir = join(home.path, `cwd${i}`);
    await Deno.mkdir(dir);
    return dir;
  }));
  const results = await Promise.all(
    cases.map(([tool, input], i) =>
      dispatch(home.path, event("PreToolUse", { tool_name: tool, tool_input: input, cwd: cwds[i] }))
    ),
  );
  for (const [i, [tool, , expected]] of cases.entries()) {
    assertEquals(groupsRun(results[i]), expected, tool);
    assert(runKeys(results[i]).every((k) => k.startsWith(`user:${hooksPath}:PreToolUse:`)));
    const log = await Deno.readTextFile(join(cwds[i], "ran6.log")).catch(() => "");
    assertEquals(log, expected.includes(6) ? "once\n" : "", `${tool}: group 6 ran once`);
  }

  const [prompt, stop, startup, resume] = await Promise.all([
    dispatch(home.path, event("UserPromptSubmit")),
    dispatch(home.path, event("Stop")),
    dispatch(home.path, event("SessionStart", { source: "startup" })),
    dispatch(home.path, event("SessionStart", { source: "resume" })),
  ]);
  assertEquals(prompt.runs.map((r) => r.status), ["completed"]);
  assertEquals(stop.runs.map((r) => r.status), ["completed"]);
  const ignored = warningsOf(prompt, "W_MATCHER_IGNORED").map((w) => w.message).join("\n");
  assertMatch(ignored, /UserPromptSubmit/);
  assertMatch(ignored, /Stop/);
  assertEquals(runKeys(startup), [`user:${hooksPath}:SessionStart:1:0`]);
  assertEquals(runKeys(resume), [`user:${hooksPath}:SessionStart:0:0`]);
});

// ---------------------------------------------------------------------------------------------
// §5 / §7.1 What the hook sees
// ---------------------------------------------------------------------------------------------

Deno.test("§5 tool normalization, unknown fields dropped, hook env and cwd; §7.1 updatedInput converted back", async (t) => {
  await using home = await makeHome();
  await using project = await makeProject();
  assertEquals((await runCli(["project", "trust", project.path, "--home", home.path])).code, 0);
  await writeHooksJson(home.path, {
    PreToolUse: [group([cmd(shHook("capture_stdin.sh", ["captured.json"]))])],
  });
  await trustAll(home.path, project.path);
  let n = 0;
  const capture = async (toolName: string, toolInput: Json, extra: Json = {}, args: string[] = [], base?: string) => {
    const dir = join(base ?? join(project.path, "work"), String(n++));
    await Deno.mkdir(dir, { recursive: true });
    const result = await dispatch(
      home.path,
      event("PreToolUse", { cwd: dir, tool_name: toolName, tool_input: toolInput, ...extra }),
      args,
      { env: { E2E_MARKER: "from-the-host" } },
    );
    assertEquals(result.runs.map((r) => r.status), ["completed"], JSON.stringify(result.runs));
    const input = JSON.parse(await Deno.readTextFile(join(dir, "captured.json")));
    const env = Object.fromEntries(
      (await Deno.readTextFile(join(dir, "captured.json.env"))).trim().split("\n").map((l) => {
        const eq = l.indexOf("=");
        return [l.slice(0, eq), l.slice(eq + 1)];
      }),
    );
    return { result, input, env, dir };
  };

  await t.step("exec_command argv → Bash + shell-quoted command; unknown field dropped; env and cwd", async () => {
    const { result, input, env, dir } = await capture(
      "exec_command",
      { cmd: ["git", "commit", "-m", "it's done"], workdir: "/w", yield_time_ms: 1000 },
      { extra_field: 1 },
    );
    assertEquals(input.tool_name, "Bash");
    assertEquals(input.tool_input, {
      command: `git commit -m 'it'"'"'s done'`,
      workdir: "/w",
      yield_time_ms: 1000,
    });
    assertEquals(Object.hasOwn(input, "extra_field"), false);
    const unknown = warningsOf(result, "W_UNKNOWN_INPUT_FIELD");
    assertEquals(unknown.length, 1);
    assertMatch(unknown[0].message, /extra_field/);
    assertEquals(env.MIND_HOOK_EVENT, "PreToolUse");
    assertEquals(env.MIND_PROJECT_DIR, project.path);
    assertEquals(env.PWD, dir);
    assertEquals(env.E2E_MARKER, "from-the-host");
  });

  await t.step("--cwd chooses where the project is searched; the hook still runs in the event's cwd", async () => {
    const outside = join(home.path, "outside");
    const [noProject, withCwd] = await Promise.all([
      capture("exec_command", { cmd: "ls" }, {}, [], outside),
      capture("exec_command", { cmd: "ls" }, {}, ["--cwd", project.path], outside),
    ]);
    assertEquals(noProject.env.MIND_PROJECT_DIR, "<unset>");
    assertEquals(noProject.env.PWD, noProject.dir);
    assertEquals(withCwd.env.MIND_PROJECT_DIR, project.path);
    assertEquals(withCwd.env.PWD, withCwd.dir);
  });

  await t.step(
    "exec_command string, shell_command, write_stdin → Bash; apply_patch → command; others unchanged",
    async () => {
      const patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch";
      const [exec, shell, stdin, applyPatch, mcp] = await Promise.all([
        capture("exec_command", { cmd: "ls -la | wc -l" }),
        capture("shell_command", { command: "echo hi", timeout_ms: 5 }),
        capture("write_stdin", { session_id: 7, chars: "y\n" }),
        capture("apply_patch", { input: patch }),
        capture("mcp__fs__read_file", { path: "/etc/hosts", cmd: "not-a-shell" }),
      ]);
      assertEquals([exec.input.tool_name, exec.input.tool_input], ["Bash", { command: "ls -la | wc -l" }]);
      assertEquals([shell.input.tool_name, shell.input.tool_input], ["Bash", {
        command: "echo hi",
        timeout_ms: 5,
      }]);
      assertEquals([stdin.input.tool_name, stdin.input.tool_input], ["Bash", { command: "y\n", session_id: 7 }]);
      assertEquals([applyPatch.input.tool_name, applyPatch.input.tool_input], ["apply_patch", { command: patch }]);
      assertEquals([mcp.input.tool_name, mcp.input.tool_input], [
        "mcp__fs__read_file",
        { path: "/etc/hosts", cmd: "not-a-shell" },
      ]);
      for (const c of [exec, shell, stdin, applyPatch, mcp]) {
        assertEquals(warningsOf(c.result, "W_UNKNOWN_INPUT_FIELD").length, 0);
      }
    },
  );

  await t.step("updatedInput.command is converted back into the tool's own parameter", async () => {
    const rewriter = await writeHooksJson(join(home.path, "rewrite"), {
      PreToolUse: [group([cmd(pyHook("rewrite.py", ["{command} --dry-run"]))])],
    });
    const args = ["--hooks-file", rewriter, BYPASS];
    const [exec, argv, patch, mcp] = await Promise.all([
      dispatch(home.path, event("PreToolUse", { tool_input: { cmd: "make", workdir: "/w" } }), args),
      dispatch(home.path, event("PreToolUse", { tool_input: { cmd: ["make", "all"] } }), args),
      dispatch(home.path, event("PreToolUse", { tool_name: "apply_patch", tool_input: { input: "P" } }), args),
      dispatch(home.path, event("PreToolUse", { tool_name: "mcp__x__y", tool_input: { command: "c", n: 1 } }), args),
    ]);
    for (const r of [exec, argv, patch, mcp]) assertEquals(r.decision, "allow", JSON.stringify(r));
    assertEquals(exec.updatedInput, { cmd: "make --dry-run", workdir: "/w" });
    assertEquals(argv.updatedInput, { cmd: ["bash", "-lc", "make all --dry-run"] });
    assertEquals(patch.updatedInput, { input: "P --dry-run" });
    assertEquals(mcp.updatedInput, { command: "c --dry-run", n: 1 });
  });
});

// ---------------------------------------------------------------------------------------------
// §7.1 The command runner
// ---------------------------------------------------------------------------------------------

Deno.test("§7.1 timeout kills the hook (SIGTERM, then SIGKILL); a grandchild holding stdout cannot stall dispatch", async () => {
  await using home = await makeHome();
  const timeoutPid = join(home.path, "timeout.pid");
  const exitPid = join(home.path, "exit.pid");
  const file = await writeHooksJson(home.path, {
    PreToolUse: [group([
      cmd(shHook("sleep_grandchild.sh", [timeoutPid]), { timeout: 1 }),
      cmd(shHook("sleep_grandchild.sh", [exitPid, "exit"]), { timeout: 30 }),
      // Ignores SIGTERM: the SIGKILL that follows 1 s later still ends it.
      cmd("trap '' TERM; sleep 30", { timeout: 1 }),
    ])],
  }, "runner.json");
  try {
    const r = await dispatch(home.path, event("PreToolUse"), ["--hooks-file", file, BYPASS]);
    const [timedOut, exited, stubborn] = r.runs;
    assertEquals(timedOut.status, "failed");
    assertMatch(timedOut.reason ?? "", /^timeout/);
    assertEquals(timedOut.exit_code, null);
    assert(timedOut.duration_ms! < 3000, `timed-out hook took ${timedOut.duration_ms} ms`);
    assertEquals([stubborn.status, stubborn.reason], ["failed", "timeout after 1s"]);
    assert(stubborn.duration_ms! < 3000, `SIGTERM-ignoring hook took ${stubborn.duration_ms} ms`);
    assertEquals(exited.status, "completed");
    assert(exited.duration_ms! < 2500, `exited hook took ${exited.duration_ms} ms`);
    assert(r.systemMessages.some((m) => m.startsWith(`hook ${timedOut.key} failed: timeout`)), r.systemMessages[0]);
    // The whole CLI (runtime start included) returns within timeout + 2 s, plus start-up slack.
    assert(r._cli.ms < 4500, `dispatch took ${Math.round(r._cli.ms)} ms`);
  } finally {
    for (const pidFile of [timeoutPid, exitPid]) {
      const pid = Number(await Deno.readTextFile(pidFile).catch(() => ""));
      if (pid > 0) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* already gone */ }
      }
    }
  }
});

Deno.test("§7.1 handlers run concurrently: 8 × 1 s sleeps finish well under 8 s", async () => {
  await using home = await makeHome();
  const file = await writeHooksJson(home.path, {
    SessionStart: [group(Array.from({ length: 8 }, (_, i) => cmd(shHook("sleep.sh", ["1", `h${i}`]))))],
  }, "sleepers.json");
  const r = await dispatch(home.path, event("SessionStart"), ["--hooks-file", file, BYPASS]);
  assertEquals(r.runs.map((x) => x.status), Array(8).fill("completed"));
  assert(r.runs.every((x) => x.duration_ms! >= 950), JSON.stringify(r.runs.map((x) => x.duration_ms)));
  assertEquals(r.additionalContext, Array.from({ length: 8 }, (_, i) => `h${i}`));
  assert(r._cli.ms < 4000, `8 concurrent 1 s hooks took ${Math.round(r._cli.ms)} ms`);
});

Deno.test("§7.1 capture is capped at 1 MiB: a 5 MB flood is bounded, JSON-looking floods fail", async () => {
  await using home = await makeHome();
  const file = await writeHooksJson(home.path, {
    UserPromptSubmit: [group([
      cmd(shHook("flood.sh", ["5000000", "a"])),
      cmd(shHook("flood.sh", ["5000000", "{"])),
      cmd(echoHook("after the floods")),
    ])],
  }, "flood.json");
  const r = await dispatch(home.path, event("UserPromptSubmit"), ["--hooks-file", file, BYPASS]);
  assertEquals(r.runs.map((x) => x.status), ["completed", "failed", "completed"]);
  assertMatch(r.runs[1].reason ?? "", /^invalid JSON: .*1 MiB/);
  assertEquals(r.additionalContext.length, 2);
  // The flood's context is a spilled preview, not 5 MB (nor 1 MiB) of text.
  assert(r.additionalContext[0].length < 64 * 1024, `context length ${r.additionalContext[0].length}`);
  assertMatch(r.additionalContext[0], /omitted/);
  assertEquals(r.additionalContext[1], "after the floods");
  assert(r._cli.stdout.length < 128 * 1024, `result is ${r._cli.stdout.length} bytes`);
});
