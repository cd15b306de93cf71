/**
 * End-to-end tests of the per-event output protocol (SPEC §8) and the
 * dispatch result (§9) through the real CLI and real hook scripts: each case
 * writes a hooks file, dispatches one event with it (`--hooks-file`, trust
 * bypassed: trust itself is covered by dispatch_e2e_test.ts) and checks the
 * aggregated result. Every result is also checked against §9's shape.
 */

import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { join } from "node:path";
import { RESULT_SCHEMA } from "../src/generated/schemas.ts";
import { formatIssue, validateJson } from "../src/schema/validate.ts";
import {
  cmd,
  dispatch,
  type DispatchResult,
  echoHook,
  event,
  type EventName,
  group,
  type Json,
  makeHome,
  pyHook,
  PYTHON,
  RESULT_FIELDS,
  sessionId,
  shHook,
  shq,
  type TempDir,
  writeHooksJson,
} from "./helpers/cli.ts";

/** One shared home for the whole file; cases differ only by their hooks file and session id. */
let home: TempDir;
let caseNo = 0;

/** Asserts §9: exactly the documented fields, each with its documented type. */
function assertResultShape(r: DispatchResult, event: string): void {
  assertEquals(Object.keys(r).sort(), [...RESULT_FIELDS].sort(), "result fields");
  const issue = validateJson(RESULT_SCHEMA, r);
  assertEquals(issue, null, issue ? formatIssue(issue) : "");
  assertEquals(r.hook_event_name, event);
  for (const run of r.runs) {
    assertEquals(
      Object.keys(run).sort(),
      ["duration_ms", "exit_code", "key", "layer", "reason", "status", "statusMessage"],
    );
  }
}

/**
 * Dispatches `name` (input built by `event(name, input)`) with `handlers` as
 * the one matcher group of a fresh hooks file; returns the checked result and
 * the handlers' keys.
 */
async function run(
  name: EventName,
  handlers: Json[],
  input: Json = {},
  args: string[] = [],
): Promise<DispatchResult & { keys: string[] }> {
  const file = await writeHooksJson(join(home.path, "cases"), { [name]: [group(handlers)] }, `case${caseNo++}.json`);
  const r = await dispatch(home.path, event(name, input), [
    "--hooks-file",
    file,
    "--dangerously-bypass-hook-trust",
    ...args,
  ]);
  assertResultShape(r, name);
  const keys = handlers.map((_, i) => `cli:${file}:${name}:0:${i}`);
  assertEquals(r.runs.map((x) => x.key), keys, "runs in configuration order");
  return Object.assign(r, { keys });
}

const statuses = (r: DispatchResult) => r.runs.map((x) => x.status);
const pre = (fields: Json) => ({ hookSpecificOutput: { hookEventName: "PreToolUse", ...fields } });
const rmInput = { tool_input: { cmd: "rm -rf /" } };

Deno.test({
  name: "§8/§9 per-event output protocol through real hooks",
  async fn(t) {
    home = await makeHome();
    try {
      await steps(t);
    } finally {
      await home.cleanup();
    }
  },
});

