/**
 * Identical Claude-dialect handlers (SPEC §8.1 r3): which copies collapse, which one stands, and which
 * `list` marks — whole outcomes on hand-made catalog handlers.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import type { HookHandler } from "../config/discovery.ts";
import { contentHashSync } from "../trust/hash.ts";
import { assessTrust, type TrustStatus } from "../trust/verdict.ts";
import { collapseIdentical, duplicateCopies } from "./matching.ts";

type Over = Partial<HookHandler> & { command?: string; timeout?: number; status?: TrustStatus };

/** A hand-made hook; `status` is made by its stored trusted hash (trusted unless told otherwise). */
function hook(key: string, over: Over = {}): HookHandler {
  const { command = "sh guard.sh", timeout = 600, status = "trusted", ...rest } = over;
  const h = {
    key,
    layer: "claude-project",
    event: "PreToolUse",
    matcher: "Bash",
    dialect: "claude",
    env: {},
    enabled: true,
    pins: null,
    handler: { type: "command", command, timeout, additionalContextLimit: 10_000 },
    ...rest,
  } as unknown as HookHandler;
  const hash = contentHashSync(h.event, h.matcher, h.handler, h.dialect);
  const trustedHash = status === "trusted" ? hash : status === "modified" ? `sha256:${"0".repeat(64)}` : null;
  return { ...h, trustedHash };
}

/** Collapsed as a dispatch collapses them: by their verdicts. */
function collapsed(hooks: HookHandler[], bypassTrust: boolean) {
  return collapseIdentical(hooks, assessTrust({ bypassTrust }, hooks));
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
  assertEquals(keys(collapsed(hooks, false)), {
    handlers: ["a", "m", "t", "p", "m2"],
    copies: [["b", "a"], ["c", "a"]],
  });
});

Deno.test("collapse: the first copy that may run stands, so an untrusted copy never silences a trusted twin", () => {
  const hooks = [hook("a", { status: "untrusted" }), hook("b", { enabled: false }), hook("c"), hook("d")];
  assertEquals(keys(collapsed(hooks, false)), {
    handlers: ["c"],
    copies: [["a", "c"], ["b", "c"], ["d", "c"]],
  });
  // None may run: the first stands, with its own skip reason.
  const none = [hook("a", { status: "untrusted" }), hook("b", { status: "modified" })];
  assertEquals(keys(collapsed(none, false)), { handlers: ["a"], copies: [["b", "a"]] });
  // Under the trust bypass every enabled copy may run: the first.
  assertEquals(keys(collapsed(none, true)), { handlers: ["a"], copies: [["b", "a"]] });
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
