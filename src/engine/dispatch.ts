/**
 * The engine's one dispatch entry (SPEC §5–§10), in stages: input → catalog → select → verdict →
 * run → fold → messages → finish. The CLI's `dispatch`, the adapters, `serve` and the library all
 * call {@link engineDispatch}; they only translate their I/O ({@link DispatchIo}).
 * @module
 */
import { type AnyCatalog, loadCatalog } from "../config/discovery.ts";
import { isStrangerRefusal, strangerWrote } from "../config/fast_path_guard.ts";
import { EVENTS } from "../events/registry.ts";
import type { DispatchResult } from "../schema/result.ts";
import { failSafeResult } from "./fail_safe.ts";
import { finish, hooksOffResult, outcomeOf, resultOf, type Settled } from "./finish.ts";
import { fold, type Folded, spillerOf } from "./fold.ts";
import { type EventInput, readInput } from "./input.ts";
import { type Dispatching, dispatchingOf, type DispatchIo, type EngineDispatchOutcome } from "./io.ts";
import { catalogProblems, closingLines, settledFacts, systemMessages } from "./messages.ts";
import { runHandlers, waitingResults } from "./run.ts";
import { decideVerdicts, select, type Selection } from "./select.ts";
import { configOptionsOf, type EngineSettings } from "./settings.ts";

export type { DispatchIo, EngineDispatchOutcome } from "./io.ts";

/** Dispatches one parsed event object (a host's, already in mind's §5 form). Bad input is an error value. */
export async function engineDispatch(
  raw: unknown,
  settings: EngineSettings,
  io: DispatchIo = {},
): Promise<EngineDispatchOutcome> {
  const input = await readInput(raw, settings.home, io.trace);
  if (!input.ok) return input.error;
  const ev = input.value;
  const refuse = io.strangers === "refuse";
  const opts = configOptionsOf(settings, settings.cwd ?? String(ev.input.cwd));
  const loaded = await (io.catalog ?? loadCatalog)(refuse ? { ...opts, strangerFiles: "refuse" } : opts);
  if (!loaded.ok) return { ok: false, error: loaded.error, ...(isStrangerRefusal(loaded) ? { sandbox: true } : {}) };
  const catalog = loaded.value;
  const d = await dispatchingOf(settings, io);
  const selection = await selectStage(ev, catalog, d);
  // The fast path's one stop (src/config/fast_path_guard.ts): after matching, before anything is run,
  // written, logged or taken, a stranger's matched hook sends the whole run to the sandbox Worker.
  const stranger = refuse ? selection?.matched.find(strangerWrote) : undefined;
  if (stranger) return { ok: false, error: `a hook a stranger wrote matched (${stranger.key})`, sandbox: true };
  const result = await dispatchSelected(ev, catalog, d, selection);
  if (io.trace) io.trace.files = await (await import("./trace.ts")).traceFiles(catalog, settings);
  return { ok: true, event: ev, catalog, result };
}

/** The select stage of a loaded catalog: null when its hooks are switched off (SPEC §2.5). */
async function selectStage(ev: EventInput, catalog: AnyCatalog, d: Dispatching): Promise<Selection | null> {
  d.trace?.catalog(catalog, ev.event);
  return catalog.hooksEnabled ? await select(ev, catalog, d) : null;
}

/** Dispatches one validated event against a loaded catalog: the stages after input and catalog. */
export async function dispatchLoaded(ev: EventInput, catalog: AnyCatalog, d: Dispatching): Promise<DispatchResult> {
  return await dispatchSelected(ev, catalog, d, await selectStage(ev, catalog, d));
}

/** The stages after select: verdict → run → fold → messages → finish (the fail-safe around the last three). */
async function dispatchSelected(
  ev: EventInput,
  catalog: AnyCatalog,
  d: Dispatching,
  selection: Selection | null,
): Promise<DispatchResult> {
  const module = EVENTS[ev.event];
  const noHome = catalog.home === null;
  const asyncResults = await waitingResults(ev, catalog, d);
  if (selection === null) return await finish(ev, catalog, d, hooksOffResult(ev, catalog, asyncResults));
  const runs = await decideVerdicts(selection, catalog, d);
  const problems = await catalogProblems(catalog);
  const ran = await runHandlers(ev, catalog, d, runs, selection.where);
  const warnings = [...catalog.warnings, ...ev.warnings, ...selection.warnings, ...ran.warnings];
  const settled: Settled = { problems, noHome, ran, asyncResults, warnings };
  const spiller = spillerOf(d, String(ev.input.session_id));
  let folded: Folded | undefined;
  // From here on the handlers' effects are known: an internal failure must not lose a deny (SPEC §15).
  try {
    folded = await fold(ev, catalog, d, ran.runs, spiller);
    const closing = await closingLines(catalog, module, ran.runs, d.delegatingHost);
    const facts = { ...settledFacts(settled, module), stopLoop: folded.stopLoop, closing };
    return await finish(ev, catalog, d, resultOf(ev.event, outcomeOf(settled, folded, systemMessages(facts))));
  } catch {
    // What was said before the failure stands: the spill's warning, or the fold's whole.
    const said = [...warnings, ...(folded?.warnings ?? spiller.warnings)];
    return await failSafeResult(ev, catalog, d, { ...settled, warnings: said });
  }
}
