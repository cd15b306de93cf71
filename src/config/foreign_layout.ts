/**
 * How the foreign layers are laid out on disk (SPEC §2.8): which folder, which files, which layer
 * names. Import-free but for paths, so the sandbox plan (on every command's start) can name the files
 * without loading the configuration readers.
 * @module
 */
import { join } from "../util/paths.ts";
import type { Layer } from "../schema/handler.ts";

/** The foreign hosts whose project folders mind reads. */
export type ForeignLayer = "claude" | "codex";

/** Every foreign layer, the default of `[hooks] foreign_layers`. */
export const FOREIGN_LAYERS: readonly ForeignLayer[] = ["claude", "codex"];

/** How one foreign layer is laid out. */
export const LAYOUT: Readonly<
  Record<ForeignLayer, { folder: string; layer: Layer; userLayer: Layer; claude: boolean }>
> = {
  claude: { folder: ".claude", layer: "claude-project", userLayer: "claude-user", claude: true },
  codex: { folder: ".codex", layer: "codex-project", userLayer: "codex-user", claude: false },
};

/** The files of a foreign host's user folder that hold its hooks (Claude Code: settings.json only). */
export function userFileNames(layer: ForeignLayer): readonly (readonly [string, "toml" | "json"])[] {
  return LAYOUT[layer].claude ? [["settings.json", "json"]] : [["config.toml", "toml"], ["hooks.json", "json"]];
}

/**
 * The files of the foreign user layers (SPEC §2.8 r3) under the OS user's home: what the sandbox grants
 * (the files, never the folders, which hold those hosts' credentials).
 */
export function foreignUserFiles(userHome: string | null, layers: readonly ForeignLayer[]): string[] {
  if (userHome === null) return [];
  return layers.flatMap((l) => userFileNames(l).map(([name]) => join(userHome, LAYOUT[l].folder, name)));
}

/** The project folder of a foreign layer (`.claude`, `.codex`). */
export function foreignFolder(layer: ForeignLayer): string {
  return LAYOUT[layer].folder;
}

/** The files a foreign layer's project folder may hold hooks in, in configuration order. */
export function layerFileNames(layer: ForeignLayer): readonly (readonly [string, "toml" | "json"])[] {
  return LAYOUT[layer].claude
    ? [["settings.json", "json"], ["settings.local.json", "json"]]
    : [["config.toml", "toml"], ["hooks.json", "json"]];
}
