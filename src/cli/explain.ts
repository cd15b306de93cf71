/**
 * `dispatch --explain`: the trace of one dispatch (src/engine/trace.ts) as lines for people, on
 * stderr: the files read, layer by layer, then one line per hook of the event — matched or not —
 * with its key, matcher result, trust status, outcome, duration and how its output was read, and
 * the decision. stdout keeps the exact result. Paths show as `list` and `review` show them (relative to
 * the project root, or with `~`), keys as their shortest telling tails, names capped: a line fits a
 * terminal instead of wrapping two or three times (`--json` of `list` keeps the absolute forms).
 * @module
 */
import type { DispatchTrace, HandlerTrace } from "../engine/trace.ts";
import type { DispatchResult } from "../schema/result.ts";
import type { StageTimes } from "../engine/types.ts";
import { capped, terminalLines } from "../util/terminal_text.ts";
import { keyTails, type PathContext, peoplePath } from "../review/display.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** What happened to one handler: its key (and name) on a line, then matcher, trust, outcome, reading below it. */
function handlerLine(t: HandlerTrace, hooksOff: boolean, key: string): string {
  const parts = [
    hooksOff
      ? "not matched (hooks are off)"
      : t.matcher === null
      ? t.match
      : `matcher ${JSON.stringify(t.matcher)}: ${t.match}`,
    `${t.status}${t.enabled ? "" : ", disabled"}`,
  ];
  if (hooksOff || t.match === "not matched") parts.push("not run");
  else if (t.skipped !== null) parts.push(`not run (${t.skipped})`);
  else if (t.outcome !== null) {
    const ran = [t.outcome, ...(t.durationMs !== null ? [`${t.durationMs} ms`] : [])].join(" in ");
    parts.push(ran);
    if (t.reading !== null) parts.push(t.reading);
  }
  const name = t.name === null ? "" : ` (${JSON.stringify(capped(t.name, 40))})`;
  return `  ${key}${name}\n      ${parts.join(" · ")}`;
}

/** The decision of a result in one line. */
function decisionLine(r: DispatchResult): string {
  const decided = r.decision === null
    ? "no decision"
    : `${r.decision}${r.reason !== null ? ` ${JSON.stringify(r.reason)}` : ""}`;
  const extra = [
    ...(r.updatedInput !== null ? ["the input rewritten"] : []),
    ...(r.continue ? [] : ["the session stops"]),
    ...(r.additionalContext.length ? [plural(r.additionalContext.length, "context text")] : []),
    plural(r.systemMessages.length, "system message"),
    plural(r.warnings.length, "warning"),
  ];
  return `result: ${decided}; ${extra.join(", ")}`;
}

/** The trace as terminal-safe text (every line sanitised, SPEC §15); `userHome` shows as `~`. */
export function renderTrace(
  trace: DispatchTrace,
  result: DispatchResult,
  how?: HowAnswered,
  userHome: string | null = null,
): string {
  const ctx: PathContext = { projectRoot: trace.project?.root ?? null, userHome };
  const tails = keyTails(trace.handlers.map((t) => t.key), ctx);
  const out: string[] = [];
  const event = trace.event ?? result.hook_event_name;
  const subjects = trace.subjects === null ? "" : ` · matchers tested against ${trace.subjects.join(", ")}`;
  out.push(`mind-hooks dispatch --explain · ${event}${subjects}`);
  if (trace.refused !== null) {
    out.push(`refused before any hook saw it: ${trace.refused}`, decisionLine(result));
    return terminalLines(out) + "\n";
  }
  if (trace.project) {
    out.push(
      `project ${peoplePath(trace.project.root, { projectRoot: null, userHome })}: ${
        trace.project.trusted ? "trusted" : "NOT trusted, its .mind/ files are not read (mind-hooks project trust)"
      }`,
    );
  }
  if (trace.managedOnly) out.push("managed policy: only managed hooks are loaded");
  if (trace.bypassTrust) out.push("--dangerously-bypass-hook-trust: every enabled hook runs, trusted or not");
  out.push("files:");
  const shown = trace.files.map((f) => peoplePath(f.path, ctx));
  const width = Math.max(0, ...shown.map((p) => p.length));
  const layerWidth = Math.max(8, ...trace.files.map((f) => (f.layer ?? "-").length));
  trace.files.forEach((f, i) => {
    const what = f.state === "read" ? plural(f.hooks, "hook") : f.state;
    out.push(`  ${(f.layer ?? "-").padEnd(layerWidth)} ${shown[i].padEnd(width)}  ${what}`);
  });
  const ran = trace.handlers.filter((t) => t.outcome !== null).length;
  const skipped = trace.handlers.filter((t) => t.match !== "not matched" && t.skipped !== null).length;
  const unmatched = trace.handlers.filter((t) => t.match === "not matched").length;
  if (!trace.hooksEnabled) out.push("hooks are turned off ([features] hooks = false): no hook runs");
  if (trace.handlers.length === 0) {
    out.push(`no hook is configured for ${event}`);
  } else {
    out.push(
      `hooks of ${event}: ${trace.handlers.length} (${ran} ran, ${skipped} matched but not run, ${unmatched} not matched)`,
    );
    for (const t of trace.handlers) {
      out.push(...handlerLine(t, !trace.hooksEnabled, tails.get(t.key) ?? t.key).split("\n"));
    }
  }
  out.push(decisionLine(result));
  if (how) out.push(...howLines(how));
  return terminalLines(out) + "\n";
}

/** Who answered and the time of each stage (issue 32). */
export type HowAnswered = { times: StageTimes; daemon: boolean };

/** The stage names in their order, as `--explain` prints them. */
const STAGES: readonly (keyof StageTimes)[] = [
  "parse",
  "catalog",
  "select",
  "verdict",
  "pins",
  "run",
  "fold",
  "finish",
];

/** `answered by the daemon` (or in-process), then each stage's time: `-` for a stage the dispatch did not reach. */
export function howLines(how: HowAnswered): string[] {
  const ms = (v: number | null) => v === null ? "-" : `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
  return [
    how.daemon ? "answered by the daemon (warm)" : "answered in-process (no daemon answered)",
    // Four stages a line: the eight on one line would wrap at 100 columns.
    `stages: ${STAGES.slice(0, 4).map((s) => `${s} ${ms(how.times[s])}`).join(" · ")}`,
    `        ${STAGES.slice(4).map((s) => `${s} ${ms(how.times[s])}`).join(" · ")}`,
  ];
}
