/**
 * The engine's one dispatch entry (SPEC §5–§9): validate the event → load the catalog (a front end's
 * cache, or fresh) → take the async results waiting for the session → dispatch → log. The CLI's
 * `dispatch`, the adapters, `serve` and the library all call this; they only translate their I/O.
 * @module
 */
import { type AnyCatalog, type HomelessConfigOptions, loadCatalog } from "../config/discovery.ts";
import { type DispatchContext, dispatchEvent, emptyResult, type HostHints } from "../dispatch/dispatch.ts";
import type { EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import type { EventFacts, JsonObject } from "../events/types.ts";
import { type EventInput, transcriptFiller, validateEvent } from "../dispatch/input.ts";
import type { AsyncResult, DispatchResult } from "../schema/result.ts";
import { configOptionsOf, type EngineSettings } from "./settings.ts";
import type { DispatchTrace, FileTrace } from "../dispatch/trace.ts";
import type { Layer } from "../trust/hash.ts";
import { dirname, isInside, join, realPathOr } from "../util/paths.ts";
import type { StrangerFiles } from "../config/fast_path_guard.ts";

/** What a front end plugs into a dispatch; every field has the one-shot default. */
export type EngineIo = {
  /** Loads the catalog for these discovery options (`serve` passes its cache). */
  catalog?: (opts: HomelessConfigOptions) => Promise<AnyCatalog | { error: string }>;
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
  /** Build the trace of `dispatch --explain` (default false: nothing is recorded). */
  explain?: boolean;
  /**
   * `"refuse"` on the fast path (src/config/fast_path_guard.ts): the outcome is `sandbox` instead of
   * parsing a plugin or a `--hooks-file`, or of running a matched hook a stranger wrote. Default `"parse"`.
   */
  strangers?: StrangerFiles;
};

/**
 * One dispatch's outcome: the result with the event and catalog it came from (no catalog when the
 * event was refused before any configuration was read), or the input's one problem.
 */
export type EngineDispatchOutcome =
  | { ok: true; event: EventInput; catalog: AnyCatalog | null; result: DispatchResult; trace?: DispatchTrace }
  | { ok: false; error: string; sandbox?: true };

/** A tool call the event's decision gates: refusing the event must deny the call, never let it through. */
function gatesToolCall(facts: EventFacts): boolean {
  return facts.control === "tool-permission" || facts.control === "permission-request";
}

/** The identity of a refused event, as far as it can be read (the result names the session it came from). */
function refusedInput(event: EventName, value: JsonObject): EventInput {
  const sessionId = typeof value.session_id === "string" ? value.session_id : "";
  return { event, input: { hook_event_name: event, session_id: sessionId }, warnings: [] };
}

/**
 * The result for a tool event refused before its hooks could see it (SPEC §15, nesting past the
 * bound): the host reads a failed dispatch as "no hooks ran" and would run the call unchecked, so a
 * prompt-injected model could skip every guard by nesting its arguments; the call is denied instead.
 */
function refusal(event: EventName, why: string): DispatchResult {
  const reason = `mind-hooks refused this ${event}: ${why}; the tool call is denied unseen by hooks`;
  return { ...emptyResult(event, []), decision: "deny", reason, systemMessages: [reason] };
}

/** Dispatches one parsed event object (a host's, already in mind's §5 form). Bad input is an error value. */
export async function engineDispatch(
  raw: unknown,
  settings: EngineSettings,
  io: EngineIo = {},
): Promise<EngineDispatchOutcome> {
  const validated = await validateEvent(raw, transcriptFiller(settings.home));
  if (!validated.ok) {
    const refused = validated.refused;
    if (!refused || !gatesToolCall(EVENTS[refused.event])) return { ok: false, error: validated.error };
    const result = refusal(refused.event, validated.error);
    const trace = io.explain
      ? { ...(await import("../dispatch/trace.ts")).newTrace(), event: refused.event, refused: result.reason }
      : undefined;
    return { ok: true, event: refusedInput(refused.event, refused.value), catalog: null, result, trace };
  }
  const event = validated.value;
  const opts = configOptionsOf(settings, settings.cwd ?? String(event.input.cwd));
  const refuse = io.strangers === "refuse";
  const catalog = await (io.catalog ?? loadCatalog)(refuse ? { ...opts, strangerFiles: "refuse" } : opts);
  if ("error" in catalog) {
    return { ok: false, error: catalog.error, ...("sandbox" in catalog ? { sandbox: true } : {}) };
  }
  const home = catalog.home;
  // Without a home no async results wait anywhere (SPEC §1 r3).
  const takeAsync = io.takeAsync === null || (io.takeAsync === undefined && home === null)
    ? undefined
    : io.takeAsync ?? (async (sessionId: string) => {
      const { takeAsyncResults } = await import("../session/async.ts");
      return await takeAsyncResults(home!, sessionId);
    });
  // Loaded only when asked for: a dispatch without --explain records nothing.
  const tracing = io.explain ? await import("../dispatch/trace.ts") : null;
  const trace = tracing?.newTrace();
  const result = await dispatchEvent(event, catalog, {
    tempDir: settings.tempDir,
    runMcp: io.runMcp,
    startAsync: io.startAsync,
    takeAsync,
    log: io.log,
    envFile: io.envFile,
    hostHints: io.hostHints,
    trace: trace && tracing!.traceSink(trace),
    delegatingHost: settings.delegatingHost,
    strangerHooks: refuse ? "refuse" : "parse",
  });
  if ("sandbox" in result) return { ok: false, error: result.sandbox, sandbox: true };
  if (trace) trace.files = await traceFiles(catalog, settings);
  return { ok: true, event, catalog, result, ...(trace ? { trace } : {}) };
}

/** The layer a file of `catalog.files` belongs to, from where it is. */
function layerOfFile(path: string, catalog: AnyCatalog, settings: EngineSettings): Layer | null {
  if (path === settings.requirements) return "managed";
  if (settings.hooksFiles.includes(path)) return "cli";
  if (catalog.home !== null) {
    if (isInside(join(catalog.home, "profiles"), path)) return "profile";
    if (isInside(join(catalog.home, "plugins"), path)) return "plugin";
    if (dirname(path) === catalog.home) return "user";
  }
  if (catalog.userHome !== null && dirname(path) === join(catalog.userHome, ".claude")) return "claude-user";
  if (catalog.userHome !== null && dirname(path) === join(catalog.userHome, ".codex")) return "codex-user";
  if (catalog.project && isInside(join(catalog.project.root, ".mind"), path)) return "project";
  // The project's foreign folders, the root's and the nested ones below it (SPEC §2.8 r3).
  const folder = dirname(path);
  if (catalog.project && isInside(catalog.project.root, path)) {
    if (folder.endsWith("/.claude")) return "claude-project";
    if (folder.endsWith("/.codex")) return "codex-project";
  }
  return null;
}

/** The files the dispatch read or looked for, each with its layer, whether it is there and its hooks. */
async function traceFiles(catalog: AnyCatalog, settings: EngineSettings): Promise<FileTrace[]> {
  const out: FileTrace[] = [];
  for (const path of new Set(catalog.files)) {
    let present = false;
    try {
      present = (await Deno.stat(path)).isFile;
    } catch {
      // absent, or not readable here: said as absent
    }
    const real = await realPathOr(path);
    const hooks = catalog.handlers.filter((h) => h.sourcePath === real || h.sourcePath.startsWith(`${real}#`));
    const layer = layerOfFile(path, catalog, settings) ?? hooks[0]?.layer ?? null;
    // An untrusted project's files are not read at all (SPEC §2.3); discovery still names them.
    const unread = (layer === "project" || layer === "claude-project" || layer === "codex-project") &&
      catalog.project !== null && !catalog.project.trusted;
    out.push({ layer, path, state: !present ? "absent" : unread ? "not read" : "read", hooks: hooks.length });
  }
  if (catalog.handlers.some((h) => h.sourcePath === "cli-override")) {
    out.push({
      layer: "cli",
      path: "-c overrides",
      state: "read",
      hooks: catalog.handlers.filter((h) => h.sourcePath === "cli-override").length,
    });
  }
  return out;
}
