/**
 * `mind-hooks test [FILE|DIR...]` (SPEC §16): runs the cases of TOML test files — by default every
 * `*.toml` under the project's `.mind/tests/` — through the engine exactly as `dispatch` would, one
 * line per case and `N passed, N failed`; exit 1 on any failure. `--junit FILE` writes JUnit XML,
 * `--only KEY` runs the named hooks alone, `--untrusted` runs the hooks that are not trusted too, in a
 * throw-away copy of the project, after a y/N. `--replay SESSION|--since T` dispatches recorded events
 * again (src/cli/test_replay.ts); `--init` writes a starter file (src/cli/test_init.ts).
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, type HomeSettings, searchStart } from "../engine/settings.ts";
import { type LoadedTests, loadTestFile, testFiles } from "../testing/load.ts";
import { type CaseOutcome, runCase } from "../testing/run_cases.ts";
import { junitXml } from "../testing/junit.ts";
import { copiedRun, type HookChoice, inPlaceRun, type PreparedRun } from "../testing/copy_run.ts";
import { resolveKeys } from "../trust/actions.ts";
import { endSession } from "../session/end.ts";
import { sanitize } from "../util/terminal_text.ts";
import { absolute } from "../util/paths.ts";
import { keyTails } from "../review/display.ts";
import { type Catalog, loadCatalog } from "../config/discovery.ts";
import { handlerSummary } from "../config/handler_types/registry.ts";
import type { RunIo } from "../sandbox/launch.ts";

/** The session every case of this run is dispatched in (ended after the run: Stop guard, spill, async). */
export function testSession(): string {
  return `mind-hooks-test-${Deno.pid}`;
}

/** The keys `--only` names, resolved against the configuration in reach (an unknown one is a usage error). */
async function onlyChoice(settings: HomeSettings, only: readonly string[]): Promise<HookChoice> {
  if (only.length === 0) return () => true;
  const loaded = await loadCatalog(configOptionsOf(settings, searchStart(settings)));
  if (!loaded.ok) throw new UsageError(loaded.error);
  const resolved = resolveKeys(
    { ...loaded.value, handlers: loaded.value.handlers.filter((h) => h.layer !== "managed") },
    only,
  );
  if (!resolved.ok) throw new UsageError(`--only: ${resolved.error.replace(/; nothing written$/, "")}`);
  const keys = new Set(resolved.value.map((h) => h.key));
  return (h) => keys.has(h.key);
}

/** Shows people a key: its shortest tail in the catalog it came from. */
export function keyShower(catalog: Catalog): (key: string) => string {
  const tails = keyTails(catalog.handlers.map((h) => h.key), {
    projectRoot: catalog.project?.root ?? null,
    userHome: catalog.userHome,
  });
  return (key) => tails.get(key) ?? key;
}

/**
 * Asks `question [y/N]` on the terminal; false on anything but y/yes. Without a terminal nothing can
 * be asked: a usage error naming `--yes`.
 */
export async function confirm(question: string): Promise<boolean> {
  if (!Deno.stdin.isTerminal()) {
    throw new UsageError("--untrusted runs hooks nobody trusted: no terminal to ask on; pass --yes to run them");
  }
  await Deno.stdout.write(new TextEncoder().encode(`${question} [y/N] `));
  const buf = new Uint8Array(64);
  const n = await Deno.stdin.read(buf);
  const answer = n === null ? "" : new TextDecoder().decode(buf.subarray(0, n)).trim().toLowerCase();
  return answer === "y" || answer === "yes";
}

/** The run of `--untrusted`: every enabled hook in reach, in a copy, after saying which run untrusted. */
async function untrustedRun(settings: HomeSettings, only: HookChoice, yes: boolean): Promise<PreparedRun | null> {
  const prepared = await copiedRun(settings, (h, v) => v.skip !== "disabled" && only(h, v), true);
  if (!prepared.ok) throw new UsageError(prepared.error);
  const run = prepared.value;
  const show = keyShower(run.catalog);
  const strangers = run.running.filter((h) => {
    const s = run.verdicts.get(h.key)!.status;
    return s === "untrusted" || s === "modified";
  });
  const copyNote = run.copy ? ` in a throw-away copy of the project (${run.copy.copy})` : "";
  console.log(sanitize(`${strangers.length} hook${strangers.length === 1 ? "" : "s"} run untrusted${copyNote}:`));
  for (const h of strangers) {
    console.log(sanitize(`  ${show(h.key)}  ${handlerSummary(h.handler)}`));
  }
  let go: boolean;
  try {
    go = yes || strangers.length === 0 || await confirm("Run them for this command only?");
  } catch (e) {
    await run.copy?.dispose();
    throw e;
  }
  if (!go) {
    await run.copy?.dispose();
    console.log("nothing run");
    return null;
  }
  return run;
}

