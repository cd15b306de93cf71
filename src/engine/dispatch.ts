/**
 * The engine's one dispatch entry (SPEC §5–§10), in two halves (issue 32): {@link prepare} (input →
 * catalog → select → pins → verdict) reads only and answers plain data, {@link execute} (run → fold →
 * messages → finish) runs the hooks and returns the result, the host hints and the trace by value.
 * The CLI's `dispatch`, the adapters, `serve`, the daemon and the library all call them through
 * {@link engineDispatch}; they only translate their I/O ({@link DispatchIo}), which no stage writes into.
 * @module
 */
import { type AnyCatalog, loadCatalog } from "../config/discovery.ts";
import { isStrangerRefusal, strangerWrote } from "../config/fast_path_guard.ts";
import { homelessLine } from "../config/warnings.ts";
import { EVENTS } from "../events/registry.ts";
import type { DispatchResult } from "../schema/result.ts";
import { failSafeResult } from "./fail_safe.ts";
import { finish, hooksOffResult, outcomeOf, resultOf } from "./finish.ts";
import { fold, spillerOf } from "./fold.ts";
import { readInput } from "./input.ts";
import { dispatchingOf } from "./io.ts";
import { catalogProblems, closingLines, settledFacts, systemMessages } from "./messages.ts";
import { runHandlers, waitingResults } from "./run.ts";
import { decideVerdicts, matchedPins, select } from "./select.ts";
import { configOptionsOf, type EngineSettings } from "./settings.ts";
import {
  type Dispatching,
  type DispatchIo,
  type EngineDispatchOutcome,
  type EventInput,
  type Executed,
  type Folded,
  type HandlerRun,
  type HostHints,
  noHostHints,
  noTimes,
  type Prepared,
  type Ready,
  type Selection,
  type Settled,
  type StageTimes,
} from "./types.ts";

export type { DispatchIo, EngineDispatchOutcome } from "./types.ts";

/** Dispatches one parsed event object (a host's, already in mind's §5 form). Bad input is an error value. */
export async function engineDispatch(
  raw: unknown,
  settings: EngineSettings,
  io: DispatchIo = {},
): Promise<EngineDispatchOutcome> {
  // The sandbox Worker goes on from what the launcher's fast path prepared for this event.
  const p = io.prepared ?? await prepare(raw, settings, io);
  if (p.kind === "invalid") return { ok: false, error: p.error };
  if (p.kind === "sandbox") return { ok: false, error: p.needs.sandbox, sandbox: p.needs };
  if (p.kind === "answered") {
    return {
      ok: true,
      event: p.event,
      catalog: null,
      result: p.result,
      hostHints: noHostHints(),
      trace: p.trace,
      times: noTimes(),
    };
  }
  // The fast path's one stop (src/config/fast_path_guard.ts): after matching, before anything is run,
  // written, logged or taken, a stranger's matched hook sends the whole run to the sandbox Worker.
  if (io.strangers === "refuse" && p.strangers.length > 0) {
    const why = `a hook a stranger wrote matched (${p.strangers[0].key})`;
    return { ok: false, error: why, sandbox: { sandbox: why, prepared: handoffOf(p) } };
  }
  const x = await execute(await decide(p, settings, io), settings, io);
  // Recorded events (SPEC §16): one field test when off; the module loads only when the user records.
  if (p.catalog.record && p.catalog.home !== null) {
    await recordDispatch(p.catalog.home, p.catalog.record, raw, x.result);
  }
  return { ok: true, event: p.event, catalog: p.catalog, ...x };
}

/** Records in a stage's time the time since the last lap. */
type Lap = (stage: keyof StageTimes) => void;

/** A clock of stage times: `lap(stage)` adds the time since the last lap to `stage`'s. */
function stageClock(times: StageTimes): Lap {
  let last = performance.now();
  return (stage) => {
    const now = performance.now();
    times[stage] = (times[stage] ?? 0) + (now - last);
    last = now;
  };
}

/**
 * The reading half: the event validated, the catalog loaded, the matching hooks selected, their pins
 * checked and their verdicts decided. Nothing is run, written, logged or taken. On the fast path
 * (`io.strangers === "refuse"`) it stops before reading the pins of a stranger's matched hook.
 */
export async function prepare(raw: unknown, settings: EngineSettings, io: DispatchIo = {}): Promise<Prepared> {
  const times = noTimes();
  const lap = stageClock(times);
  const trace = io.explain ? (await import("./trace.ts")).newTrace() : undefined;
  const input = await readInput(raw, settings.home, trace, io.hostFields);
  lap("parse");
  if (!input.ok) return input.error;
  const ev = io.warnings?.length
    ? { ...input.value, warnings: [...input.value.warnings, ...io.warnings] }
    : input.value;
  const refuse = io.strangers === "refuse";
  const opts = configOptionsOf(settings, settings.cwd ?? String(ev.input.cwd));
  const loaded = await (io.catalog ?? loadCatalog)(refuse ? { ...opts, strangerFiles: "refuse" } : opts);
  lap("catalog");
  if (!loaded.ok) {
    return isStrangerRefusal(loaded)
      ? { kind: "sandbox", needs: { sandbox: loaded.error, prepared: null } }
      : { kind: "invalid", error: loaded.error };
  }
  const catalog = loaded.value;
  const d = await dispatchingOf(settings, io, trace);
  const selection = await selectStage(ev, catalog, d);
  lap("select");
  const strangers = (selection?.matched ?? []).filter(strangerWrote).map((h) => ({ key: h.key, layer: h.layer }));
  if (trace) trace.files = await (await import("./trace.ts")).traceFiles(catalog, settings);
  const ready = { kind: "ready" as const, event: ev, catalog, selection, strangers, runs: null, trace, times };
  // The fast path stops here on a stranger's matched hook: its pins are read in the sandbox Worker.
  return refuse && strangers.length > 0 ? ready : await decide(ready, settings, io);
}

