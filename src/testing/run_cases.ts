/**
 * Runs `mind-hooks test` cases (SPEC §16): each case's event dispatched through the engine's one entry
 * (`engineDispatch`), exactly as `mind-hooks dispatch` dispatches it — same trust, same stages, nothing
 * special-cased — or, with `host`, through that host's adapter (`adaptText`, the body of
 * `dispatch --protocol HOST`); then its expectations checked.
 * @module
 */
import { engineDispatch } from "../engine/dispatch.ts";
import type { EngineOptions, EngineSettings } from "../engine/settings.ts";
import { adaptText } from "../adapter/run.ts";
import type { StrangerFiles } from "../config/fast_path_guard.ts";
import { messageLine } from "../util/terminal_text.ts";
import { fail, ok, type Result } from "../util/result.ts";
import { type CaseDefaults, caseEvent, readHostAnswer } from "./case_event.ts";
import { type Observed, observedOf, unmet } from "./expect.ts";
import type { TestCase } from "./test_file.ts";

/** How one case went: its failures (none: passed), or the error that kept it from running. */
export type CaseOutcome = {
  /** The test file. */
  file: string;
  name: string;
  failures: string[];
  /** Why the case could not run (a bad event, a refused input), or null. */
  error: string | null;
  ms: number;
  /** What it answered, when it ran. */
  observed: Observed | null;
};

/** What every case of one run shares. */
export type CaseRun = {
  settings: EngineSettings;
  defaults: CaseDefaults;
  strangers?: StrangerFiles;
};

/** What one case's event answered through mind's protocol or its host's. */
async function observe(c: TestCase, run: CaseRun): Promise<Result<Observed>> {
  const ev = caseEvent(c, run.defaults);
  if (!ev.ok) return ev;
  if (ev.value.host !== undefined) {
    if (c.runs !== undefined) return fail("runs cannot be checked through a host: its answer names no hooks");
    // The adapter resolves the same options again, as `dispatch --protocol` does.
    const text = JSON.stringify(ev.value.input);
    const answer = await adaptText(ev.value.host, text, optionsOf(run.settings), undefined, {
      strangers: run.strangers,
    });
    if (answer.problem !== null) return fail(answer.problem);
    return ok({ ...readHostAnswer(answer.stdout), runs: null });
  }
  const outcome = await engineDispatch(ev.value.input, run.settings, { strangers: run.strangers });
  if (!outcome.ok) return fail(outcome.error);
  return ok(observedOf(outcome.result));
}

/** The engine options the settings were resolved from (paths already absolute). */
function optionsOf(s: EngineSettings): EngineOptions {
  return {
    home: s.home ?? undefined,
    ...(s.cwd !== null ? { cwd: s.cwd } : {}),
    ...(s.profile !== undefined ? { profile: s.profile } : {}),
    config: s.overrides,
    hooksFiles: s.hooksFiles,
    requirements: s.requirements,
    tempDir: s.tempDir,
    bypassTrust: s.bypassTrust,
  };
}

/** Runs one case of `file`. Never throws: an internal failure is the case's error. */
export async function runCase(file: string, c: TestCase, run: CaseRun): Promise<CaseOutcome> {
  const started = performance.now();
  let got: Result<Observed>;
  try {
    got = await observe(c, run);
  } catch (e) {
    got = fail(`internal error: ${messageLine(e)}`);
  }
  const ms = Math.round(performance.now() - started);
  if (!got.ok) return { file, name: c.name, failures: [], error: got.error, ms, observed: null };
  return { file, name: c.name, failures: unmet(c, got.value), error: null, ms, observed: got.value };
}
