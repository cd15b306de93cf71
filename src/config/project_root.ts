/**
 * The project search (SPEC §2.3, §2.8 r3): from the cwd, which folder is the project root, and which
 * foreign folders (`.claude/`, `.codex/`) load with it.
 *
 * - The root is the nearest ancestor of the cwd (itself included) holding `.mind/`; else, inside a git
 *   repository, the outermost ancestor holding `.claude/` or `.codex/` that is not above the
 *   repository's top (the nearest ancestor holding `.git`), so that a `.claude/` Claude Code left in a
 *   parent workspace never swallows the repositories below it, and a nested one (`vendor/lib/.claude/`,
 *   even empty) never hides the project around it; else the nearest ancestor holding `.claude/` or
 *   `.codex/`.
 * - Every `.claude/`/`.codex/` folder from the root down to the cwd loads with the project, under the
 *   root's one trust: by layer (claude-project, then codex-project), outermost first. The root's own
 *   are always in the list (their files are looked for even while the folder is missing).
 * - Foreign folders above a `.mind/` root are not loaded; discovery reports those whose files hold
 *   hooks (`W_ABOVE_ROOT`).
 *
 * `$MIND_HOME` never marks a project, nor do the user's own `~/.claude` and `~/.codex` (the user's
 * foreign layers, SPEC §2.8 r3); with `foreign_layers = []` only `.mind/` marks a root.
 * @module
 */
import { join, realPathOr, searchDirs } from "../util/paths.ts";
import { pathKind } from "../util/path_facts.ts";
import { FOREIGN_LAYERS, foreignFolder, type ForeignLayer } from "./foreign_layers.ts";

/** Where the project search looks: which foreign folders mark a root, and the OS user's home. */
export type ProjectSearch = { foreign?: readonly ForeignLayer[]; userHome?: string | null };

/** One foreign folder of a project: its layer and the folder holding it (`<dir>/.claude`). */
export type ForeignDir = { layer: ForeignLayer; dir: string };

/** What the search found: the root, the foreign folders that load with it, and those above it. */
export type ProjectLayout = {
  /** The project root (a real path). */
  root: string;
  /** From the root down to the cwd, by layer then outermost first: they load with the project. */
  foreign: ForeignDir[];
  /** Above a `.mind/` root: not loaded (reported when their files hold hooks). */
  above: ForeignDir[];
};

/** Finds the project of `cwd` (SPEC §2.3, §2.8 r3), or null when there is none. */
export async function findProject(
  cwd: string,
  home: string,
  search: ProjectSearch = {},
): Promise<ProjectLayout | null> {
  const dirs = searchDirs(await realPathOr(cwd));
  const realHome = await realPathOr(home);
  const userHomes = new Set(search.userHome ? [search.userHome, await realPathOr(search.userHome)] : []);
  const foreign = search.foreign ?? FOREIGN_LAYERS;
  // Each candidate is looked at once (the root search and the folder lists ask again).
  const looked = new Map<string, boolean>();
  const holds = (dir: string, folder: string): boolean => {
    const candidate = join(dir, folder);
    if (candidate === realHome) return false;
    // The user's own ~/.claude and ~/.codex are that host's user settings, not a project's.
    if (folder !== ".mind" && userHomes.has(dir)) return false;
    let found = looked.get(candidate);
    if (found === undefined) {
      try {
        // sync: microseconds, where an async stat waits for a thread
        found = Deno.statSync(candidate).isDirectory && Deno.realPathSync(candidate) !== realHome;
      } catch {
        found = false; // missing, unreadable or a symlink loop: not a project marker
      }
      looked.set(candidate, found);
    }
    return found;
  };
  const foreignAt = (i: number) => foreign.some((l) => holds(dirs[i], foreignFolder(l)));

  let rootAt = dirs.findIndex((d) => holds(d, ".mind"));
  const mindRoot = rootAt >= 0;
  // No .mind/: the folders holding .claude/ or .codex/, nearest first; the repository's top is looked
  // for only when there is one (most searches find none, and a missing path costs a thrown error).
  const marked = mindRoot ? [] : dirs.flatMap((_, i) => foreignAt(i) ? [i] : []);
  if (marked.length > 0) {
    const gitTop = dirs.findIndex((d) => {
      const kind = pathKind(join(d, ".git"));
      return kind === "dir" || kind === "file"; // a worktree's or submodule's .git is a file
    });
    // Inside a repository: the outermost not above its top (none: no project); outside: the nearest.
    rootAt = gitTop < 0 ? marked[0] : marked.filter((i) => i <= gitTop).pop() ?? -1;
  }
  if (rootAt < 0) return null;

  // The root's own foreign folders are always looked at (a file created there later is seen, by serve
  // too); a nested or an upper one counts where it is a folder.
  const at = (from: number, to: number): ForeignDir[] => {
    const out: ForeignDir[] = [];
    for (const layer of foreign) {
      for (let i = from; from >= to ? i >= to : i <= to; from >= to ? i-- : i++) {
        const own = i === rootAt && !userHomes.has(dirs[i]);
        if (own || holds(dirs[i], foreignFolder(layer))) out.push({ layer, dir: dirs[i] });
      }
    }
    return out;
  };
  return {
    root: dirs[rootAt],
    foreign: at(rootAt, 0),
    above: mindRoot && rootAt + 1 < dirs.length ? at(rootAt + 1, dirs.length - 1) : [],
  };
}

/** The project root of `cwd` (see {@link findProject}), or null. */
export async function findProjectRoot(
  cwd: string,
  home: string,
  search: ProjectSearch = {},
): Promise<string | null> {
  return (await findProject(cwd, home, search))?.root ?? null;
}
