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
import type { Catalog, ConfigOptions } from "./src/config/discovery.ts";
import type { DispatchIo } from "./src/engine/types.ts";
import type { DispatchTrace } from "./src/engine/trace.ts";
import type { DispatchResult } from "./src/schema/result.ts";
import { engineDispatch } from "./src/engine/dispatch.ts";
import { type EngineSettings, resolveSettings } from "./src/engine/settings.ts";
import { UsageError } from "./src/util/args.ts";
import { ok } from "./src/util/result.ts";

export type { Catalog, ConfigOptions, HookHandler } from "./src/config/discovery.ts";
export type { PinChecks, SkipReason, TrustStatus, TrustVerdict } from "./src/trust/verdict.ts";
export type { PluginInfo } from "./src/config/plugins.ts";
export type { AsyncResult, DispatchResult, RunRecord } from "./src/schema/result.ts";
export type { Warning, WarningCode } from "./src/config/warnings.ts";
export type { EventName } from "./src/events/names.ts";
export { EVENT_NAMES } from "./src/events/names.ts";
export { loadCatalog } from "./src/config/discovery.ts";
export type { DispatchIo, HostHints } from "./src/engine/types.ts";
export type { DispatchTrace, FileTrace, HandlerTrace } from "./src/engine/trace.ts";
export { newTrace } from "./src/engine/trace.ts";
/**
 * The trust verdicts on a catalog's hooks (SPEC §3.4, §3.5): status, modified reason, hash and whether
 * each may run — `assessTrust(catalog, catalog.handlers, await checkPins(catalog.handlers))`. Without
 * pin checks a hook whose layer pins files is `modified`, never `trusted` by omission; `dispatch`
 * decides the trust of the hooks it matched by itself.
 */
export { assessTrust } from "./src/trust/verdict.ts";
/** Checks the pinned files of hooks against the disk (SPEC §3.5): the input of {@link assessTrust}. */
export { checkPins } from "./src/config/pinning.ts";
export { canonicalJson, contentHash, hookHash, hookKey } from "./src/trust/hash.ts";
export { appendTranscript, transcriptPath } from "./src/session/transcript.ts";
export { TranscriptWriter } from "./src/session/transcript_writer.ts";
export { endSession } from "./src/session/end.ts";

/** Options of {@link dispatch}: discovery options (cwd defaults to the event's) plus the spill root. */
export type DispatchOptions = Omit<ConfigOptions, "home" | "cwd" | "overrides" | "env"> & {
  /**
   * The application home, an absolute path; default `$MIND_HOME`, else `~/.mind` (SPEC §1). With none
   * to be found the dispatch runs the managed and CLI layers only, writes nothing, and says `W_NO_HOME`.
   */
  home?: string;
  cwd?: string;
  /** `-c KEY=VALUE` items (SPEC §1). */
  overrides?: readonly string[];
  /** The environment (default: the process's). */
  env?: Record<string, string | undefined>;
  /** Root of spilled outputs; default `$MIND_TEMP_DIR`, else the OS temp dir. */
  tempDir?: string;
  /** A catalog already loaded (hosts that cache it); else it is loaded for this event. */
  catalog?: Catalog;
  /**
   * Extra dispatch hooks (MCP runner, async starter, …); a `trace` (from {@link newTrace}) is filled
   * with why each hook ran or not, as `dispatch --explain` shows it.
   */
  context?: Omit<DispatchIo, "catalog" | "explain"> & { trace?: DispatchTrace };
};

/** Thrown by {@link dispatch} for input that is not a valid event (the CLI's exit 1). */
export class InvalidEventError extends Error {
  override name = "InvalidEventError";
}

/** Thrown by {@link dispatch} for options the CLI refuses as a usage error (a relative or empty home). */
export class InvalidOptionsError extends Error {
  override name = "InvalidOptionsError";
}

/** Dispatches one event object; resolves to the SPEC §9 result. */
export async function dispatch(event: unknown, options: DispatchOptions = {}): Promise<DispatchResult> {
  const env = options.env ?? Deno.env.toObject();
  let settings: EngineSettings;
  try {
    settings = resolveSettings({ ...options, config: options.overrides }, env, Deno.cwd());
  } catch (e) {
    if (e instanceof UsageError) throw new InvalidOptionsError(e.message);
    throw e;
  }
  const given = options.catalog;
  const { trace, ...context } = options.context ?? {};
  const outcome = await engineDispatch(event, settings, {
    ...context,
    ...(trace ? { explain: true } : {}),
    ...(given ? { catalog: () => Promise.resolve(ok(given)) } : {}),
  });
  if (!outcome.ok) throw new InvalidEventError(outcome.error);
  // The library's trace is filled here, at the front end: the engine returns its own by value.
  if (trace && outcome.trace) Object.assign(trace, outcome.trace);
  return outcome.result;
}
