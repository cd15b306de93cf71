/**
 * The trust verdict (SPEC §3.4, §3.5, §6) as whole outcomes: every status, the modified reasons, the
 * skip reasons with and without the trust bypass — and handlers that are plain data, so a copy or a
 * structured clone of one is judged exactly as the original.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import type { HookHandler } from "../config/discovery.ts";
import { loadCatalog } from "../config/discovery.ts";
import { checkPins } from "../config/pinning.ts";
import { compileMatcher, type Matcher } from "../matching/matcher.ts";
import { contentHashSync, hookHash } from "./hash.ts";
import { projectScope } from "./pin_scope.ts";
import type { PinCheck } from "./pins.ts";
import { assessTrust, type PinChecks, type TrustVerdict, verdictOf } from "./verdict.ts";

const OTHER_HASH = `sha256:${"0".repeat(64)}`;

type Trust = "managed" | "trusted" | "modified" | "untrusted";

/** A hand-made hook whose stored trusted hash makes its definition `trust`; `pinned` gives it a pin scope. */
function hook(key: string, trust: Trust, opts: { enabled?: boolean; pinned?: boolean } = {}): HookHandler {
  const base = {
    key,
    layer: trust === "managed" ? "managed" : opts.pinned ? "project" : "user",
    sourcePath: "/h/hooks.json",
    event: "Stop",
    matcher: null,
    compiledMatcher: compileMatcher(null) as Matcher,
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
  assertEquals(verdicts.get("t")!.hash, hookHash(hooks[1]));
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

Deno.test("verdict: a loaded catalog's handlers are plain data — a structured clone is equal and judged the same", async () => {
  const root = await Deno.makeTempDir({ prefix: "mind-verdict-" });
  try {
    const home = `${root}/home`;
    const repo = `${root}/repo`;
    await Deno.mkdir(home);
    await Deno.mkdir(`${repo}/.mind`, { recursive: true });
    const stop = (command: string) => ({ hooks: [{ type: "command", command }] });
    await Deno.writeTextFile(
      `${home}/hooks.json`,
      JSON.stringify({ hooks: { Stop: [stop("echo a"), stop("echo b")] } }),
    );
    await Deno.writeTextFile(`${repo}/.mind/hooks.json`, JSON.stringify({ hooks: { Stop: [stop("sh .mind/p.sh")] } }));
    await Deno.writeTextFile(`${repo}/.mind/p.sh`, "true\n");
    const projects = `[projects."${repo}"]\ntrust_level = "trusted"\n`;
    await Deno.writeTextFile(`${home}/config.toml`, projects);
    const opts = { home, cwd: repo, requirements: `${root}/none.toml`, env: {} };
    const first = await loadCatalog(opts);
    if (!first.ok) throw new Error(first.error);
    // Trust the first user hook and the project hook by their current hashes.
    const [a, , p] = first.value.handlers;
    const state = [a, p].map((h) => `[hooks.state."${h.key}"]\ntrusted_hash = "${hookHash(h)}"\n`).join("");
    await Deno.writeTextFile(`${home}/config.toml`, projects + state);
    const loaded = await loadCatalog(opts);
    if (!loaded.ok) throw new Error(loaded.error);
    const catalog = loaded.value;
    const clones = catalog.handlers.map((h) => structuredClone(h));
    assertEquals(clones, catalog.handlers);
    // Nothing hidden or computed on read: every own property of a handler is a plain, enumerable value.
    const accessors = catalog.handlers.flatMap((h) =>
      Object.entries(Object.getOwnPropertyDescriptors(h)).filter(([, d]) => !("value" in d) || !d.enumerable)
        .map(([name]) => name)
    );
    assertEquals(accessors, []);
    assertEquals(JSON.parse(JSON.stringify(catalog.handlers[0])), JSON.parse(JSON.stringify(clones[0])));
    const pins = await checkPins(catalog.handlers);
    const statuses = (hs: HookHandler[]) => [...assessTrust(catalog, hs, pins).values()].map((v) => v.status);
    // The project hook's file was never pinned: it was trusted before pins were recorded.
    assertEquals(statuses(catalog.handlers), ["trusted", "untrusted", "modified"]);
    assertEquals(statuses(clones), statuses(catalog.handlers));
    assertEquals([...assessTrust(catalog, clones, pins).values()], [
      ...assessTrust(catalog, catalog.handlers, pins).values(),
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
