/**
 * Pinned files in the catalog (SPEC §3.4, §3.5): which hooks have a pin scope (their layer's root
 * is a project's or a plugin's, and they run a command), and the check of their stored pins
 * against the files now on disk. Written over "the layer's root", so every project-rooted layer
 * (`project`, and the foreign `*-project` layers of §2.8) and every plugin get it alike.
 *
 * The check reads and hashes files, so it is explicit and asynchronous: `dispatch` runs it for the
 * hooks its event matched, `list`, `review` and `hooks/list` for all. Its outcome is data, the input of
 * `assessTrust` (src/trust/verdict.ts); a hook not checked is `modified` there (never `trusted` by omission).
 * @module
 */
import type { DiscoveredHandler } from "./handlers.ts";
import type { AnyCatalog, HookHandler } from "./discovery.ts";
import type { HookKey, Layer } from "../schema/handler.ts";
import {
  assessTrust,
  definitionStatusOf,
  type PinChecks,
  type PinOutcome,
  type TrustVerdict,
} from "../trust/verdict.ts";
import { type PinScope, pluginScope, projectScope } from "../trust/pin_scope.ts";
import type { FileHashCache as HashCache, PinnedFiles, RunPlace } from "../trust/pins.ts";
import type { PluginInfo } from "./plugins.ts";
import { handlerModule } from "./handler_types/registry.ts";

/** The pin facts of one hook. */
export type HookPins = {
  scope: PinScope;
  /** The stored `trusted_files`, or null when the state has none. */
  stored: Readonly<Record<string, unknown>> | null;
  /** The stored `unpinnable` construct (SPEC §3.5 r3), or null. */
  storedUnpinnable: string | null;
  /** `[hooks] require_pins` (user or managed layer): an unpinnable hook is neither trusted nor run. */
  requirePins: boolean;
};

/** Whether a layer's root is a project's: `project` and the foreign project layers (`claude-project`, …). */
export function isProjectRooted(layer: Layer): boolean {
  return layer === "project" || (layer as string).endsWith("-project");
}

/** What the scope of a hook is decided from. */
export type ScopeContext = {
  projectRoot: string | null;
  plugins: readonly PluginInfo[];
  /** The user's home, for `~`. */
  home: string | null;
  os?: typeof Deno.build.os;
};

/** The pin scope of a discovered handler, or null when it pins nothing (not a command, or not rooted). */
export function pinScopeFor(d: DiscoveredHandler, ctx: ScopeContext): PinScope | null {
  const command = handlerModule(d.handler).commandText(d.handler, ctx.os ?? Deno.build.os);
  if (command === null) return null;
  // What the engine adds to the hook's environment is known where it runs (SPEC §7.1, §2.6).
  const env = { ...d.env, MIND_HOOK_EVENT: d.event };
  if (d.layer === "plugin") {
    const plugin = ctx.plugins.find((p) => p.name === d.plugin);
    return plugin ? pluginScope(plugin.root, command, ctx.home, plugin.hooksFiles, env) : null;
  }
  if (isProjectRooted(d.layer) && ctx.projectRoot !== null) {
    return projectScope(ctx.projectRoot, command, ctx.home, env);
  }
  return null;
}

/** A hook's own cache in the home keeps its command's readings from this many folders (SPEC §3.5 r3). */
const HOOK_READINGS = 8;

/**
 * Checks the pins of `hooks` against the disk (SPEC §3.5): the outcome by key, for `assessTrust`
 * (src/trust/verdict.ts); nothing is written into a hook. With `all`, hooks that are
 * not trusted by their definition are read too (so `list` can show what they would pin); else only
 * those whose stored hash matches (what `dispatch` needs). The hasher is loaded only when needed.
 *
 * File hashes come from `cache` (`serve`'s, for the process) or else, with `home`, from each hook's
 * own cache under `$MIND_HOME/hooks/trusted/` (updated when a file had to be read): an unchanged
 * pinned file then costs a stat, not a read and a hash, in a one-shot dispatch too.
 */
