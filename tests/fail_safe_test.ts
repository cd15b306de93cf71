/**
 * SPEC §15 (r2): "when the engine itself fails internally during dispatch, any deny already
 * decided is still returned", and every handler is isolated. The failures are injected into
 * `dispatchLoaded` (a catalog or context field that throws when the engine reads it after the hooks
 * ran, a runner that throws); the hooks themselves are mcp_tool handlers answered by a fake runner.
 */
import { assertEquals } from "./helpers/assert.ts";
import { dispatchLoaded } from "../src/engine/dispatch.ts";
import type { Dispatching, DispatchIo } from "../src/engine/types.ts";
import type { Catalog, HookHandler } from "../src/config/discovery.ts";
import type { EventName } from "../src/events/names.ts";
import type { JsonObject } from "../src/util/json.ts";
import { type RawCompletion, rawCompletion } from "../src/runner/types.ts";

import {
  blockingFold,
  ENGINE_FAILED,
  failSafeDecision,
  HANDLER_INTERNAL_ERROR,
  REWRITE_LOST,
} from "../src/engine/fail_safe.ts";
import { EVENTS } from "../src/events/registry.ts";
import { noServers } from "../src/config/mcp_servers.ts";

/** A managed mcp_tool handler (managed: it runs without trust) whose fake tool is `tool`. */
function handler(event: EventName, tool: string, index: number): HookHandler {
  return {
    key: `managed:/etc/mind/requirements.toml:${event}:0:${index}`,
    layer: "managed",
    sourcePath: "/etc/mind/requirements.toml",
    event,
    matcher: null,
    compiledMatcher: { kind: "all" },
    groupIndex: 0,
    handlerIndex: index,
    handler: { type: "mcp_tool", server: "fake", tool, input: {}, timeout: 5, serverSpec: null },
    dialect: "mind",
    env: {},
    enabled: true,
    trustedHash: null,
    pins: null,
  };
}

function catalog(handlers: HookHandler[]): Catalog {
  return {
    handlers,
    warnings: [],
    hooksEnabled: true,
    project: null,
    home: "/nonexistent/mind-hooks-fail-safe-home",
    userConfigPath: "/nonexistent/mind-hooks-fail-safe-home/config.toml",
    profile: null,
    mcpServers: noServers(),
    stopBlockCap: 8,
    model: null,
    managedOnly: false,
    plugins: [],
    files: [],
    bypassTrust: false,
    userHome: null,
    trustStoreProblem: null,
  };
}

/** Makes reading `field` of `obj` throw: the injected internal failure. */
function failOn<T extends object>(obj: T, field: keyof T): T {
  Object.defineProperty(obj, field, {
    get() {
      throw new Error("injected internal failure");
    },
  });
  return obj;
}

/** A completion whose stdout is `output` (JSON). */
function answered(output: unknown): RawCompletion {
  return rawCompletion({ stdout: JSON.stringify(output), exitCode: 0, durationMs: 1, timeoutSec: 5 });
}

/** Fake tools: what each answers, or `throw` to make the runner itself throw. */
const TOOLS: Record<string, unknown> = {
  deny: {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm" },
  },
  context: { hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "ctx" } },
  rewrite: {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      updatedInput: { command: "ls -l" },
    },
  },
  block: { decision: "block", reason: "keep going" },
  message: { systemMessage: "the hook's own word" },
};

function context(extra: Partial<DispatchIo> = {}): Dispatching {
  return {
    tempDir: "/nonexistent/mind-hooks-fail-safe-spill",
    io: {
      log: false,
      takeAsync: null,
      runMcp: (h) => {
        const tool = h.handler.type === "mcp_tool" ? h.handler.tool : "";
        if (tool === "throw") return Promise.reject(new Error("the runner blew up"));
        return Promise.resolve(answered(TOOLS[tool]));
      },
      ...extra,
    },
  };
}

function preToolUse(): { event: "PreToolUse"; input: JsonObject; warnings: [] } {
  return {
    event: "PreToolUse",
    input: {
      session_id: "fail-safe",
      transcript_path: null,
      cwd: "/",
      hook_event_name: "PreToolUse",
      model: "m",
      turn_id: "t",
      permission_mode: "default",
      tool_name: "exec_command",
      tool_use_id: "c",
      tool_input: { cmd: "rm -rf /" },
    },
    warnings: [],
  };
}

Deno.test("fail-safe: a deny survives an internal failure after the hooks ran (the catalog read throws)", async () => {
  const cat = failOn(catalog([handler("PreToolUse", "context", 0), handler("PreToolUse", "deny", 1)]), "project");
  const r = await dispatchLoaded(preToolUse(), cat, context());
  assertEquals([r.decision, r.reason, r.additionalContext], ["deny", "no rm", []]);
  assertEquals(r.systemMessages, [ENGINE_FAILED]);
  assertEquals(r.runs.map((x) => x.status), ["completed", "blocked"]);
});

Deno.test("fail-safe: a deny survives a failure while spilling another hook's context", async () => {
  const ctx = failOn(context(), "tempDir");
  const r = await dispatchLoaded(
    preToolUse(),
    catalog([handler("PreToolUse", "context", 0), handler("PreToolUse", "deny", 1)]),
    ctx,
  );
  assertEquals([r.decision, r.reason], ["deny", "no rm"]);
});