/**
 * The pins and verdict stages of what {@link prepare} selected, when they are still to be decided (the
 * fast path stopped before them, and the sandbox Worker goes on from there). Reads only.
 */
async function decide(ready: Ready, settings: EngineSettings, io: DispatchIo): Promise<Ready> {
  if (ready.selection === null || ready.runs !== null) return ready;
  const times = { ...ready.times };
  const lap = stageClock(times);
  const d = await dispatchingOf(settings, io, ready.trace);
  const pins = await matchedPins(ready.selection, ready.catalog);
  lap("pins");
  const runs = decideVerdicts(ready.selection, ready.catalog, d, pins);
  lap("verdict");
  return { ...ready, runs, times };
}

/**
 * What the fast path hands the sandbox Worker: plain data (the catalog's Sets and RegExps clone; a
 * front end's file hash cache, a class, stays behind: the Worker hashes what it checks).
 */
function handoffOf(ready: Ready): Ready {
  const { pinCache: _, ...catalog } = ready.catalog;
  return { ...ready, catalog };
}

/** Appends the event as received and its decision to the session's recording (src/session/recording.ts). */
async function recordDispatch(home: string, record: { redact: string[] }, raw: unknown, result: DispatchResult) {
  await (await import("../session/recording.ts")).recordEvent(home, record, raw, result);
}

/** The select stage of a loaded catalog: null when its hooks are switched off (SPEC §2.5). */
async function selectStage(ev: EventInput, catalog: AnyCatalog, d: Dispatching): Promise<Selection | null> {
  d.trace?.catalog(catalog, ev.event);
  return catalog.hooksEnabled ? await select(ev, catalog, d) : null;
}

/**
 * The acting half, on what {@link prepare} decided: run → fold → messages → finish (the fail-safe
 * around the last three). Returns the result, the host hints and the trace by value.
 */
export async function execute(p: Ready, settings: EngineSettings, io: DispatchIo = {}): Promise<Executed> {
  const times = { ...p.times };
  const d = await dispatchingOf(settings, io, p.trace);
  const selected = p.selection !== null && p.runs !== null ? { selection: p.selection, runs: p.runs } : null;
  const { result, hostHints } = await executeStages(p.event, p.catalog, d, selected, stageClock(times));
  return { result, hostHints, times, ...(p.trace ? { trace: p.trace } : {}) };
}

/** Dispatches one validated event against a loaded catalog: every stage after input and catalog. */
export async function dispatchLoaded(ev: EventInput, catalog: AnyCatalog, d: Dispatching): Promise<DispatchResult> {
  const selection = await selectStage(ev, catalog, d);
  const runs = selection && decideVerdicts(selection, catalog, d, await matchedPins(selection, catalog));
  const selected = selection && runs ? { selection, runs } : null;
  return (await executeStages(ev, catalog, d, selected, () => {})).result;
}

/** The stages after verdict: run → fold → messages → finish (the fail-safe around the last three). */
async function executeStages(
  ev: EventInput,
  catalog: AnyCatalog,
  d: Dispatching,
  selected: { selection: Selection; runs: readonly HandlerRun[] } | null,
  lap: Lap,
): Promise<{ result: DispatchResult; hostHints: HostHints }> {
  const module = EVENTS[ev.event];
  const asyncResults = await waitingResults(ev, catalog, d);
  if (selected === null) {
    return {
      result: await finish(ev, catalog, d, hooksOffResult(ev, catalog, asyncResults)),
      hostHints: noHostHints(),
    };
  }
  const problems = await catalogProblems(catalog);
  const ran = await runHandlers(ev, catalog, d, selected.runs, selected.selection.where);
  lap("run");
  const warnings = [...catalog.warnings, ...ev.warnings, ...selected.selection.warnings, ...ran.warnings];
  const settled: Settled = {
    problems,
    noHome: homelessLine(catalog.home, catalog.warnings),
    ran,
    asyncResults,
    warnings,
  };
  const spiller = spillerOf(d, String(ev.input.session_id));
  let folded: Folded | undefined;
  // From here on the handlers' effects are known: an internal failure must not lose a deny (SPEC §15).
  try {
    folded = await fold(ev, catalog, ran.runs, spiller, d.tempDir);
    lap("fold");
    const closing = await closingLines(ev, catalog, module, ran.runs, d);
    const facts = { ...settledFacts(settled, module), stopLoop: folded.stopLoop, closing };
    const result = await finish(ev, catalog, d, resultOf(ev.event, outcomeOf(settled, folded, systemMessages(facts))));
    lap("finish");
    return { result, hostHints: folded.hostHints };
  } catch {
    // What was said before the failure stands: the spill's warning, or the fold's whole.
    const said = [...warnings, ...(folded?.warnings ?? spiller.warnings)];
    const result = await failSafeResult(ev, catalog, d, { ...settled, warnings: said });
    return { result, hostHints: folded?.hostHints ?? noHostHints() };
  }
}
