/**
 * End-to-end tests of the per-event output protocol (SPEC §8) and the
 * dispatch result (§9) through the real CLI and real hook scripts: each case
 * writes a hooks file, dispatches one event with it (`--hooks-file`, trust
 * bypassed: trust itself is covered by dispatch_e2e_test.ts) and checks the
 * aggregated result. Every result is also checked against §9's shape.
 */

import assert from "node:assert/strict";
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
  RESULT_FIELDS,
  sessionId,
  shHook,
  type TempDir,
  writeHooksJson,
} from "./helpers/cli.ts";

/** One shared home for the whole file; cases differ only by their hooks file and session id. */
let home: TempDir;
let caseNo = 0;

/** Asserts §9: exactly the documented fields, each with its documented type. */
function assertResultShape(r: DispatchResult, event: string): void {
  assert.deepEqual(Object.keys(r).sort(), [...RESULT_FIELDS].sort(), "result fields");
  const issue = validateJson(RESULT_SCHEMA, r);
  assert.equal(issue, null, issue ? formatIssue(issue) : "");
  assert.equal(r.hook_event_name, event);
  for (const run of r.runs) {
    assert.deepEqual(
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
  assert.deepEqual(r.runs.map((x) => x.key), keys, "runs in configuration order");
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
    assert.equal(denied.runs[0].statusMessage, "Checking the command");
    assert.equal(allowed.runs[0].statusMessage, null);
    assert.equal(denied.decision, "deny");
    assert.equal(denied.reason, "rm -rf is not allowed");
    assert.deepEqual(statuses(denied), ["blocked"]);
    assert.equal(denied.runs[0].exit_code, 0);
    assert.equal(allowed.decision, null);
    assert.equal(allowed.reason, null);
    assert.deepEqual(statuses(allowed), ["completed"]);
  });

  await t.step(
    "PreToolUse: two denies → the first reason in configuration order, not the first to finish",
    async () => {
      const r = await run("PreToolUse", [
        // Plain `sleep` leaves stdin for the policy script.
        cmd("sleep 0.7; " + pyHook("deny_rm.py", ["first"])),
        cmd(pyHook("deny_rm.py", ["second"])),
      ], rmInput);
      assert.equal(r.decision, "deny");
      assert.equal(r.reason, "first");
      assert.deepEqual(statuses(r), ["blocked", "blocked"]);
    },
  );

  await t.step("PreToolUse: deny without a reason fails (never silently) and blocks nothing", async () => {
    const r = await run("PreToolUse", [cmd(echoHook(pre({ permissionDecision: "deny" })))]);
    assert.equal(r.decision, null);
    assert.deepEqual(statuses(r), ["failed"]);
    assert.match(r.runs[0].reason ?? "", /permissionDecisionReason/);
    assert.equal(r.systemMessages.length, 1);
    assert.match(r.systemMessages[0], new RegExp(`^hook ${r.keys[0]} failed: .*permissionDecisionReason`));
  });

  await t.step("PreToolUse: deny still delivers its additionalContext", async () => {
    const r = await run("PreToolUse", [
      cmd(echoHook(pre({ permissionDecision: "deny", permissionDecisionReason: "no", additionalContext: "why" }))),
    ]);
    assert.equal(r.decision, "deny");
    assert.deepEqual(r.additionalContext, ["why"]);
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
    assert.equal(firstLast.decision, "allow");
    assert.deepEqual(firstLast.updatedInput, { cmd: "A make", workdir: "/w" });
    assert.equal(secondLast.decision, "allow");
    assert.deepEqual(secondLast.updatedInput, { cmd: "B make", workdir: "/w" });
    assert.deepEqual(statuses(firstLast), ["completed", "completed"]);
  });

  await t.step("PreToolUse: a deny beats an allow + updatedInput", async () => {
    const r = await run("PreToolUse", [
      cmd(pyHook("rewrite.py", ["safe {command}"])),
      cmd(pyHook("deny_rm.py")),
    ], rmInput);
    assert.equal(r.decision, "deny");
    assert.equal(r.updatedInput, null);
  });

  await t.step("PreToolUse: legacy decision block = deny; ask, approve, allow without updatedInput fail", async () => {
    const [legacy, ask, approve, bareAllow, stop] = await Promise.all([
      run("PreToolUse", [cmd(echoHook({ decision: "block", reason: "legacy no" }))]),
      run("PreToolUse", [cmd(echoHook(pre({ permissionDecision: "ask" })))]),
      run("PreToolUse", [cmd(echoHook({ decision: "approve" }))]),
      run("PreToolUse", [cmd(echoHook(pre({ permissionDecision: "allow" })))]),
      run("PreToolUse", [cmd(echoHook({ continue: false }))]),
    ]);
    assert.equal(legacy.decision, "deny");
    assert.equal(legacy.reason, "legacy no");
    for (const [r, pattern] of [[ask, /ask/], [approve, /approve/], [bareAllow, /updatedInput/], [stop, /continue/]]) {
      const result = r as DispatchResult;
      assert.equal(result.decision, null);
      assert.deepEqual(statuses(result), ["failed"]);
      assert.match(result.runs[0].reason ?? "", pattern as RegExp);
      assert.equal(result.systemMessages.length, 1);
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
      assert.equal(blocked.decision, "deny");
      assert.equal(blocked.reason, "blocked by exit 2");
      assert.deepEqual(statuses(blocked), ["blocked"]);
      assert.equal(blocked.runs[0].exit_code, 2);
      assert.equal(empty.decision, null);
      assert.deepEqual(statuses(empty), ["failed"]);
      assert.match(empty.runs[0].reason ?? "", /exit 2/);
      assert.equal(sessionStart.decision, null);
      assert.equal(sessionStart.continue, true);
      assert.deepEqual(statuses(sessionStart), ["failed"]);
      assert.equal(sessionStart.runs[0].reason, "exit 2");
      assert.match(sessionStart.systemMessages[0], /failed: exit 2 \(please stop\)/);
    },
  );

  await t.step("JSON-looking stdout that does not parse fails with invalid JSON, never read as text", async () => {
    const [pre, prompt] = await Promise.all([
      run("PreToolUse", [cmd(echoHook('{"hookSpecificOutput": '))]),
      run("UserPromptSubmit", [cmd(echoHook("[not json"))]),
    ]);
    for (const r of [pre, prompt]) {
      assert.deepEqual(statuses(r), ["failed"]);
      assert.match(r.runs[0].reason ?? "", /^invalid JSON/);
      assert.deepEqual(r.additionalContext, []);
    }
  });

  await t.step("a non-zero exit and an unknown output field fail only their handler", async () => {
    const r = await run("UserPromptSubmit", [
      cmd(echoHook("ignored", { exit: 1, stderr: "boom" })),
      cmd(echoHook({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ok" }, extra: 1 })),
      cmd(echoHook({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "x" } })),
      cmd(echoHook("still here")),
    ]);
    assert.deepEqual(statuses(r), ["failed", "failed", "failed", "completed"]);
    assert.equal(r.runs[0].reason, "exit 1");
    assert.equal(r.runs[0].exit_code, 1);
    assert.match(r.runs[1].reason ?? "", /extra/);
    assert.match(r.runs[2].reason ?? "", /hookEventName/);
    assert.deepEqual(r.additionalContext, ["still here"]);
    assert.equal(r.systemMessages.length, 3);
    r.systemMessages.forEach((m, i) => assert.ok(m.startsWith(`hook ${r.keys[i]} failed: `), m));
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
    assert.equal(mixed.decision, "deny");
    assert.equal(mixed.reason, "Blocked by hook.");
    assert.deepEqual(statuses(mixed), ["completed", "blocked", "completed"]);
    assert.equal(allowOnly.decision, "allow");
    assert.equal(allowOnly.reason, null);
    assert.equal(withMessage.reason, "not on prod");
    assert.equal(reserved.decision, null);
    assert.deepEqual(statuses(reserved), ["failed"]);
    assert.match(reserved.runs[0].reason ?? "", /updatedInput/);
    assert.equal(none.decision, null);
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
      assert.equal(r.decision, "block");
      assert.equal(r.reason, "R1\n\nS2");
      assert.equal(r.continue, false);
      assert.equal(r.stopReason, "S2");
      assert.deepEqual(statuses(r), ["blocked", "blocked", "failed", "completed"]);
      assert.match(r.runs[2].reason ?? "", /updatedMCPToolOutput/);
      assert.deepEqual(r.additionalContext, ["note"]);
      assert.match(r.systemMessages.join("\n"), new RegExp(`hook ${r.keys[2]} failed`));

      const [stopOnly, suppress] = await Promise.all([
        run("PostToolUse", [cmd(echoHook({ continue: false, reason: "tests broke" }))]),
        run("PostToolUse", [cmd(echoHook({ suppressOutput: true }))]),
      ]);
      assert.equal(stopOnly.decision, "stop");
      assert.equal(stopOnly.reason, "tests broke");
      assert.equal(stopOnly.continue, false);
      assert.deepEqual(statuses(suppress), ["failed"]);
    },
  );

  await t.step("UserPromptSubmit: plain stdout is context; a block keeps the batch's context", async () => {
    const r = await run("UserPromptSubmit", [
      cmd(echoHook("ctx1\n")),
      cmd(echoHook({ decision: "block", reason: "no secrets in prompts" })),
      cmd(echoHook({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ctx3" } })),
    ]);
    assert.equal(r.decision, "block");
    assert.equal(r.reason, "no secrets in prompts");
    assert.deepEqual(r.additionalContext, ["ctx1", "ctx3"]);
    assert.deepEqual(statuses(r), ["completed", "blocked", "completed"]);

    const exit2 = await run("UserPromptSubmit", [cmd(shHook("exit2.sh", ["prompt rejected"]))]);
    assert.equal(exit2.decision, "block");
    assert.equal(exit2.reason, "prompt rejected");
  });

  await t.step(
    "SessionStart: continue:false → decision stop, context kept; systemMessage goes to the user",
    async () => {
      const r = await run("SessionStart", [
        cmd(echoHook("welcome")),
        cmd(echoHook({ continue: false, stopReason: "maintenance window", systemMessage: "bye" })),
      ]);
      assert.equal(r.decision, "stop");
      assert.equal(r.continue, false);
      assert.equal(r.stopReason, "maintenance window");
      assert.deepEqual(r.additionalContext, ["welcome"]);
      assert.deepEqual(r.systemMessages, ["bye"]);
    },
  );

  await t.step("SubagentStart: context for the subagent; continue:false does not stop it", async () => {
    const r = await run("SubagentStart", [cmd(echoHook("sub ctx")), cmd(echoHook({ continue: false }))]);
    assert.equal(r.decision, null);
    assert.equal(r.continue, true);
    assert.deepEqual(r.additionalContext, ["sub ctx"]);
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
    assert.equal(blocks.decision, "block");
    assert.equal(blocks.continuationPrompt, "r1\n\nr2");
    assert.equal(blocks.reason, "r1\n\nr2");
    assert.deepEqual(statuses(blocks), ["blocked", "blocked", "completed"]);
    assert.equal(stopWins.decision, "stop");
    assert.equal(stopWins.continue, false);
    assert.equal(stopWins.stopReason, "halt");
    assert.equal(stopWins.continuationPrompt, null);
    assert.equal(plain.decision, null);
    assert.deepEqual(statuses(plain), ["failed"]);
    assert.match(plain.runs[0].reason ?? "", /plain text/);
    assert.equal(exit2.decision, "block");
    assert.equal(exit2.continuationPrompt, "keep going");
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
    assert.equal(blocks.decision, "block");
    assert.equal(blocks.continuationPrompt, "a\n\nb");
    assert.equal(stopWins.decision, "stop");
    assert.equal(stopWins.continue, false);
    assert.equal(stopWins.continuationPrompt, null);
    assert.equal(noReason.decision, null);
    assert.deepEqual(statuses(noReason), ["failed"]);
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
        assert.equal(r.decision, "block", `block ${i} stands`);
        assert.equal(r.continuationPrompt, "again");
        assert.ok(!capped(r));
      }
      const third = await stop(blockFile);
      assert.equal(third.decision, null);
      assert.equal(third.continuationPrompt, null);
      assert.ok(capped(third), JSON.stringify(third.warnings));
      assert.ok(third.systemMessages.some((m) => /stop_block_cap = 2/.test(m)), third.systemMessages.join("\n"));
      assert.deepEqual(statuses(third), ["blocked"]);

      const quiet = await stop(quietFile);
      assert.equal(quiet.decision, null);
      assert.ok(!capped(quiet));
      const again = await stop(blockFile);
      assert.equal(again.decision, "block", "the counter was reset by the non-blocking dispatch");
      assert.ok(!capped(again));

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
      assert.equal((await sub("agent-a")).decision, "block");
      const cappedA = await sub("agent-a");
      assert.equal(cappedA.decision, null);
      assert.ok(capped(cappedA));
      const otherAgent = await sub("agent-b");
      assert.equal(otherAgent.decision, "block");
      assert.ok(!capped(otherAgent));
    },
  );

  await t.step("Interrupt: JSON with only systemMessage, or nothing; plain text and other fields fail", async () => {
    const [plain, message, empty, extra] = await Promise.all([
      run("Interrupt", [cmd(echoHook("interrupted!"))]),
      run("Interrupt", [cmd(echoHook({ systemMessage: "saved your work" }))]),
      run("Interrupt", [cmd(echoHook(""))]),
      run("Interrupt", [cmd(echoHook({ continue: false }))]),
    ]);
    assert.deepEqual(statuses(plain), ["failed"]);
    assert.match(plain.runs[0].reason ?? "", /plain text/);
    assert.deepEqual(statuses(message), ["completed"]);
    assert.deepEqual(message.systemMessages, ["saved your work"]);
    assert.deepEqual(statuses(empty), ["completed"]);
    assert.deepEqual(statuses(extra), ["failed"]);
    for (const r of [plain, message, empty, extra]) assert.equal(r.decision, null);
  });

  await t.step("PreCompact/PostCompact: continue:false stops; PostCompact rejects hookSpecificOutput", async () => {
    const [preStop, postStop, postHso, prePlain] = await Promise.all([
      run("PreCompact", [cmd(echoHook({ continue: false, stopReason: "not now" }))]),
      run("PostCompact", [cmd(echoHook({ continue: false }))]),
      run("PostCompact", [cmd(echoHook({ hookSpecificOutput: { hookEventName: "PostCompact" } }))]),
      run("PreCompact", [cmd(echoHook("plain text is ignored here"))]),
    ]);
    assert.equal(preStop.decision, "stop");
    assert.equal(preStop.continue, false);
    assert.equal(preStop.stopReason, "not now");
    assert.equal(postStop.decision, "stop");
    assert.equal(postStop.continue, false);
    assert.deepEqual(statuses(postHso), ["failed"]);
    assert.match(postHso.runs[0].reason ?? "", /hookSpecificOutput/);
    assert.equal(postHso.decision, null);
    assert.deepEqual(statuses(prePlain), ["completed"]);
    assert.deepEqual(prePlain.additionalContext, []);
  });

  await t.step("SessionEnd: advisory — output steers nothing, exit 2 is a failure, default timeout 1 s", async () => {
    const [steer, exit2, slow] = await Promise.all([
      run("SessionEnd", [cmd(echoHook({ continue: false, systemMessage: "bye" }))]),
      run("SessionEnd", [cmd(shHook("exit2.sh", ["no"]))]),
      run("SessionEnd", [cmd("sleep 5")]),
    ]);
    assert.deepEqual(statuses(slow), ["failed"]);
    assert.equal(slow.runs[0].reason, "timeout after 1s");
    assert.ok(slow.runs[0].duration_ms! < 3000, `SessionEnd hook ran ${slow.runs[0].duration_ms} ms`);
    assert.equal(steer.decision, null);
    assert.equal(steer.continue, true);
    assert.deepEqual(steer.systemMessages, ["bye"]);
    assert.deepEqual(statuses(exit2), ["failed"]);
    assert.equal(exit2.decision, null);
  });

  await t.step("§9: an event with no hooks still returns every field", async () => {
    const r = await dispatch(home.path, event("PreCompact"));
    assertResultShape(r, "PreCompact");
    assert.deepEqual(
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