async function steps(t: Deno.TestContext): Promise<void> {
  await t.step("PreToolUse: deny from a policy script; a harmless call goes on", async () => {
    const [denied, allowed] = await Promise.all([
      run("PreToolUse", [cmd(pyHook("deny_rm.py"), { statusMessage: "Checking the command" })], rmInput),
      run("PreToolUse", [cmd(pyHook("deny_rm.py"))], { tool_input: { cmd: "ls" } }),
    ]);
    assertEquals(denied.runs[0].statusMessage, "Checking the command");
    assertEquals(allowed.runs[0].statusMessage, null);
    assertEquals(denied.decision, "deny");
    assertEquals(denied.reason, "rm -rf is not allowed");
    assertEquals(statuses(denied), ["blocked"]);
    assertEquals(denied.runs[0].exit_code, 0);
    assertEquals(allowed.decision, null);
    assertEquals(allowed.reason, null);
    assertEquals(statuses(allowed), ["completed"]);
  });

  await t.step(
    "PreToolUse: two denies → the first reason in configuration order, not the first to finish",
    async () => {
      const r = await run("PreToolUse", [
        // Plain `sleep` leaves stdin for the policy script.
        cmd("sleep 0.7; " + pyHook("deny_rm.py", ["first"])),
        cmd(pyHook("deny_rm.py", ["second"])),
      ], rmInput);
      assertEquals(r.decision, "deny");
      assertEquals(r.reason, "first");
      assertEquals(statuses(r), ["blocked", "blocked"]);
    },
  );

  await t.step("PreToolUse: deny without a reason fails (never silently) and blocks nothing", async () => {
    const r = await run("PreToolUse", [cmd(echoHook(pre({ permissionDecision: "deny" })))]);
    assertEquals(r.decision, null);
    assertEquals(statuses(r), ["failed"]);
    assertMatch(r.runs[0].reason ?? "", /permissionDecisionReason/);
    assertEquals(r.systemMessages.length, 1);
    assertMatch(r.systemMessages[0], new RegExp(`^hook ${r.keys[0]} failed: .*permissionDecisionReason`));
  });

  await t.step("PreToolUse: deny still delivers its additionalContext", async () => {
    const r = await run("PreToolUse", [
      cmd(echoHook(pre({ permissionDecision: "deny", permissionDecisionReason: "no", additionalContext: "why" }))),
    ]);
    assertEquals(r.decision, "deny");
    assertEquals(r.additionalContext, ["why"]);
  });

  await t.step("PreToolUse: allow + updatedInput — the handler that completes last wins, whole", async () => {
    const rewriters = (slowFirst: boolean) => [
      cmd(pyHook("rewrite.py", ["A {command}", slowFirst ? "0.8" : "0"])),
      cmd(pyHook("rewrite.py", ["B {command}", slowFirst ? "0" : "0.8"])),
    ];
    const input = { tool_input: { cmd: "make", workdir: "/w" } };
    const [firstLast, secondLast] = await Promise.all([
      run("PreToolUse", rewriters(true), input),
      run("PreToolUse", rewriters(false), input),
    ]);
    assertEquals(firstLast.decision, "allow");
    assertEquals(firstLast.updatedInput, { cmd: "A make", workdir: "/w" });
    assertEquals(secondLast.decision, "allow");
    assertEquals(secondLast.updatedInput, { cmd: "B make", workdir: "/w" });
    assertEquals(statuses(firstLast), ["completed", "completed"]);
  });

  await t.step("PreToolUse: a deny beats an allow + updatedInput", async () => {
    const r = await run("PreToolUse", [
      cmd(pyHook("rewrite.py", ["safe {command}"])),
      cmd(pyHook("deny_rm.py")),
    ], rmInput);
    assertEquals(r.decision, "deny");
    assertEquals(r.updatedInput, null);
  });

  await t.step("PreToolUse: legacy decision block = deny; ask, approve, allow without updatedInput fail", async () => {
    const [legacy, ask, approve, bareAllow, stop] = await Promise.all([
      run("PreToolUse", [cmd(echoHook({ decision: "block", reason: "legacy no" }))]),
      run("PreToolUse", [cmd(echoHook(pre({ permissionDecision: "ask" })))]),
      run("PreToolUse", [cmd(echoHook({ decision: "approve" }))]),
      run("PreToolUse", [cmd(echoHook(pre({ permissionDecision: "allow" })))]),
      run("PreToolUse", [cmd(echoHook({ continue: false }))]),
    ]);
    assertEquals(legacy.decision, "deny");
    assertEquals(legacy.reason, "legacy no");
    for (const [r, pattern] of [[ask, /ask/], [approve, /approve/], [bareAllow, /updatedInput/], [stop, /continue/]]) {
      const result = r as DispatchResult;
      assertEquals(result.decision, null);
      assertEquals(statuses(result), ["failed"]);
      assertMatch(result.runs[0].reason ?? "", pattern as RegExp);
      assertEquals(result.systemMessages.length, 1);
    }
  });

  await t.step(
    "exit 2: blocks with stderr on PreToolUse; empty stderr fails; on SessionStart it is a failure",
    async () => {
      const [blocked, empty, sessionStart] = await Promise.all([
        run("PreToolUse", [cmd(shHook("exit2.sh", ["blocked by exit 2\n"]))]),
        run("PreToolUse", [cmd(shHook("exit2.sh", [""]))]),
        run("SessionStart", [cmd(shHook("exit2.sh", ["please stop"]))]),
      ]);
      assertEquals(blocked.decision, "deny");
      assertEquals(blocked.reason, "blocked by exit 2");
      assertEquals(statuses(blocked), ["blocked"]);
      assertEquals(blocked.runs[0].exit_code, 2);
      assertEquals(empty.decision, null);
      assertEquals(statuses(empty), ["failed"]);
      assertMatch(empty.runs[0].reason ?? "", /exit 2/);
      assertEquals(sessionStart.decision, null);
      assertEquals(sessionStart.continue, true);
      assertEquals(statuses(sessionStart), ["failed"]);
      assertEquals(sessionStart.runs[0].reason, "exit 2");
      assertMatch(sessionStart.systemMessages[0], /failed: exit 2 \(please stop\)/);
    },
  );

  await t.step("JSON-looking stdout that does not parse fails with invalid JSON, never read as text", async () => {
    const [pre, prompt] = await Promise.all([
      run("PreToolUse", [cmd(echoHook('{"hookSpecificOutput": '))]),
      run("UserPromptSubmit", [cmd(echoHook("[not json"))]),
    ]);
    for (const r of [pre, prompt]) {
      assertEquals(statuses(r), ["failed"]);
      assertMatch(r.runs[0].reason ?? "", /^invalid JSON/);
      assertEquals(r.additionalContext, []);
    }
  });

  await t.step("a non-zero exit and an unknown output field fail only their handler", async () => {
    const r = await run("UserPromptSubmit", [
      cmd(echoHook("ignored", { exit: 1, stderr: "boom" })),
      cmd(echoHook({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ok" }, extra: 1 })),
      cmd(echoHook({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "x" } })),
      cmd(echoHook("still here")),
    ]);
    assertEquals(statuses(r), ["failed", "failed", "failed", "completed"]);
    assertEquals(r.runs[0].reason, "exit 1");
    assertEquals(r.runs[0].exit_code, 1);
    assertMatch(r.runs[1].reason ?? "", /extra/);
    assertMatch(r.runs[2].reason ?? "", /hookEventName/);
    assertEquals(r.additionalContext, ["still here"]);
    assertEquals(r.systemMessages.length, 3);
    r.systemMessages.forEach((m, i) => assert(m.startsWith(`hook ${r.keys[i]} failed: `), m));
  });

  await t.step("PermissionRequest: deny wins over allow; default message; reserved fields fail", async () => {
    const allow = { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } };
    const deny = (extra: Json = {}) => ({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", ...extra } },
    });
    const [mixed, allowOnly, withMessage, reserved, none] = await Promise.all([
      run("PermissionRequest", [cmd(echoHook(allow)), cmd(echoHook(deny())), cmd(echoHook(allow))]),
      run("PermissionRequest", [cmd(echoHook(allow))]),
      run("PermissionRequest", [cmd(echoHook(deny({ message: "not on prod" })))]),
      run("PermissionRequest", [cmd(echoHook(deny({ updatedInput: { cmd: "x" } })))]),
      run("PermissionRequest", [cmd(echoHook(""))]),
    ]);
    assertEquals(mixed.decision, "deny");
    assertEquals(mixed.reason, "Blocked by hook.");
    assertEquals(statuses(mixed), ["completed", "blocked", "completed"]);
    assertEquals(allowOnly.decision, "allow");
    assertEquals(allowOnly.reason, null);
    assertEquals(withMessage.reason, "not on prod");
    assertEquals(reserved.decision, null);
    assertEquals(statuses(reserved), ["failed"]);
    assertMatch(reserved.runs[0].reason ?? "", /updatedInput/);
    assertEquals(none.decision, null);
  });

  await t.step(
    "PostToolUse: block and stop feedback merged in configuration order; undeclared field fails",
    async () => {
      const r = await run("PostToolUse", [
        cmd(echoHook({ decision: "block", reason: "R1" }, { sleep: 0.5 })),
        cmd(echoHook({ continue: false, stopReason: "S2" })),
        cmd(echoHook({ updatedMCPToolOutput: "replaced" })),
        cmd(echoHook({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "note" } })),
      ]);
      assertEquals(r.decision, "block");
      assertEquals(r.reason, "R1\n\nS2");
      assertEquals(r.continue, false);
      assertEquals(r.stopReason, "S2");
      assertEquals(statuses(r), ["blocked", "blocked", "failed", "completed"]);
      assertMatch(r.runs[2].reason ?? "", /updatedMCPToolOutput/);
      assertEquals(r.additionalContext, ["note"]);
      assertMatch(r.systemMessages.join("\n"), new RegExp(`hook ${r.keys[2]} failed`));

      const [stopOnly, suppress] = await Promise.all([
        run("PostToolUse", [cmd(echoHook({ continue: false, reason: "tests broke" }))]),
        run("PostToolUse", [cmd(echoHook({ suppressOutput: true }))]),
      ]);
      assertEquals(stopOnly.decision, "stop");
      assertEquals(stopOnly.reason, "tests broke");
      assertEquals(stopOnly.continue, false);
      assertEquals(statuses(suppress), ["failed"]);
    },
  );

  await t.step("UserPromptSubmit: plain stdout is context; a block keeps the batch's context", async () => {
    const r = await run("UserPromptSubmit", [
      cmd(echoHook("ctx1\n")),
      cmd(echoHook({ decision: "block", reason: "no secrets in prompts" })),
      cmd(echoHook({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ctx3" } })),
    ]);
    assertEquals(r.decision, "block");
    assertEquals(r.reason, "no secrets in prompts");
    assertEquals(r.additionalContext, ["ctx1", "ctx3"]);
    assertEquals(statuses(r), ["completed", "blocked", "completed"]);

    const exit2 = await run("UserPromptSubmit", [cmd(shHook("exit2.sh", ["prompt rejected"]))]);
    assertEquals(exit2.decision, "block");
    assertEquals(exit2.reason, "prompt rejected");
  });

  await t.step(
    "SessionStart: continue:false → decision stop, context kept; systemMessage goes to the user",
    async () => {
      const r = await run("SessionStart", [
        cmd(echoHook("welcome")),
        cmd(echoHook({ continue: false, stopReason: "maintenance window", systemMessage: "bye" })),
      ]);
      assertEquals(r.decision, "stop");
      assertEquals(r.continue, false);
      assertEquals(r.stopReason, "maintenance window");
      assertEquals(r.additionalContext, ["welcome"]);
      assertEquals(r.systemMessages, ["bye"]);
    },
  );

  await t.step("SubagentStart: context for the subagent; continue:false does not stop it", async () => {
    const r = await run("SubagentStart", [cmd(echoHook("sub ctx")), cmd(echoHook({ continue: false }))]);
    assertEquals(r.decision, null);
    assertEquals(r.continue, true);
    assertEquals(r.additionalContext, ["sub ctx"]);
  });

  await t.step("Stop: block reasons join with a blank line; continue:false wins; plain text fails", async () => {
    const [blocks, stopWins, plain, exit2] = await Promise.all([
      run("Stop", [
        cmd(echoHook({ decision: "block", reason: "r1" }, { sleep: 0.4 })),
        cmd(echoHook({ decision: "block", reason: "r2" })),
        cmd(echoHook("")),
      ], { session_id: sessionId("stop") }),
      run("Stop", [
        cmd(echoHook({ decision: "block", reason: "r1" })),
        cmd(echoHook({ continue: false, stopReason: "halt" })),
      ], { session_id: sessionId("stop") }),
      run("Stop", [cmd(echoHook("all done"))], { session_id: sessionId("stop") }),
      run("Stop", [cmd(shHook("exit2.sh", ["keep going"]))], { session_id: sessionId("stop") }),
    ]);
    assertEquals(blocks.decision, "block");
    assertEquals(blocks.continuationPrompt, "r1\n\nr2");
    assertEquals(blocks.reason, "r1\n\nr2");
    assertEquals(statuses(blocks), ["blocked", "blocked", "completed"]);
    assertEquals(stopWins.decision, "stop");
    assertEquals(stopWins.continue, false);
    assertEquals(stopWins.stopReason, "halt");
    assertEquals(stopWins.continuationPrompt, null);
    assertEquals(plain.decision, null);
    assertEquals(statuses(plain), ["failed"]);
    assertMatch(plain.runs[0].reason ?? "", /plain text/);
    assertEquals(exit2.decision, "block");
    assertEquals(exit2.continuationPrompt, "keep going");
  });

  await t.step("SubagentStop: same rules as Stop", async () => {
    const [blocks, stopWins, noReason] = await Promise.all([
      run("SubagentStop", [
        cmd(echoHook({ decision: "block", reason: "a" })),
        cmd(echoHook({ decision: "block", reason: "b" })),
      ], { session_id: sessionId("sub") }),
      run("SubagentStop", [
        cmd(echoHook({ decision: "block", reason: "a" })),
        cmd(echoHook({ continue: false })),
      ], { session_id: sessionId("sub") }),
      run("SubagentStop", [cmd(echoHook({ decision: "block" }))], { session_id: sessionId("sub") }),
    ]);
    assertEquals(blocks.decision, "block");
    assertEquals(blocks.continuationPrompt, "a\n\nb");
    assertEquals(stopWins.decision, "stop");
    assertEquals(stopWins.continue, false);
    assertEquals(stopWins.continuationPrompt, null);
    assertEquals(noReason.decision, null);
    assertEquals(statuses(noReason), ["failed"]);
  });

  await t.step(
    "Stop loop guard: past hooks.stop_block_cap blocks are ignored until a dispatch does not block",
    async () => {
      const sid = sessionId("loop");
      const blockFile = await writeHooksJson(join(home.path, "cases"), {
        Stop: [group([cmd(echoHook({ decision: "block", reason: "again" }))])],
      }, "loop-block.json");
      const quietFile = await writeHooksJson(join(home.path, "cases"), {
        Stop: [group([cmd(echoHook(""))])],
      }, "loop-quiet.json");
      const stop = async (file: string) => {
        const r = await dispatch(home.path, event("Stop", { session_id: sid, stop_hook_active: true }), [
          "--hooks-file",
          file,
          "--dangerously-bypass-hook-trust",
          "-c",
          "hooks.stop_block_cap=2",
        ]);
        assertResultShape(r, "Stop");
        return r;
      };
      const capped = (r: DispatchResult) => r.warnings.some((w) => w.code === "W_STOP_LOOP_CAP");
      for (let i = 1; i <= 2; i++) {
        const r = await stop(blockFile);
        assertEquals(r.decision, "block", `block ${i} stands`);
        assertEquals(r.continuationPrompt, "again");
        assert(!capped(r));
      }
      const third = await stop(blockFile);
      assertEquals(third.decision, null);
      assertEquals(third.continuationPrompt, null);
      assert(capped(third), JSON.stringify(third.warnings));
      assert(third.systemMessages.some((m) => /stop_block_cap = 2/.test(m)), third.systemMessages.join("\n"));
      assertEquals(statuses(third), ["blocked"]);

      const quiet = await stop(quietFile);
      assertEquals(quiet.decision, null);
      assert(!capped(quiet));
      const again = await stop(blockFile);
      assertEquals(again.decision, "block", "the counter was reset by the non-blocking dispatch");
      assert(!capped(again));

      // SubagentStop counts per agent_id: one agent at its cap does not cap another.
      const subFile = await writeHooksJson(join(home.path, "cases"), {
        SubagentStop: [group([cmd(echoHook({ decision: "block", reason: "more" }))])],
      }, "loop-sub.json");
      const sub = async (agent: string) => {
        const r = await dispatch(home.path, event("SubagentStop", { session_id: sid, agent_id: agent }), [
          "--hooks-file",
          subFile,
          "--dangerously-bypass-hook-trust",
          "-c",
          "hooks.stop_block_cap=1",
        ]);
        assertResultShape(r, "SubagentStop");
        return r;
      };
      assertEquals((await sub("agent-a")).decision, "block");
      const cappedA = await sub("agent-a");
      assertEquals(cappedA.decision, null);
      assert(capped(cappedA));
      const otherAgent = await sub("agent-b");
      assertEquals(otherAgent.decision, "block");
      assert(!capped(otherAgent));
    },
  );

  await t.step("Interrupt: JSON with only systemMessage, or nothing; plain text and other fields fail", async () => {
    const [plain, message, empty, extra] = await Promise.all([
      run("Interrupt", [cmd(echoHook("interrupted!"))]),
      run("Interrupt", [cmd(echoHook({ systemMessage: "saved your work" }))]),
      run("Interrupt", [cmd(echoHook(""))]),
      run("Interrupt", [cmd(echoHook({ continue: false }))]),
    ]);
    assertEquals(statuses(plain), ["failed"]);
    assertMatch(plain.runs[0].reason ?? "", /plain text/);
    assertEquals(statuses(message), ["completed"]);
    assertEquals(message.systemMessages, ["saved your work"]);
    assertEquals(statuses(empty), ["completed"]);
    assertEquals(statuses(extra), ["failed"]);
    for (const r of [plain, message, empty, extra]) assertEquals(r.decision, null);
  });

  await t.step("Notification (r4): matcher on notification_type; a systemMessage or nothing; no decision", async () => {
    const idle = { notification_type: "idle_prompt", message: "waiting for input" };
    const [message, plain, extra, unmatched] = await Promise.all([
      run("Notification", [cmd(echoHook({ systemMessage: "pinged you" }))], idle),
      run("Notification", [cmd(echoHook("plain text is ignored here"))], idle),
      run("Notification", [cmd(echoHook({ decision: "block", reason: "no" }))], idle),
      (async () => {
        const file = await writeHooksJson(join(home.path, "cases"), {
          Notification: [{ matcher: "permission_prompt", hooks: [cmd(echoHook({ systemMessage: "x" }))] }],
        }, `case${caseNo++}.json`);
        return dispatch(home.path, event("Notification", idle), [
          "--hooks-file",
          file,
          "--dangerously-bypass-hook-trust",
        ]);
      })(),
    ]);
    assertEquals([statuses(message), message.systemMessages], [["completed"], ["pinged you"]]);
    assertEquals([statuses(plain), plain.systemMessages], [["completed"], []]);
    assertEquals(statuses(extra), ["failed"]);
    assertEquals(unmatched.runs, [], "a matcher on another notification_type does not match");
    for (const r of [message, plain, extra]) assertEquals(r.decision, null);
  });

  await t.step("PostToolUseFailure (r4): the hook reads error; block is feedback, context is context", async () => {
    const failed = { tool_name: "exec_command", tool_input: { cmd: "make" }, error: "exit status 2" };
    const readsError =
      `import json,sys; e=json.load(sys.stdin); print(json.dumps({"decision":"block","reason":"saw: "+e["error"]+" in "+e["tool_name"]}))`;
    const [block, context, exit2] = await Promise.all([
      run("PostToolUseFailure", [cmd(`${shq(PYTHON)} -c ${shq(readsError)}`)], failed),
      run("PostToolUseFailure", [
        cmd(
          echoHook({ hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "try make -k" } }),
        ),
      ], failed),
      run("PostToolUseFailure", [cmd(echoHook("", { stderr: "no retries", exit: 2 }))], failed),
    ]);
    assertEquals([block.decision, block.reason, statuses(block)], ["block", "saw: exit status 2 in Bash", ["blocked"]]);
    assertEquals([context.decision, context.additionalContext], [null, ["try make -k"]]);
    assertEquals([exit2.decision, exit2.reason], ["block", "no retries"]);
  });

  await t.step("PreCompact/PostCompact: continue:false stops; PostCompact rejects hookSpecificOutput", async () => {
    const [preStop, postStop, postHso, prePlain] = await Promise.all([
      run("PreCompact", [cmd(echoHook({ continue: false, stopReason: "not now" }))]),
      run("PostCompact", [cmd(echoHook({ continue: false }))]),
      run("PostCompact", [cmd(echoHook({ hookSpecificOutput: { hookEventName: "PostCompact" } }))]),
      run("PreCompact", [cmd(echoHook("plain text is ignored here"))]),
    ]);
    assertEquals(preStop.decision, "stop");
    assertEquals(preStop.continue, false);
    assertEquals(preStop.stopReason, "not now");
    assertEquals(postStop.decision, "stop");
    assertEquals(postStop.continue, false);
    assertEquals(statuses(postHso), ["failed"]);
    assertMatch(postHso.runs[0].reason ?? "", /hookSpecificOutput/);
    assertEquals(postHso.decision, null);
    assertEquals(statuses(prePlain), ["completed"]);
    assertEquals(prePlain.additionalContext, []);
  });

  await t.step("SessionEnd: advisory — output steers nothing, exit 2 is a failure, default timeout 1 s", async () => {
    const [steer, exit2, slow] = await Promise.all([
      run("SessionEnd", [cmd(echoHook({ continue: false, systemMessage: "bye" }))]),
      run("SessionEnd", [cmd(shHook("exit2.sh", ["no"]))]),
      run("SessionEnd", [cmd("sleep 5")]),
    ]);
    assertEquals(statuses(slow), ["failed"]);
    assertEquals(slow.runs[0].reason, "timeout after 1s");
    assert(slow.runs[0].duration_ms! < 3000, `SessionEnd hook ran ${slow.runs[0].duration_ms} ms`);
    assertEquals(steer.decision, null);
    assertEquals(steer.continue, true);
    assertEquals(steer.systemMessages, ["bye"]);
    assertEquals(statuses(exit2), ["failed"]);
    assertEquals(exit2.decision, null);
  });

  await t.step("§9: an event with no hooks still returns every field", async () => {
    const r = await dispatch(home.path, event("PreCompact"));
    assertResultShape(r, "PreCompact");
    assertEquals(
      { ...r, warnings: [] },
      {
        hook_event_name: "PreCompact",
        decision: null,
        reason: null,
        continue: true,
        stopReason: null,
        updatedInput: null,
        continuationPrompt: null,
        additionalContext: [],
        systemMessages: [],
        asyncResults: [],
        envFile: null,
        runs: [],
        warnings: [],
      },
    );
  });
}