export async function checkPins(
  hooks: readonly HookHandler[],
  opts: { cache?: HashCache; all?: boolean; home?: string; run?: RunPlace } = {},
): Promise<PinChecks> {
  const out = new Map<HookKey, PinOutcome>();
  const trusted = (h: HookHandler) => definitionStatusOf(h) === "trusted";
  const todo = hooks.filter((h) => h.pins !== null && (opts.all || trusted(h)));
  if (todo.length === 0) return out;
  const [{ comparePins, currentPins, FileHashCache }, store] = await Promise.all([
    import("../trust/pins.ts"),
    opts.cache === undefined && opts.home !== undefined ? import("../trust/pin_cache.ts") : null,
  ]);
  await Promise.all(todo.map(async (h) => {
    const pins = h.pins!;
    const own = opts.cache ??
      (store && opts.home !== undefined && trusted(h)
        ? new FileHashCache(store.readPinHashes(opts.home, h.key), HOOK_READINGS)
        : undefined);
    const current = await currentPins(pins.scope, { cache: own, ...opts.run });
    const check = comparePins(pins.stored, current, { stored: pins.storedUnpinnable, requirePins: pins.requirePins });
    out.set(h.key, { current, check });
    if (own !== opts.cache && own?.changed && store && opts.home !== undefined) {
      try {
        store.writePinHashes(opts.home, h.key, own.entries());
      } catch {
        // A cache that cannot be written is no failure: the next dispatch reads the files again.
      }
    }
  }));
  return out;
}

/**
 * The verdicts on every hook of `catalog` as a session start names them (SPEC §6 r3): their pins
 * checked against the disk — unless trust is bypassed (nothing to decide), the trust store cannot be
 * read (no trust advice can work then, SPEC §6) or hooks are off (a dispatch then checks nothing).
 */
export async function catalogVerdicts(catalog: AnyCatalog): Promise<ReadonlyMap<HookKey, TrustVerdict>> {
  const check = catalog.hooksEnabled && catalog.trustStoreProblem === null && !catalog.bypassTrust;
  const opts = { cache: catalog.pinCache, home: catalog.home ?? undefined };
  return assessTrust(catalog, catalog.handlers, check ? await checkPins(catalog.handlers, opts) : undefined);
}

/** The stored `trusted_files` of a state table, or null: only an inline table of strings counts. */
export function storedPins(value: unknown): PinnedFiles | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const out: PinnedFiles = {};
  for (const [k, v] of Object.entries(value)) {
    // A value that is no hash still counts as recorded: it then differs, and the hook is modified.
    Object.defineProperty(out, k, { value: typeof v === "string" ? v : "", enumerable: true });
  }
  return out;
}

/**
 * What the detached async runner needs to check a queued hook's pins again before it starts it
 * (SPEC §3.5 r3, §7.2): plain JSON, written into the job file.
 */
export type PinRecheck = {
  scope: Omit<PinScope, "excludedFiles" | "excludedFolders"> & { excludedFiles: string[]; excludedFolders: string[] };
  stored: Readonly<Record<string, unknown>> | null;
  storedUnpinnable: string | null;
  requirePins: boolean;
  cwd: string;
};

/** The re-check facts of a hook about to be queued, or null when it pins nothing (or trust is bypassed). */
export function pinRecheckOf(pins: HookPins | null, cwd: string): PinRecheck | null {
  if (pins === null) return null;
  const scope = {
    ...pins.scope,
    excludedFiles: [...pins.scope.excludedFiles],
    excludedFolders: [...pins.scope.excludedFolders],
  };
  return { scope, stored: pins.stored, storedUnpinnable: pins.storedUnpinnable, requirePins: pins.requirePins, cwd };
}

/** Checks a queued hook's pins again: null when they hold, else the reason it is not started. */
export async function recheckPins(r: PinRecheck): Promise<string | null> {
  const { comparePins, currentPins } = await import("../trust/pins.ts");
  const scope: PinScope = {
    ...r.scope,
    excludedFiles: new Set(r.scope.excludedFiles),
    excludedFolders: new Set(r.scope.excludedFolders),
  };
  const current = await currentPins(scope, { cwd: r.cwd });
  return comparePins(r.stored, current, { stored: r.storedUnpinnable, requirePins: r.requirePins }).reason;
}
