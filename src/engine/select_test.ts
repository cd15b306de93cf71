/**
 * What a dispatch does with one matched handler's trust verdict (SPEC §3.4–§3.5, §6), whole: whether
 * it runs, its status, and when it does not run, why — a modified hook says which definition or file
 * changed, and whether it was trusted before its files were pinned. (The verdicts themselves:
 * src/trust/verdict_test.ts.)
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import type { TrustVerdict } from "../trust/verdict.ts";
import { runVerdictOf } from "./select.ts";

function verdict(fields: Partial<TrustVerdict>): TrustVerdict {
  return {
    status: "trusted",
    definitionStatus: "trusted",
    modifiedReason: null,
    skip: null,
    pins: null,
    changedGuard: null,
    ...fields,
  };
}

Deno.test("verdict: trusted and managed run; untrusted, modified and disabled do not, each saying why", () => {
  assertEquals(runVerdictOf(verdict({})), { runs: true, status: "trusted" });
  assertEquals(runVerdictOf(verdict({ status: "managed" })), { runs: true, status: "managed" });
  assertEquals(runVerdictOf(verdict({ status: "untrusted", skip: "untrusted" })), {
    runs: false,
    status: "untrusted",
    skip: "untrusted",
    reason: "untrusted",
    unpinned: false,
    changedGuard: null,
  });
  assertEquals(runVerdictOf(verdict({ skip: "disabled" })), {
    runs: false,
    status: "trusted",
    skip: "disabled",
    reason: "disabled",
    unpinned: false,
    changedGuard: null,
  });
  const changed = verdict({
    status: "modified",
    modifiedReason: "modified: check.py changed",
    skip: "modified",
    pins: {
      current: { files: {}, contents: new Map(), fetch: null, unpinnable: null } as never,
      check: { reason: "modified: check.py changed", changes: [], unrecorded: true },
    },
  });
  assertEquals(runVerdictOf(changed), {
    runs: false,
    status: "modified",
    skip: "modified",
    reason: "modified: check.py changed",
    unpinned: true,
    changedGuard: null,
  });
  // --dangerously-bypass-hook-trust (SPEC §3.4): an untrusted hook runs (assessTrust gives no skip).
  assertEquals(runVerdictOf(verdict({ status: "untrusted" })), { runs: true, status: "untrusted" });
});
