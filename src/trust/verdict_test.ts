/**
 * The trust verdict (SPEC §3.4, §3.5, §6) as whole outcomes: every status, the modified reasons, the
 * skip reasons with and without the trust bypass — and handlers that are plain data, so a structured
 * clone of one is judged exactly as the original (tests/trust_verdict_test.ts: of a loaded catalog).
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { contentHashSync } from "./hash.ts";
import { projectScope } from "./pin_scope.ts";
import type { PinCheck } from "./pins.ts";
import { type AssessedHook, assessTrust, type PinChecks, type TrustVerdict, verdictOf } from "./verdict.ts";

const OTHER_HASH = `sha256:${"0".repeat(64)}`;

type Trust = "managed" | "trusted" | "modified" | "untrusted";

/** A hand-made hook whose stored trusted hash makes its definition `trust`; `pinned` gives it a pin scope. */
function hook(key: string, trust: Trust, opts: { enabled?: boolean; pinned?: boolean } = {}): AssessedHook {
  const base = {
    key,
    layer: trust === "managed" ? "managed" : opts.pinned ? "project" : "user",
    sourcePath: "/h/hooks.json",
    event: "Stop",
    matcher: null,
    compiledMatcher: { kind: "all" },
    groupIndex: 0,
    handlerIndex: 0,
    handler: { type: "command", command: `sh ${key}.sh`, timeout: 600, async: false, additionalContextLimit: 10_000 },
    dialect: "mind",
    env: {},
  } as const;
  const hash = contentHashSync(base.event, base.matcher, base.handler, base.dialect);
  const trustedHash = trust === "trusted" ? hash : trust === "modified" ? OTHER_HASH : null;
  const pins = opts.pinned
    ? { scope: projectScope("/repo", `sh ${key}.sh`, null), stored: {}, storedUnpinnable: null, requirePins: false }
    : null;
  return { ...base, enabled: opts.enabled ?? true, trustedHash, pins };
}

/** A pin check that holds (`reason` null) or says why not. */
function pinCheck(reason: string | null, unrecorded = false): PinCheck {
  return { reason, changes: reason === null ? [] : [{ path: "a.sh", change: "changed" }], unrecorded };
}

/** The verdict without its hash and pin outcome: what a reader decides on. */
function decided(v: TrustVerdict) {
  return { status: v.status, definitionStatus: v.definitionStatus, modifiedReason: v.modifiedReason, skip: v.skip };
}

Deno.test("verdict: each status of a definition, and what a run does with it", () => {
  const hooks = [
    hook("m", "managed"),
    hook("t", "trusted"),
    hook("d", "modified"),
    hook("u", "untrusted"),
    hook("off", "trusted", { enabled: false }),
  ];
  const verdicts = assessTrust({ bypassTrust: false }, hooks);
  assertEquals(hooks.map((h) => decided(verdicts.get(h.key)!)), [
    { status: "managed", definitionStatus: "managed", modifiedReason: null, skip: null },
    { status: "trusted", definitionStatus: "trusted", modifiedReason: null, skip: null },
    { status: "modified", definitionStatus: "modified", modifiedReason: "modified", skip: "modified" },
    { status: "untrusted", definitionStatus: "untrusted", modifiedReason: null, skip: "untrusted" },
    { status: "trusted", definitionStatus: "trusted", modifiedReason: null, skip: "disabled" },
  ]);
  // The bypass runs every enabled hook; a disabled one stays off (SPEC §3.4).
  const bypassed = assessTrust({ bypassTrust: true }, hooks);
  assertEquals(hooks.map((h) => bypassed.get(h.key)!.skip), [null, null, null, null, "disabled"]);
});

Deno.test("verdict: a trusted definition with pinned files is trusted only once they were checked and hold", () => {
  const h = hook("p", "trusted", { pinned: true });
  const ctx = { bypassTrust: false };
  const current = { ok: true, files: {}, fetch: null, unpinnable: null, contents: new Map() } as const;
  const checked = (reason: string | null, unrecorded = false): PinChecks =>
    new Map([[h.key, { current, check: pinCheck(reason, unrecorded) }]]);
  assertEquals(decided(verdictOf(ctx, h)), {
    status: "modified",
    definitionStatus: "trusted",
    modifiedReason: "modified: its pinned files were not checked",
    skip: "modified",
  });
  assertEquals(decided(verdictOf(ctx, h, checked(null))), {
    status: "trusted",
    definitionStatus: "trusted",
    modifiedReason: null,
    skip: null,
  });
  const changed = verdictOf(ctx, h, checked("modified: a.sh changed", true));
  assertEquals(decided(changed), {
    status: "modified",
    definitionStatus: "trusted",
    modifiedReason: "modified: a.sh changed",
    skip: "modified",
  });
  assertEquals(changed.pins?.check.unrecorded, true);
  // A changed definition says so, whatever its files say; an untrusted one has no modified reason.
  const redefined = hook("q", "modified", { pinned: true });
  assertEquals(verdictOf(ctx, redefined).modifiedReason, "modified");
  assertEquals(verdictOf(ctx, hook("r", "untrusted", { pinned: true })).modifiedReason, null);
});

Deno.test("verdict: a handler is plain data — its structured clone is equal and judged the same", () => {
  const hooks = [hook("t", "trusted"), hook("p", "trusted", { pinned: true }), hook("u", "untrusted")];
  const clones = hooks.map((h) => structuredClone(h));
  assertEquals(clones, hooks);
  const ctx = { bypassTrust: false };
  assertEquals([...assessTrust(ctx, clones).values()], [...assessTrust(ctx, hooks).values()]);
});
