/**
 * The select and verdict stages of a dispatch (SPEC §4, §6): which handlers of the event match, and
 * for each, whether trust and its enabled flag let it run — one {@link HandlerRun} per handler that
 * the later stages (run, fold, messages) work on.
 * @module
 */
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import { checkPins } from "../config/pinning.ts";
import { handlerModule } from "../config/handler_types/registry.ts";
import { assessTrust, skipWords, type TrustVerdict } from "../trust/verdict.ts";
import type { RunRecord } from "../schema/result.ts";
import type { Dispatching, EventInput, HandlerRun, Selection, Verdict } from "./types.ts";
import { collapseIdentical, matchingHandlers } from "./matching.ts";
import { runDirectory } from "./run_cwd.ts";

/** The select stage: the event's handlers whose matcher (and `if` rule) match (SPEC §4). */
export async function select(ev: EventInput, catalog: AnyCatalog, d: Dispatching): Promise<Selection> {
  const { handlers: matched, warnings } = await matchingHandlers(catalog, ev.event, ev.input, d.trace);
  // Where command hooks run (SPEC §7.1 r3: a missing cwd falls back to the root or an ancestor), looked at
  // only when a command hook matched.
  const where = matched.some((h) => handlerModule(h.handler).runsProcess)
    ? runDirectory(String(ev.input.cwd), catalog.project?.root ?? null)
    : { dir: String(ev.input.cwd), missing: false };
  return { matched, warnings, where };
}

/** The matched hooks' pin check (SPEC §3.5), the verdict's input; none when trust is bypassed. */
export type MatchedPins = Awaited<ReturnType<typeof checkPins>> | undefined;

/**
 * The pins stage, the verdict's first half: only the matched hooks' pinned files are read and hashed
 * (SPEC §3.5), and only when trust decides: against what this run executes, from where it runs and
 * its PATH (SPEC §3.5 r3).
 */
export async function matchedPins(s: Selection, catalog: AnyCatalog): Promise<MatchedPins> {
  if (catalog.bypassTrust) return undefined;
  return await checkPins(s.matched, {
    cache: catalog.pinCache,
    home: catalog.home ?? undefined,
    run: { cwd: s.where.dir },
  });
}

/**
 * The verdict stage: identical Claude-dialect copies run once (SPEC §8.1 r3), and each matched
 * handler's {@link Verdict} from its definition's trust and its checked `pins`.
 */
export function decideVerdicts(s: Selection, catalog: AnyCatalog, d: Dispatching, pins: MatchedPins): HandlerRun[] {
  // Trust is decided once, here, for the matched hooks (src/trust/verdict.ts); the later stages read the runs.
  const verdicts = assessTrust(catalog, s.matched, pins);
  const { handlers, copies } = collapseIdentical(s.matched, verdicts);
  for (const c of copies) {
    const why = `identical to ${c.of}: runs once, as Claude Code runs it`;
    d.trace?.skip(c.copy, verdicts.get(c.copy.key)!.status, why);
  }
  return handlers.map((h) => {
    const verdict = runVerdictOf(verdicts.get(h.key)!);
    if (!verdict.runs) d.trace?.skip(h, verdict.status, verdict.skip);
    return { handler: h, verdict, record: recordOf(h, verdict), completedSeq: 0 };
  });
}

/** What a dispatch does with a hook's trust verdict: whether it runs and, when not, why. */
export function runVerdictOf(v: TrustVerdict): Verdict {
  if (v.skip === null) return { runs: true, status: v.status };
  return {
    runs: false,
    status: v.status,
    skip: v.skip,
    // A modified hook says why: its definition, or which pinned file (SPEC §3.5).
    reason: skipWords(v) ?? v.skip,
    unpinned: v.skip === "modified" && v.pins?.check.unrecorded === true,
    changedGuard: v.changedGuard,
  };
}

/** A handler's run record before it ran: skipped, with its verdict's reason when it does not run. */
function recordOf(h: HookHandler, verdict: Verdict): RunRecord {
  return {
    key: h.key,
    layer: h.layer,
    status: "skipped",
    reason: verdict.runs ? null : verdict.reason,
    exit_code: null,
    duration_ms: null,
    statusMessage: h.handler.statusMessage ?? null,
  };
}

/** The runs that trust lets run. */
export function runnable(runs: readonly HandlerRun[]): HandlerRun[] {
  return runs.filter((r) => r.verdict.runs);
}
