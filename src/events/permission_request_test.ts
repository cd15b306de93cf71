/** PermissionRequest (SPEC §8, §9): allow or deny (+ message), the reserved fields, and any deny winning. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { assertInterprets, assertSchemaRejects, items } from "../../tests/helpers/events.ts";
import { NO_DECISION } from "./types.ts";
import { DEFAULT_DENY_MESSAGE, permissionRequest } from "./permission_request.ts";

const decision = (d: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: "PermissionRequest", decision: d },
});

Deno.test("PermissionRequest interpret: allow; deny with its message or the fixed default; reserved fields fail", () => {
  assertEquals(DEFAULT_DENY_MESSAGE, "Blocked by hook.");
  assertInterprets(permissionRequest, [
    { output: {}, outcome: { status: "completed", effect: {} } },
    // No decision: the host's normal approval flow.
    {
      output: { hookSpecificOutput: { hookEventName: "PermissionRequest" } },
      outcome: { status: "completed", effect: {} },
    },
    { output: decision({ behavior: "allow" }), outcome: { status: "completed", effect: { allow: true } } },
    {
      output: { systemMessage: "asked", ...decision({ behavior: "allow" }) },
      outcome: { status: "completed", effect: { systemMessage: "asked", allow: true } },
    },
    {
      output: decision({ behavior: "deny", message: "policy" }),
      outcome: { status: "blocked", effect: { blockReason: "policy" } },
    },
    {
      output: decision({ behavior: "deny" }),
      outcome: { status: "blocked", effect: { blockReason: "Blocked by hook." } },
    },
    {
      output: decision({ behavior: "deny", message: "" }),
      outcome: { status: "blocked", effect: { blockReason: "Blocked by hook." } },
    },
    {
      output: decision({ behavior: "deny", message: "  " }),
      outcome: { status: "blocked", effect: { blockReason: "Blocked by hook." } },
    },
    {
      output: decision({ behavior: "deny", interrupt: false }),
      outcome: { status: "blocked", effect: { blockReason: "Blocked by hook." } },
    },
    {
      output: decision({ behavior: "allow", updatedInput: {} }),
      outcome: { status: "failed", reason: "PermissionRequest hook returned reserved field updatedInput" },
    },
    {
      // Present is present, even as null.
      output: decision({ behavior: "allow", updatedInput: null }),
      outcome: { status: "failed", reason: "PermissionRequest hook returned reserved field updatedInput" },
    },
    {
      output: decision({ behavior: "allow", updatedPermissions: [] }),
      outcome: { status: "failed", reason: "PermissionRequest hook returned reserved field updatedPermissions" },
    },
    {
      output: decision({ behavior: "deny", interrupt: true }),
      outcome: { status: "failed", reason: "PermissionRequest hook returned reserved interrupt: true" },
    },
    {
      output: { continue: false },
      outcome: { status: "failed", reason: "PermissionRequest hook returned unsupported continue: false" },
    },
    {
      output: { stopReason: "s" },
      outcome: { status: "failed", reason: "PermissionRequest hook returned unsupported stopReason" },
    },
    {
      output: { suppressOutput: true },
      outcome: { status: "failed", reason: "PermissionRequest hook returned unsupported suppressOutput: true" },
    },
  ]);
});

Deno.test("PermissionRequest schema: behavior is allow or deny; nothing else in the decision; no context", () => {
  assertSchemaRejects(permissionRequest, [
    {
      output: decision({ behavior: "ask" }),
      issue: `hookSpecificOutput.decision.behavior: expected one of "allow", "deny", got string "ask"`,
    },
    { output: decision({}), issue: "hookSpecificOutput.decision.behavior: is required" },
    {
      output: decision({ behavior: "allow", scope: "session" }),
      issue: "hookSpecificOutput.decision.scope: is not an accepted field",
    },
    {
      output: { hookSpecificOutput: { hookEventName: "PermissionRequest", additionalContext: "c" } },
      issue: "hookSpecificOutput.additionalContext: is not an accepted field",
    },
    { output: { decision: "block", reason: "r" }, issue: "decision: is not an accepted field" },
  ]);
});

Deno.test("PermissionRequest aggregate: any deny wins over allows (first reason in configuration order)", () => {
  assertEquals(permissionRequest.aggregate([]), NO_DECISION);
  assertEquals(permissionRequest.aggregate(items({}, { systemMessage: "m" })), NO_DECISION);
  assertEquals(permissionRequest.aggregate(items({ allow: true }, { allow: true })), {
    ...NO_DECISION,
    decision: "allow",
  });
  assertEquals(
    permissionRequest.aggregate(items({ allow: true }, { blockReason: "first" }, { blockReason: "second" })),
    { ...NO_DECISION, decision: "deny", reason: "first" },
  );
});
