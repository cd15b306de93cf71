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

/**
 * Loads the foreign layers of the trusted project at `root` (a real path), in configuration order,
 * except `skip` (the host that delegates to mind-hooks in adapter mode runs its own layer itself).
 */
export async function loadForeignLayers(
  root: string,
  layers: readonly ForeignLayer[],
  skip: ForeignLayer | undefined,
  files: string[],
  warnings: Warning[],
): Promise<LayerFile[]> {
  const out: LayerFile[] = [];
  for (const l of layers) {
    if (l === skip) continue;
    const { folder, layer, claude } = LAYOUT[l];
    const names = claude
      ? [["settings.json", "json"], ["settings.local.json", "json"]] as const
      : [["config.toml", "toml"], ["hooks.json", "json"]] as const;
    out.push(
      ...await loadLayerDir(layer, join(root, folder), files, warnings, {
        within: root,
        names,
        dialect: claude ? "claude" : "mind",
        hooksOnly: true,
      }),
    );
  }
  return out;
}

/** The files of the foreign layers of `root` that may hold hooks (for "this project has hooks"). */
export function foreignHookFiles(root: string, layers: readonly ForeignLayer[]): string[] {
  return layers.flatMap((l) =>
    LAYOUT[l].claude
      ? [join(root, ".claude", "settings.json"), join(root, ".claude", "settings.local.json")]
      : [join(root, ".codex", "config.toml"), join(root, ".codex", "hooks.json")]
  );
}
