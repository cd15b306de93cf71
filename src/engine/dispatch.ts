/**
 * The engine's one dispatch entry (SPEC §5–§9): validate the event → load the catalog (a front end's
 * cache, or fresh) → take the async results waiting for the session → dispatch → log. The CLI's
 * `dispatch`, the adapters, `serve` and the library all call this; they only translate their I/O.
 * @module
 */
import { type Catalog, type ConfigOptions, loadCatalog } from "../config/discovery.ts";
import { type DispatchContext, dispatchEvent, type HostHints } from "../dispatch/dispatch.ts";
import { type EventInput, transcriptFiller, validateEvent } from "../dispatch/input.ts";
import type { AsyncResult, DispatchResult } from "../schema/result.ts";
import { configOptionsOf, type EngineSettings } from "./settings.ts";

/** What a front end plugs into a dispatch; every field has the one-shot default. */
export type EngineIo = {
  /** Loads the catalog for these discovery options (`serve` passes its cache). */
  catalog?: (opts: ConfigOptions) => Promise<Catalog | { error: string }>;
  /** Runs an mcp_tool handler; absent = the one-shot runner (Streamable HTTP only). */
  runMcp?: DispatchContext["runMcp"];
  /** Starts async handlers; absent = the detached one-shot runner. */
  startAsync?: DispatchContext["startAsync"];
  /** Takes the async results waiting for a session; absent = the one-shot store; null = leave them waiting. */
  takeAsync?: ((sessionId: string) => Promise<AsyncResult[]>) | null;
  /** Write the observation log (default true; `serve` logs off the response path). */
  log?: boolean;
  /** The host's own env file for SessionStart hooks (Claude Code's `CLAUDE_ENV_FILE` in `--protocol claude`). */
  envFile?: string;
  /** Filled with what Claude-dialect hooks decided beyond the result (the adapter forwards it). */
  hostHints?: HostHints;
};

/** One dispatch's outcome: the result with the event and catalog it came from, or the input's one problem. */
export type EngineDispatchOutcome =
  | { ok: true; event: EventInput; catalog: Catalog; result: DispatchResult }
  | { ok: false; error: string };

/** Dispatches one parsed event object (a host's, already in mind's §5 form). Bad input is an error value. */
export async function engineDispatch(
  raw: unknown,
  settings: EngineSettings,
  io: EngineIo = {},
): Promise<EngineDispatchOutcome> {
  const validated = await validateEvent(raw, transcriptFiller(settings.home));
  if (!validated.ok) return validated;
  const event = validated.value;
  const opts = configOptionsOf(settings, settings.cwd ?? String(event.input.cwd));
  const catalog = await (io.catalog ?? loadCatalog)(opts);
  if ("error" in catalog) return { ok: false, error: catalog.error };
  const takeAsync = io.takeAsync === null ? undefined : io.takeAsync ?? (async (sessionId: string) => {
    const { takeAsyncResults } = await import("../session/async.ts");
    return await takeAsyncResults(catalog.home, sessionId);
  });
  const result = await dispatchEvent(event, catalog, {
    tempDir: settings.tempDir,
    runMcp: io.runMcp,
    startAsync: io.startAsync,
    takeAsync,
    log: io.log,
    envFile: io.envFile,
    hostHints: io.hostHints,
  });
  return { ok: true, event, catalog, result };
}
