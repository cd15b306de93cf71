/**
 * Where command handlers run (SPEC §7.1 r3): the event's `cwd` — or, when that is not an existing
 * directory (the model deleted it, or it names a file), the project root, else the nearest existing
 * ancestor of the cwd, with warning `W_CWD_MISSING`. A missing cwd would make every spawn fail, and a
 * failed guard lets the tool call through: a model could switch the guards off by deleting its folder.
 * Inside the sandbox Worker the launcher's view of these paths is used (src/util/path_facts.ts).
 * @module
 */
import { absolute, dirname, searchDirs } from "../util/paths.ts";
import { pathKind } from "../util/path_facts.ts";

/** The paths {@link runDirectory} looks at for `cwd`: the cwd and its ancestors (for the sandbox launcher). */
export function runDirectoryPaths(cwd: string, processCwd: string): string[] {
  return searchDirs(absolute(cwd, processCwd));
}

/** The nearest existing ancestor directory of `path` (never `path` itself), or null when none can be seen. */
function nearestExistingAncestor(path: string): string | null {
  const parent = dirname(path);
  if (parent === path) return null;
  for (const dir of searchDirs(parent)) if (pathKind(dir) === "dir") return dir;
  return null;
}

/** Where handlers run for an event whose cwd is `cwd`, and whether that cwd was missing. */
export type RunDirectory = { dir: string; missing: boolean };

/** Where command handlers of an event with `cwd` run (SPEC §7.1 r3), the project's root preferred. */
export function runDirectory(cwd: string, projectRoot: string | null): RunDirectory {
  const kind = pathKind(absolute(cwd, Deno.cwd()));
  // Unknown (not visible here, not seen by the launcher): the spawn says what it is.
  if (kind === "dir" || kind === null) return { dir: cwd, missing: false };
  if (projectRoot !== null && pathKind(projectRoot) !== "none") return { dir: projectRoot, missing: true };
  return { dir: nearestExistingAncestor(absolute(cwd, Deno.cwd())) ?? projectRoot ?? "/", missing: true };
}

/** The one line of `W_CWD_MISSING`, in `warnings` and `systemMessages`. */
export function cwdMissingLine(cwd: string, dir: string): string {
  return `the event's cwd ${cwd} is not an existing directory: hooks ran in ${dir}`;
}