Deno.test("fail-safe: a Stop block survives a failing loop guard; a rewrite that can still be delivered stands", async () => {
  const stopEvent = {
    event: "Stop" as const,
    input: {
      session_id: "fail-safe",
      transcript_path: null,
      cwd: "/",
      hook_event_name: "Stop",
      model: "m",
      turn_id: "t",
      permission_mode: "default",
      stop_hook_active: false,
      last_assistant_message: null,
    },
    warnings: [] as [],
  };
  const stop = await dispatchLoaded(
    stopEvent,
    failOn(catalog([handler("Stop", "block", 0)]), "stopBlockCap"),
    context(),
  );
  assertEquals([stop.decision, stop.continuationPrompt], ["block", "keep going"]);
  const cat = failOn(catalog([handler("PreToolUse", "rewrite", 0)]), "project");
  const r = await dispatchLoaded(preToolUse(), cat, context());
  assertEquals([r.decision, r.updatedInput], ["allow", { cmd: "ls -l" }]);
});

Deno.test("fail-safe: a runner that throws fails only its own handler, with the fixed sentence", async () => {
  const r = await dispatchLoaded(
    preToolUse(),
    catalog([handler("PreToolUse", "throw", 0), handler("PreToolUse", "deny", 1)]),
    context(),
  );
  assertEquals(r.runs.map((x) => [x.status, x.reason]), [["failed", HANDLER_INTERNAL_ERROR], ["blocked", null]]);
  assertEquals([r.decision, r.reason], ["deny", "no rm"]);
  assertEquals(r.systemMessages, [
    `hook managed:/etc/mind/requirements.toml:PreToolUse:0:0 failed: ${HANDLER_INTERNAL_ERROR}`,
  ]);
});

Deno.test("fail-safe: its messages are the normal dispatch's whole, plus the engine-failure line", async () => {
  // A failing hook, a hook's own systemMessage, an untrusted project with hooks, a hook that needs review.
  const stranger: HookHandler = {
    ...handler("PreToolUse", "deny", 3),
    key: "user:/nonexistent/home/hooks.toml:PreToolUse:0:3",
    layer: "user",
    trustedHash: null,
  };
  const handlers = [
    handler("PreToolUse", "throw", 0),
    handler("PreToolUse", "message", 1),
    handler("PreToolUse", "context", 2),
    stranger,
  ];
  const project = { root: "/nonexistent/repo", trusted: false, trustLevel: null, hasHookFiles: true, foreignDirs: [] };
  const normal = await dispatchLoaded(preToolUse(), { ...catalog(handlers), project }, context());
  assertEquals(normal.systemMessages, [
    `hook managed:/etc/mind/requirements.toml:PreToolUse:0:0 failed: ${HANDLER_INTERNAL_ERROR}`,
    "the hook's own word",
    "project /nonexistent/repo has hooks but is not trusted: run mind-hooks project trust /nonexistent/repo",
    "1 hook needs review: run mind-hooks review",
  ]);
  // The same dispatch, its engine failing while it spills the context (after every hook ran).
  const failed = await dispatchLoaded(preToolUse(), { ...catalog(handlers), project }, failOn(context(), "tempDir"));
  assertEquals(failed.systemMessages, [...normal.systemMessages, ENGINE_FAILED]);
  assertEquals([failed.runs, failed.warnings], [normal.runs, normal.warnings]);
});

Deno.test("fail-safe decision: a failing aggregator falls back to the blocking fold; an undeliverable rewrite denies", () => {
  const item = (effect: Record<string, unknown>, order = 0) => ({ order, completedSeq: order + 1, effect });
  const broken = {
    ...EVENTS.PreToolUse,
    aggregate: () => {
      throw new Error("boom");
    },
  };
  assertEquals(
    failSafeDecision(
      broken,
      [item({}), item({ blockReason: "first" }, 1), item({ blockReason: "second" }, 2)],
      (u) => u,
    ).reason,
    "first",
  );
  const rewrite = failSafeDecision(EVENTS.PreToolUse, [item({ allow: true, updatedInput: { command: "x" } })], () => {
    throw new Error("conversion failed");
  });
  assertEquals([rewrite.decision, rewrite.reason, rewrite.updatedInput], ["deny", REWRITE_LOST, null]);
  assertEquals(
    blockingFold("SubagentStop", [item({ blockReason: "a" }), item({ blockReason: "b" }, 1)]).continuationPrompt,
    "a\n\nb",
  );
  assertEquals(blockingFold("PostToolUse", [item({ stop: true, stopReason: "halt" })]).continue, false);
  assertEquals(blockingFold("UserPromptSubmit", []).decision, null);
});

Deno.test("fail-safe: a front end's closing line (the adapter's) comes before the engine-failure line", async () => {
  // The adapter's "this host was never told" line was pushed after the messages were ordered, so a
  // fail-safe answer said it after ENGINE_FAILED; it is a closing line the messages stage orders now.
  const closing = () => Promise.resolve(["the front end's line"]);
  const handlers = [handler("PreToolUse", "context", 0), handler("PreToolUse", "deny", 1)];
  const normal = await dispatchLoaded(preToolUse(), catalog(handlers), context({ closing }));
  assertEquals(normal.systemMessages, ["the front end's line"]);
  const failed = await dispatchLoaded(preToolUse(), catalog(handlers), failOn(context({ closing }), "tempDir"));
  assertEquals(failed.systemMessages, ["the front end's line", ENGINE_FAILED]);
  assertEquals([failed.decision, failed.reason], ["deny", "no rm"]);
});
