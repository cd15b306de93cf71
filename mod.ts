/**
 * mind-hooks as a library, for in-process TypeScript hosts: load a catalog,
 * dispatch an event, get the same result object the CLI prints (SPEC §9).
 *
 * ```ts
 * import { dispatch } from "./mod.ts";
 * const result = await dispatch(event, { home: `${Deno.env.get("HOME")}/.mind` });
 * if (result.decision === "deny") console.log(result.reason);
 * ```
 * @module
 */
import { type Catalog, type ConfigOptions, loadCatalog } from "./src/config/discovery.ts";
import { type DispatchContext, dispatchEvent } from "./src/dispatch/dispatch.ts";
import { transcriptFiller, validateEvent } from "./src/dispatch/input.ts";
import type { DispatchResult } from "./src/dispatch/result.ts";
import { takeAsyncResults } from "./src/session/async.ts";

export type { Catalog, ConfigOptions, HookHandler, TrustStatus } from "./src/config/discovery.ts";
export type { AsyncResult, DispatchResult, RunRecord } from "./src/dispatch/result.ts";
export type { Warning, WarningCode } from "./src/config/warnings.ts";
export type { EventName } from "./src/events/names.ts";
export { EVENT_NAMES } from "./src/events/names.ts";
export { loadCatalog } from "./src/config/discovery.ts";
export { canonicalJson, contentHash, hookKey } from "./src/trust/hash.ts";
export { appendTranscript, transcriptPath, TranscriptWriter } from "./src/session/transcript.ts";
export { endSession } from "./src/session/end.ts";

/** Options of {@link dispatch}: discovery options (cwd defaults to the event's) plus the spill root. */
export type DispatchOptions = Omit<ConfigOptions, "cwd"> & {
  cwd?: string;
  /** Root of spilled outputs; default the OS temp dir. */
  tempDir?: string;
  /** A catalog already loaded (hosts that cache it); else it is loaded for this event. */
  catalog?: Catalog;
  /** Extra dispatch hooks (MCP runner, async starter). */
  context?: Partial<DispatchContext>;
};

/** Thrown by {@link dispatch} for input that is not a valid event (the CLI's exit 1). */
export class InvalidEventError extends Error {
  override name = "InvalidEventError";
}

/** Dispatches one event object; resolves to the SPEC §9 result. */
export async function dispatch(event: unknown, options: DispatchOptions): Promise<DispatchResult> {
  const validated = await validateEvent(event, transcriptFiller(options.home));
  if (!validated.ok) throw new InvalidEventError(validated.error);
  const ev = validated.value;
  let catalog = options.catalog;
  if (!catalog) {
    const loaded = await loadCatalog({ ...options, cwd: options.cwd ?? String(ev.input.cwd) });
    if ("error" in loaded) throw new InvalidEventError(loaded.error);
    catalog = loaded;
  }
  const tempDir = options.tempDir ?? Deno.env.get("MIND_TEMP_DIR") ?? Deno.env.get("TMPDIR") ?? "/tmp";
  return await dispatchEvent(ev, catalog, {
    tempDir,
    takeAsync: (sid) => takeAsyncResults(catalog.home, sid),
    ...options.context,
  });
}
