/**
 * The verdict of one matched handler (SPEC §3.4–§3.5, §6), whole: whether it runs, its status once
 * its pins were checked, and when it does not run, why — a modified hook says which definition or
 * file changed, and whether it was trusted before its files were pinned.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import type { HookHandler } from "../config/discovery.ts";
import { verdictOf } from "./select.ts";

function hook(fields: Record<string, unknown>): HookHandler {
  return { status: "trusted", enabled: true, modifiedReason: null, pins: null, ...fields } as unknown as HookHandler;
}

Deno.test("verdict: trusted and managed run; untrusted, modified and disabled do not, each saying why", () => {
  assertEquals(verdictOf(hook({}), false), { runs: true, status: "trusted" });
  assertEquals(verdictOf(hook({ status: "managed", enabled: false }), false), { runs: true, status: "managed" });
  assertEquals(verdictOf(hook({ status: "untrusted" }), false), {
    runs: false,
    status: "untrusted",
    skip: "untrusted",
    reason: "untrusted",
    unpinned: false,
  });
  assertEquals(verdictOf(hook({ status: "trusted", enabled: false }), false), {
    runs: false,
    status: "trusted",
    skip: "disabled",
    reason: "disabled",
    unpinned: false,
  });
  const changed = hook({
    status: "modified",
    modifiedReason: "modified: check.py changed",
    pins: { check: { unrecorded: true } },
  });
  assertEquals(verdictOf(changed, false), {
    runs: false,
    status: "modified",
    skip: "modified",
    reason: "modified: check.py changed",
    unpinned: true,
  });
  // --dangerously-bypass-hook-trust (SPEC §3.4): trust is not asked, the enabled flag still is.
  assertEquals(verdictOf(hook({ status: "untrusted" }), true), { runs: true, status: "untrusted" });
  assertEquals(verdictOf(hook({ status: "untrusted", enabled: false }), true).runs, false);
});
