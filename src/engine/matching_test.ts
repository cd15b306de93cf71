/**
 * Identical Claude-dialect handlers (SPEC §8.1 r3): which copies collapse, which one stands, and which
 * `list` marks — whole outcomes on hand-made catalog handlers.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import type { HookHandler } from "../config/discovery.ts";
import { collapseIdentical, duplicateCopies } from "./matching.ts";

function hook(key: string, over: Partial<HookHandler> & { command?: string; timeout?: number } = {}): HookHandler {
  const { command = "sh guard.sh", timeout = 600, ...rest } = over;
  return {
    key,
    layer: "claude-project",
    event: "PreToolUse",
    matcher: "Bash",
    dialect: "claude",
    env: {},
    status: "trusted",
    enabled: true,
    handler: { type: "command", command, timeout, additionalContextLimit: 10_000 },
    ...rest,
  } as unknown as HookHandler;
}

const keys = (r: { handlers: HookHandler[]; copies: { copy: HookHandler; of: string }[] }) => ({
  handlers: r.handlers.map((h) => h.key),
  copies: r.copies.map((c) => [c.copy.key, c.of]),
});

Deno.test("collapse: identical Claude copies run once, the first standing for all; other fields, env or dialect keep them apart", () => {
  const hooks = [
    hook("a"),
    hook("m", { dialect: "mind" }),
    hook("b"),
    hook("t", { timeout: 5 }),
    hook("p", { env: { CLAUDE_PLUGIN_ROOT: "/plugins/x" } }),
    hook("m2", { dialect: "mind" }),
    hook("c", { matcher: "Bash|Edit" }),
  ];
  assertEquals(keys(collapseIdentical(hooks, false)), {
    handlers: ["a", "m", "t", "p", "m2"],
    copies: [["b", "a"], ["c", "a"]],
  });
});

Deno.test("collapse: the first copy that may run stands, so an untrusted copy never silences a trusted twin", () => {
  const hooks = [hook("a", { status: "untrusted" }), hook("b", { enabled: false }), hook("c"), hook("d")];
  assertEquals(keys(collapseIdentical(hooks, false)), {
    handlers: ["c"],
    copies: [["a", "c"], ["b", "c"], ["d", "c"]],
  });
  // None may run: the first stands, with its own skip reason.
  const none = [hook("a", { status: "untrusted" }), hook("b", { status: "modified" })];
  assertEquals(keys(collapseIdentical(none, false)), { handlers: ["a"], copies: [["b", "a"]] });
  // Under the trust bypass every enabled copy may run: the first.
  assertEquals(keys(collapseIdentical(none, true)), { handlers: ["a"], copies: [["b", "a"]] });
});

Deno.test("list: a copy is one with the same event, matcher and identity as an earlier hook", () => {
  const hooks = [
    hook("a"),
    hook("b"),
    hook("c", { matcher: "Edit" }),
    hook("d", { event: "PostToolUse" }),
    hook("e", { matcher: "Edit" }),
    hook("m", { dialect: "mind" }),
    hook("m2", { dialect: "mind" }),
  ];
  assertEquals([...duplicateCopies(hooks)], [["b", "a"], ["e", "c"]]);
});