/** What will not run as the tests expect it might: an untrusted project's hooks, hooks awaiting trust. */
export function notRunning(run: PreparedRun): string[] {
  const waiting = run.catalog.handlers.filter((h) => {
    const s = run.verdicts.get(h.key)?.status;
    return s === "untrusted" || s === "modified";
  }).length;
  const p = run.catalog.project;
  const out: string[] = [];
  if (p !== null && !p.trusted && p.hasHookFiles) {
    out.push(
      `note: project ${p.root} is not trusted: its hooks do not load (mind-hooks project trust, or test --untrusted)`,
    );
  }
  if (waiting > 0) {
    out.push(
      `note: ${waiting} hook${
        waiting === 1 ? " awaits" : "s await"
      } trust and will not run (mind-hooks review, or test --untrusted)`,
    );
  }
  return out;
}

/** Reads every test file first: a bad one stops the run before any case runs. */
async function readAll(given: readonly string[], settings: HomeSettings, root: string | null): Promise<LoadedTests[]> {
  const files = await testFiles(given.map((p) => absolute(p, settings.processCwd)), root);
  if (!files.ok) throw new UsageError(files.error);
  if (files.value.length === 0) {
    const where = root === null ? "no project in reach" : `${root}/.mind/tests/ holds no *.toml`;
    throw new UsageError(`no test files (${where}); mind-hooks test --init writes one`);
  }
  const out: LoadedTests[] = [];
  for (const f of files.value) {
    const loaded = await loadTestFile(f);
    if (!loaded.ok) throw new UsageError(loaded.error);
    out.push(loaded.value);
  }
  return out;
}

/** One case's line: `ok   file: name (12 ms)`, or `FAIL file: name: what was not met`. */
export function caseLine(o: CaseOutcome, file: string): string {
  if (o.error !== null) return `ERROR ${file}: ${o.name}: ${o.error}`;
  if (o.failures.length > 0) return `FAIL ${file}: ${o.name}: ${o.failures.join("; ")}`;
  return `ok   ${file}: ${o.name} (${o.ms} ms)`;
}

/** Runs the command; returns the exit code. */
export async function testCommand(args: ParsedArgs, io: RunIo): Promise<number> {
  const { options, positionals } = args;
  if (options.init) return await (await import("./test_init.ts")).testInit(args);
  if (options.replay !== undefined || options.since !== undefined) {
    return await (await import("./test_replay.ts")).testReplay(args);
  }
  const settings = cliSettings(options);
  const only = await onlyChoice(settings, (options.only as string[] | undefined) ?? []);
  const prepared = options.untrusted
    ? await untrustedRun(settings, only, options.yes === true)
    : await inPlaceRun(settings, only).then((r) => {
      if (!r.ok) throw new UsageError(r.error);
      return r.value;
    });
  if (prepared === null) return 1;
  if (!options.untrusted) { for (const line of notRunning(prepared)) console.log(sanitize(line)); }
  const root = prepared.catalog.project?.root ?? null;
  const session = testSession();
  try {
    const files = await readAll(positionals, settings, root);
    const start = searchStart(settings);
    const run = {
      settings: prepared.settings,
      defaults: { cwd: prepared.copy ? prepared.copy.inCopy(start) : start, sessionId: session },
      strangers: io.strangers,
    };
    const outcomes: CaseOutcome[] = [];
    for (const { path, file } of files) {
      const shown = root !== null && path.startsWith(root + "/") ? path.slice(root.length + 1) : path;
      for (const c of file.case) {
        // A case's own cwd inside the project runs in the copy too.
        const moved = c.cwd !== undefined && prepared.copy ? { ...c, cwd: prepared.copy.inCopy(c.cwd) } : c;
        const o = await runCase(shown, moved, run);
        outcomes.push(o);
        console.log(sanitize(caseLine(o, shown)));
      }
    }
    const failed = outcomes.filter((o) => o.error !== null || o.failures.length > 0).length;
    console.log(`${outcomes.length - failed} passed, ${failed} failed`);
    if (typeof options.junit === "string") {
      const report = absolute(options.junit, settings.processCwd);
      try {
        await Deno.writeTextFile(report, junitXml(outcomes));
      } catch (e) {
        throw new UsageError(`--junit ${report}: cannot write it: ${(e as Error).message}`);
      }
    }
    return failed > 0 ? 1 : 0;
  } finally {
    await endSession(prepared.settings.home, prepared.settings.tempDir, session).catch(() => {});
    await prepared.copy?.dispose();
  }
}
