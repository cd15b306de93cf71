/**
 * The facts of the 14 events (src/events/<event>.ts) against SPEC: the matcher subject (§4), exit 2
 * blocking (§8), plain stdout (§8), what `additionalContextLimit` bounds (§2.2, seed 000), timeouts
 * (§2.2), async and `mcp_tool` handlers (§2.2, seed 003), tool feedback spilling (§10), the Stop loop
 * guard (§8), session end (§10), the session start's notice of what will not run (§6 r3) and the coverage
 * family (§14).
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { EVENT_NAMES, type EventName } from "./names.ts";
import { EVENTS } from "./registry.ts";
import type { EventFacts } from "./types.ts";

type Row =
  & Pick<
    EventFacts,
    | "matcher"
    | "canBlock"
    | "plainStdout"
    | "contextLimit"
    | "timeout"
    | "asyncAllowed"
    | "mcpAllowed"
    | "spillsFeedback"
    | "endsSession"
    | "namesSkippedHooks"
    | "coverage"
  >
  & { stopGuard: string | null };

const tool = { kind: "tool" } as const;
const none = { kind: "none" } as const;
const field = (f: "source" | "reason" | "trigger" | "agent_type" | "notification_type") =>
  ({ kind: "field", field: f }) as const;
const standard = { default: 600, max: null };
const short = { default: 1, max: 3 };
const base = {
  asyncAllowed: true,
  mcpAllowed: true,
  spillsFeedback: false,
  endsSession: false,
  namesSkippedHooks: false,
  stopGuard: null,
};

// deno-fmt-ignore -- one line per event, aligned, reads as the table it is
const SPEC: Record<EventName, Row> = {
  SessionStart:      { ...base, matcher: field("source"),     canBlock: false, plainStdout: "context", contextLimit: "context",      timeout: standard, coverage: "client", namesSkippedHooks: true },
  SessionEnd:        { ...base, matcher: field("reason"),     canBlock: false, plainStdout: "ignore",  contextLimit: "none",         timeout: short,    coverage: "client", asyncAllowed: false, mcpAllowed: false, endsSession: true },
  UserPromptSubmit:  { ...base, matcher: none,                canBlock: true,  plainStdout: "context", contextLimit: "context",      timeout: standard, coverage: "client" },
  PreToolUse:        { ...base, matcher: tool,                canBlock: true,  plainStdout: "ignore",  contextLimit: "context",      timeout: standard, coverage: "tool" },
  PermissionRequest: { ...base, matcher: tool,                canBlock: true,  plainStdout: "ignore",  contextLimit: "none",         timeout: standard, coverage: "approval" },
  PostToolUse:       { ...base, matcher: tool,                canBlock: true,  plainStdout: "ignore",  contextLimit: "context",      timeout: standard, coverage: "tool", spillsFeedback: true },
  PostToolUseFailure:{ ...base, matcher: tool,                canBlock: true,  plainStdout: "ignore",  contextLimit: "context",      timeout: standard, coverage: "tool", spillsFeedback: true },
  PreCompact:        { ...base, matcher: field("trigger"),    canBlock: false, plainStdout: "ignore",  contextLimit: "none",         timeout: standard, coverage: "client" },
  PostCompact:       { ...base, matcher: field("trigger"),    canBlock: false, plainStdout: "ignore",  contextLimit: "none",         timeout: standard, coverage: "client" },
  SubagentStart:     { ...base, matcher: field("agent_type"), canBlock: false, plainStdout: "context", contextLimit: "context",      timeout: standard, coverage: "client" },
  SubagentStop:      { ...base, matcher: field("agent_type"), canBlock: true,  plainStdout: "invalid", contextLimit: "continuation", timeout: standard, coverage: "client", stopGuard: "SubagentStop:agent-1" },
  Stop:              { ...base, matcher: none,                canBlock: true,  plainStdout: "invalid", contextLimit: "continuation", timeout: standard, coverage: "client", stopGuard: "Stop" },
  Interrupt:         { ...base, matcher: none,                canBlock: false, plainStdout: "invalid", contextLimit: "none",         timeout: short,    coverage: "client" },
  Notification:      { ...base, matcher: field("notification_type"), canBlock: false, plainStdout: "ignore", contextLimit: "none", timeout: standard, coverage: "client" },
};

Deno.test("event facts: each of the 14 events states what SPEC says about it", () => {
  const facts = (name: EventName): Row => {
    const e = EVENTS[name];
    return {
      matcher: e.matcher,
      canBlock: e.canBlock,
      plainStdout: e.plainStdout,
      contextLimit: e.contextLimit,
      timeout: e.timeout,
      asyncAllowed: e.asyncAllowed,
      mcpAllowed: e.mcpAllowed,
      spillsFeedback: e.spillsFeedback,
      endsSession: e.endsSession,
      namesSkippedHooks: e.namesSkippedHooks,
      coverage: e.coverage,
      // The loop guard's counter: per session for Stop, per agent_id for SubagentStop.
      stopGuard: e.stopGuard?.({ agent_id: "agent-1" }) ?? null,
    };
  };
  assertEquals(Object.fromEntries(EVENT_NAMES.map((n) => [n, facts(n)])), SPEC);
  assertEquals(EVENT_NAMES.map((n) => EVENTS[n].name), [...EVENT_NAMES]);
});
