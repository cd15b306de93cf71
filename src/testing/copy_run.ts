/**
 * The settings of a `mind-hooks test` run (SPEC §16). In place (plain `test`): the configuration in reach
 * as `dispatch` sees it, kept out of the recordings, with `--only` as `-c` disables of every other hook.
 * In a throw-away copy (`--untrusted`, `--replay`, review's replay): the project copied, and `-c`
 * overrides that say exactly which hooks run there — the engine itself is not told it is a test.
 * @module
 */
import { type Catalog, type HookHandler, loadCatalog } from "../config/discovery.ts";
import { catalogVerdicts } from "../config/pinning.ts";
import { configOptionsOf, type HomeSettings, searchStart } from "../engine/settings.ts";
import type { TrustVerdict } from "../trust/verdict.ts";
import { fail, ok, type Result } from "../util/result.ts";
import {
  copyProject,
  NO_RECORDING,
  type ProjectCopy,
  projectTrustOverride,
  stateOverride,
  throwawayDir,
} from "./throwaway.ts";

/** Which hooks of the real configuration run: given each one and its trust verdict. */
export type HookChoice = (h: HookHandler, verdict: TrustVerdict) => boolean;

/** A run's settings, the hooks it runs, and the copy it runs them in (null: in place). */
export type PreparedRun = {
  settings: HomeSettings;
  /** The real configuration's hooks that run (their real keys). */
  running: HookHandler[];
  catalog: Catalog;
  verdicts: ReadonlyMap<string, TrustVerdict>;
  copy: ProjectCopy | null;
};

/** The real catalog in reach and its verdicts; `withProject` loads an untrusted project's layer too (this process only). */
async function realCatalog(
  settings: HomeSettings,
  withProject: boolean,
): Promise<Result<{ catalog: Catalog; verdicts: ReadonlyMap<string, TrustVerdict> }>> {
  const start = searchStart(settings);
  let loaded = await loadCatalog(configOptionsOf(settings, start));
  if (!loaded.ok) return loaded;
  const project = loaded.value.project;
  if (withProject && project !== null && !project.trusted) {
    const overrides = [...settings.overrides, projectTrustOverride(project.root)];
    loaded = await loadCatalog(configOptionsOf({ ...settings, overrides }, start));
    if (!loaded.ok) return loaded;
  }
  return ok({ catalog: loaded.value, verdicts: await catalogVerdicts(loaded.value) });
}

/** `-c` items that disable every hook of `catalog` that does not run (managed hooks cannot be). */
function disables(catalog: Catalog, running: readonly HookHandler[], key: (k: string) => string): string[] {
  return catalog.handlers
    .filter((h) => h.layer !== "managed" && !running.includes(h))
    .map((h) => stateOverride(key(h.key), "enabled", false));
}

/** A run in place: the configuration as `dispatch` sees it; `choose` picks the hooks (`--only`). */
export async function inPlaceRun(settings: HomeSettings, choose: HookChoice): Promise<Result<PreparedRun>> {
  const real = await realCatalog(settings, false);
  if (!real.ok) return real;
  const { catalog, verdicts } = real.value;
  const running = catalog.handlers.filter((h) => choose(h, verdicts.get(h.key)!));
  const all = running.length === catalog.handlers.length;
  const overrides = [...settings.overrides, NO_RECORDING, ...(all ? [] : disables(catalog, running, (k) => k))];
  return ok({ settings: { ...settings, overrides }, running, catalog, verdicts, copy: null });
}

/**
 * A run in a throw-away copy of the project in reach: the hooks `choose` picks run there, trusted or
 * not (trust is bypassed for this process, every other hook disabled), their cwd inside the copy.
 * `withProject`: an untrusted project's hooks are in reach too (`--untrusted`).
 */
export async function copiedRun(
  settings: HomeSettings,
  choose: HookChoice,
  withProject: boolean,
): Promise<Result<PreparedRun>> {
  const real = await realCatalog(settings, withProject);
  if (!real.ok) return real;
  const { catalog, verdicts } = real.value;
  const running = catalog.handlers.filter((h) => choose(h, verdicts.get(h.key)!));
  const start = searchStart(settings);
  let copy: ProjectCopy;
  try {
    // Without a project, the hooks in reach (the user's) run in an empty throw-away folder.
    copy = await copyProject(catalog.project?.root ?? null, start, settings.tempDir);
  } catch (e) {
    return fail(`cannot copy the project into ${throwawayDir(settings.tempDir)}: ${(e as Error).message}`);
  }
  const projectLoads = catalog.project !== null && (catalog.project.trusted || withProject);
  const overrides = [
    ...settings.overrides,
    NO_RECORDING,
    ...(projectLoads ? [projectTrustOverride(copy.copy)] : []),
    ...disables(catalog, running, copy.copyKey),
  ];
  const copied: HomeSettings = { ...settings, cwd: copy.inCopy(start), overrides, bypassTrust: true };
  return ok({ settings: copied, running, catalog, verdicts, copy });
}
