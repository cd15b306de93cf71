/**
 * Where command handlers run (SPEC §7.1 r3): the event's `cwd` — or, when that is not an existing
 * directory (the model deleted it, or it names a file), the project root, else the nearest existing
 * ancestor of the cwd, with warning `W_CWD_MISSING`. A missing cwd would make every spawn fail, and a
 * failed guard lets the tool call through: a model could switch the guards off by deleting its folder.
 *
 * Inside the sandbox Worker the cwd may not be readable (the plan grants the home and the project, not
 * the user's working folder): the launcher, which can read it, finds the answer before the Worker
 * starts (src/sandbox/plan.ts) and hands it over with {@link setLauncherCwdFacts}.
 * @module
 */
import { absolute, dirname, searchDirs } from "../util/paths.ts";

/** A cwd the launcher checked: null when it is an existing directory, else its nearest existing ancestor. */
export type CwdFacts = Record<string, string | null>;

let launcherFacts: CwdFacts = {};

/** Records what the sandbox launcher found about the event's cwd (called once in the Worker). */
export function setLauncherCwdFacts(facts: CwdFacts): void {
  launcherFacts = facts;
}

/** Whether `path` is an existing directory; null when this process may not look (the sandbox). */
function isDirectory(path: string): boolean | null {
  try {
    return Deno.statSync(path).isDirectory; // sync: one stat, where an async one waits for a thread
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) return null;
    return false;
  }
}

/** The nearest existing ancestor directory of `path` (never `path` itself), or null when none can be seen. */
export function nearestExistingAncestor(path: string): string | null {
  const parent = dirname(path);
  if (parent === path) return null;
  for (const dir of searchDirs(parent)) if (isDirectory(dir) === true) return dir;
  return null;
}

/** Where handlers run for an event whose cwd is `cwd`, and whether that cwd was missing. */
export type RunDirectory = { dir: string; missing: boolean };

/** Where command handlers of an event with `cwd` run (SPEC §7.1 r3), the project's root preferred. */
export function runDirectory(cwd: string, projectRoot: string | null): RunDirectory {
  const path = absolute(cwd, Deno.cwd());
  const known = Object.hasOwn(launcherFacts, path) ? launcherFacts[path] : undefined;
  const here = isDirectory(path);
  // Unknown here and not checked by the launcher: the spawn says what it is.
  if (here === true || (here === null && (known === null || known === undefined))) return { dir: cwd, missing: false };
  if (projectRoot !== null && isDirectory(projectRoot) !== false) return { dir: projectRoot, missing: true };
  const ancestor = known ?? nearestExistingAncestor(path);
  return { dir: ancestor ?? projectRoot ?? "/", missing: true };
}

/** The one line of `W_CWD_MISSING`, in `warnings` and `systemMessages`. */
export function cwdMissingLine(cwd: string, dir: string): string {
  return `the event's cwd ${cwd} is not an existing directory: hooks ran in ${dir}`;
}
