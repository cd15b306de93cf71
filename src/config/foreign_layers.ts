/**
 * Foreign project layers (SPEC §2.8): a repository set up for Claude Code (`.claude/settings.json`,
 * `.claude/settings.local.json`) or Codex (`.codex/config.toml`, `.codex/hooks.json`) works in mind
 * unchanged. Their hooks load — only when the project is trusted, and only their `hooks` — as the
 * layers `claude-project` (Claude dialect, SPEC §8.1) and `codex-project` (mind dialect), after the
 * `.mind/` layer. `[hooks] foreign_layers` in the user config chooses which (default both).
 * @module
 */
import type { JsonObject } from "../events/types.ts";
import { isObject } from "../util/json.ts";
import { join } from "../util/paths.ts";
import { type Warning, warning } from "./warnings.ts";
import { type LayerFile, loadLayerDir } from "./layer_files.ts";
import type { Layer } from "../trust/hash.ts";

/** The foreign hosts whose project folders mind reads. */
export type ForeignLayer = "claude" | "codex";

/** Every foreign layer, the default of `[hooks] foreign_layers`. */
export const FOREIGN_LAYERS: readonly ForeignLayer[] = ["claude", "codex"];

/** How one foreign layer is laid out. */
const LAYOUT: Readonly<Record<ForeignLayer, { folder: string; layer: Layer; claude: boolean }>> = {
  claude: { folder: ".claude", layer: "claude-project", claude: true },
  codex: { folder: ".codex", layer: "codex-project", claude: false },
};

/** The project folder of a foreign layer (`.claude`, `.codex`). */
export function foreignFolder(layer: ForeignLayer): string {
  return LAYOUT[layer].folder;
}

/**
 * `[hooks] foreign_layers` of the user side (`-c` over the user config.toml): the foreign layers this
 * run reads. A value that is not a list of `"claude"` / `"codex"` keeps the default, with a warning.
 */
export function foreignLayersSetting(
  userToml: JsonObject | undefined,
  cli: JsonObject,
  source: string,
  warnings?: Warning[],
): ForeignLayer[] {
  const hooksOf = (d: JsonObject | undefined) => isObject(d?.hooks) ? d.hooks : undefined;
  const value = hooksOf(cli)?.foreign_layers ?? hooksOf(userToml)?.foreign_layers;
  if (value === undefined) return [...FOREIGN_LAYERS];
  if (Array.isArray(value) && value.every((v) => v === "claude" || v === "codex")) {
    return FOREIGN_LAYERS.filter((l) => value.includes(l));
  }
  warnings?.push(warning(
    "W_BAD_FIELD",
    `hooks.foreign_layers must be a list of "claude" and "codex"; the default ["claude", "codex"] is used`,
    source,
  ));
  return [...FOREIGN_LAYERS];
}

/** The folders that mark a project root (SPEC §2.3, §2.8): `.mind`, then each foreign layer's. */
export function projectMarkers(foreign: readonly ForeignLayer[]): string[] {
  return [".mind", ...foreign.map(foreignFolder)];
}

/** The files a foreign layer's folder may hold hooks in, in configuration order. */
function layerFileNames(layer: ForeignLayer): readonly (readonly [string, "toml" | "json"])[] {
  return LAYOUT[layer].claude
    ? [["settings.json", "json"], ["settings.local.json", "json"]]
    : [["config.toml", "toml"], ["hooks.json", "json"]];
}

/**
 * Loads the foreign folders of the trusted project at `root` (a real path) in the order given (SPEC
 * §2.8 r3: by layer, outermost first), except those of `skip` (the host that delegates to mind-hooks
 * in adapter mode runs its own layer itself).
 */
export async function loadForeignLayers(
  root: string,
  dirs: readonly { layer: ForeignLayer; dir: string }[],
  skip: ForeignLayer | undefined,
  files: string[],
  warnings: Warning[],
): Promise<LayerFile[]> {
  const out: LayerFile[] = [];
  for (const { layer: l, dir } of dirs) {
    if (l === skip) continue;
    const { folder, layer, claude } = LAYOUT[l];
    out.push(
      ...await loadLayerDir(layer, join(dir, folder), files, warnings, {
        within: root,
        names: layerFileNames(l),
        dialect: claude ? "claude" : "mind",
        hooksOnly: true,
      }),
    );
  }
  return out;
}

/** The files of foreign folders that may hold hooks (for "this project has hooks", `W_ABOVE_ROOT`). */
export function foreignHookFiles(dirs: readonly { layer: ForeignLayer; dir: string }[]): string[] {
  return dirs.flatMap(({ layer, dir }) => layerFileNames(layer).map(([name]) => join(dir, LAYOUT[layer].folder, name)));
}
