/**
 * The messages stage of a dispatch (SPEC §6, §8): the one function that puts the result's
 * `systemMessages` in order, for a normal dispatch and for the fail-safe answer alike, and the lines
 * it is made from.
 * @module
 */
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import { problemLines } from "../config/problems.ts";
import type { EventModule, HandlerOutcome } from "../events/types.ts";
import { effectOf } from "./fold.ts";
import type { Dispatching, EventInput, HandlerRun, Settled } from "./types.ts";

/** The last system message of a dispatch answered by the fail-safe (fail_safe.ts, SPEC §15). */
export const ENGINE_FAILED =
  "mind-hooks failed internally while finishing this dispatch; the hooks' deny, block and stop decisions were kept, their context was dropped";

/** What the system messages of one dispatch are made from, each already decided by its stage. */
export type MessageFacts = {
  /** The configuration problems that lost hooks (SPEC §6): they come first, they explain what did not run. */
  readonly problems: readonly string[];
  /** The line of a dispatch without a home (none found, or the named one missing; SPEC §1 r3), said whatever ran; else null. */
  readonly noHome: string | null;
  /** The `W_CWD_MISSING` line, or null. */
  readonly cwdMissing: string | null;
  /** Why the async hooks could not be started, or null. */
  readonly asyncFailed: string | null;
  /** The event and its runs: each failure's line and each hook's own `systemMessage`, in configuration order. */
  readonly module: EventModule;
  readonly runs: readonly HandlerRun[];
  /** The Stop loop guard's lines (it could not count in the home; it ignored a block). */
  readonly stopLoop: readonly string[];
  /** The session start's notice, or the untrusted project's and the review lines ({@link closingLines}). */
  readonly closing: readonly string[];
  /** The engine itself failed after the hooks ran: the fail-safe answer (SPEC §15) says so last. */
  readonly engineFailed: boolean;
};

/** The ordered `systemMessages` of a dispatch: the one place their order is decided. */
export function systemMessages(f: MessageFacts): string[] {
  return [
    ...f.problems,
    ...(f.noHome !== null ? [f.noHome] : []),
    ...(f.cwdMissing !== null ? [f.cwdMissing] : []),
    ...(f.asyncFailed !== null ? [f.asyncFailed] : []),
    ...hookLines(f.module, f.runs),
    ...f.stopLoop,
    ...f.closing,
    ...(f.engineFailed ? [ENGINE_FAILED] : []),
  ];
}

/** The facts a settled dispatch already knows (the closing lines, the loop guard's and a failure come after). */
export function settledFacts(s: Settled, module: EventModule): MessageFacts {
  const { problems, noHome, ran: { cwdMissing, asyncFailed, runs } } = s;
  return { ...quietFacts(module), problems, noHome, cwdMissing, asyncFailed, runs };
}

/** The facts of a dispatch that ran nothing and has nothing to say (yet). */
export function quietFacts(module: EventModule): MessageFacts {
  return {
    problems: [],
    noHome: null,
    cwdMissing: null,
    asyncFailed: null,
    module,
    runs: [],
    stopLoop: [],
    closing: [],
    engineFailed: false,
  };
}

/** Each failed run's line and each completed run's own `systemMessage`, in configuration order. */
function hookLines(module: EventModule, runs: readonly HandlerRun[]): string[] {
  return runs.flatMap((r) => {
    if (!r.outcome) return [];
    const own = effectOf(module, r.handler, r.outcome)?.systemMessage;
    return [
      ...(r.outcome.status === "failed" ? [failureLine(r.handler, r.outcome)] : []),
      ...(own ? [own] : []),
    ];
  });
}

/** The system message line of a failed handler (SPEC §8: a failure is never silent). */
function failureLine(h: HookHandler, o: HandlerOutcome & { status: "failed" }): string {
  return `hook ${h.key} failed: ${o.reason}${o.systemMessage ? ` (${o.systemMessage})` : ""}`;
}

/**
 * The lines that close a dispatch's messages: a session start names every hook in reach that will
 * not run, of any event (SPEC §6 r3); any other event says when an untrusted project has hooks and
 * how many matched hooks need review; then the front end's own (`io.closing`: the adapter's "this host
 * was never told" line). `failSafe`: a part that fails is left out (the engine already failed once;
 * its answer must still come).
 */
export async function closingLines(
  ev: EventInput,
  catalog: AnyCatalog,
  module: EventModule,
  runs: readonly HandlerRun[],
  d: Dispatching,
  failSafe = false,
): Promise<string[]> {
  const parts: (() => string[] | Promise<string[]>)[] = module.namesSkippedHooks
    ? [async () => await (await import("./session_notice.ts")).sessionStartLines(catalog, d.delegatingHost)]
    : [() => untrustedProjectLines(catalog), () => reviewLines(catalog, runs)];
  const frontEnd = d.io.closing;
  if (frontEnd) parts.push(() => frontEnd(ev, catalog));
  const out: string[] = [];
  for (const part of parts) {
    out.push(...failSafe ? await Promise.resolve().then(part).catch(() => []) : await part());
  }
  return out;
}

/** Never silent: the repository has hooks that cannot run until the project is trusted. */
function untrustedProjectLines(catalog: AnyCatalog): string[] {
  const p = catalog.project;
  if (!p || p.trusted || !p.hasHookFiles || catalog.trustStoreProblem !== null) return [];
  return [`project ${p.root} has hooks but is not trusted: run mind-hooks project trust ${p.root}`];
}

/**
 * The "N hooks need review" line when any matched hook was skipped for trust (SPEC §6), and once the
 * hooks among them trusted before their files were pinned (SPEC §3.5). None when the trust store
 * cannot be read: then no trust advice can work, only the fix of the file (the problem line).
 */
function reviewLines(catalog: AnyCatalog, runs: readonly HandlerRun[]): string[] {
  const skipped = runs.flatMap((r) => !r.verdict.runs && r.verdict.skip !== "disabled" ? [r.verdict] : []);
  const n = skipped.length;
  if (n === 0 || catalog.trustStoreProblem !== null) return [];
  const lines = [`${n} hook${n === 1 ? "" : "s"} need${n === 1 ? "s" : ""} review: run mind-hooks review`];
  const u = skipped.filter((v) => v.unpinned).length;
  if (u > 0) {
    lines.push(
      `${u} of them ${u === 1 ? "was" : "were"} trusted before mind-hooks pinned the files hooks run: one review pins ${
        u === 1 ? "its" : "their"
      } files`,
    );
  }
  return lines;
}

/** The configuration problem lines of a catalog (SPEC §6), computed once per loaded catalog. */
export function catalogProblems(catalog: AnyCatalog): Promise<string[]> {
  const cached = problemCache.get(catalog);
  if (cached) return cached;
  const lines = problemLines(catalog.warnings, { userConfigPath: catalog.userConfigPath, userHome: catalog.userHome });
  problemCache.set(catalog, lines);
  return lines;
}
const problemCache = new WeakMap<AnyCatalog, Promise<string[]>>();
