/**
 * What is at a path, as this process can see it — or, inside the sandbox Worker, as the launcher saw it.
 * The Worker's read permission is the plan's (the home, the project's marker folders, a trusted
 * project's tree), so it may not stat the user's working folder or a repository's `.git`; the launcher,
 * which can, looks at those few paths before the Worker starts (src/sandbox/plan.ts) and hands its
 * answers over with {@link setLauncherPathFacts}.
 * @module
 */

/** A directory, another file, or nothing. */
export type PathKind = "dir" | "file" | "none";

/** The launcher's answers, by path. */
export type PathFacts = Record<string, PathKind>;

let launcherFacts: PathFacts = {};

/** Records what the sandbox launcher found (called once, in the Worker). */
export function setLauncherPathFacts(facts: PathFacts): void {
  launcherFacts = facts;
}

/** What is at `path` (links followed); null when this process may not look and the launcher did not. */
export function pathKind(path: string): PathKind | null {
  try {
    // Sync: one stat costs microseconds, where an async one waits for a thread.
    return Deno.statSync(path).isDirectory ? "dir" : "file";
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
      return Object.hasOwn(launcherFacts, path) ? launcherFacts[path] : null;
    }
    return "none";
  }
}

/** What is at each of `paths`, for the Worker (the launcher's side). */
export function pathFactsOf(paths: Iterable<string>): PathFacts {
  const out: PathFacts = {};
  for (const p of paths) out[p] = pathKind(p) ?? "none";
  return out;
}
