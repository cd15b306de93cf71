/**
 * What an untrusted project holds (SPEC §14 r3: "an untrusted project with hooks never reads as no
 * hooks"): per layer folder (`.mind/`, `.claude/`, `.codex/`), how many hooks its files define, read
 * with the very loaders discovery uses when the project is trusted, so the count is what a
 * `project trust` would load. Reading only: nothing here trusts, hashes into state, or runs.
 *
 * Not for the dispatch fast path (it parses an untrusted project's files, which no dispatch parses,
 * SECURITY.md): `list`, `review` and `serve`'s `hooks/list` call it through the view model, in the Worker.
 * @module
 */
import type { Layer } from "../schema/handler.ts";
import type { Warning } from "./warnings.ts";
import { checkLayerFile, type LayerFile, loadLayerDir } from "./layer_files.ts";
import { loadForeignLayers } from "./foreign_layers.ts";
import type { ForeignDir } from "./project_root.ts";
import { dirname, isInside, join } from "../util/paths.ts";
import { projectLayerEscape } from "./discovery.ts";

/** One layer folder of a project and the hooks its files define. */
export type ProjectLayerHooks = {
  /** The folder, relative to the root: `.mind`, `.claude`, `.codex`, or a nested one (`vendor/lib/.claude`). */
  folder: string;
  layer: Layer;
  /** Hooks its files define (handlers discovery would load). */
  hooks: number;
  /** The files that define them (real paths). */
  files: string[];
};

/**
 * The layer folders of the project at `root` (a real path) that define hooks, in configuration
 * order: `.mind/` (unless it leads outside the root, SPEC §3.6), then each foreign folder that loads with it
 * (SPEC §2.8 r3: from the root down to the cwd).
 */
export async function projectLayerHooks(
  root: string,
  foreign: readonly ForeignDir[],
): Promise<ProjectLayerHooks[]> {
  const scratch: string[] = [];
  const warnings: Warning[] = [];
  const files: LayerFile[] = [];
  if ((await projectLayerEscape(root)) === null) {
    files.push(...await loadLayerDir("project", join(root, ".mind"), scratch, warnings, { within: root }));
  }
  files.push(...await loadForeignLayers(root, foreign, undefined, scratch, warnings));
  const folderOf = (path: string) => {
    const dir = dirname(path);
    return dir !== root && isInside(root, dir) ? dir.slice(root.length + 1) : dir;
  };
  const out: ProjectLayerHooks[] = [];
  for (const f of files) {
    const hooks = checkLayerFile(f).handlers.length;
    if (hooks === 0) continue;
    const folder = folderOf(f.path);
    const entry = out.find((e) => e.folder === folder);
    if (entry) {
      entry.hooks += hooks;
      entry.files.push(f.path);
    } else out.push({ folder, layer: f.layer, hooks, files: [f.path] });
  }
  return out;
}
