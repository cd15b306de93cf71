/**
 * Foreign layers (SPEC §2.8): a repository set up for Claude Code (`.claude/settings.json`,
 * `.claude/settings.local.json`) or Codex (`.codex/config.toml`, `.codex/hooks.json`) works in mind
 * unchanged. Their hooks load — only when the project is trusted, and only their `hooks` — as the
 * layers `claude-project` (Claude dialect, SPEC §8.1) and `codex-project` (mind dialect), after the
 * `.mind/` layer. *(r3)* The user's own `~/.claude/settings.json` and `~/.codex/config.toml` /
 * `~/.codex/hooks.json` load likewise as `claude-user` and `codex-user`, right after the user layer:
 * user-side files whose hooks need trust like user hooks, and that define nothing else for mind (their
 * MCP servers, feature switches and state are that host's own: a warning says so). `[hooks]
 * foreign_layers` in the user config chooses which (default both); the delegating host's own layers are
 * never loaded in its adapter mode.
 * @module
 */
import { isObject, type JsonObject } from "../util/json.ts";
import { join } from "../util/paths.ts";
import { type Warning, warning } from "./warnings.ts";
import { type LayerFile, loadLayerDir } from "./layer_files.ts";
import {
  FOREIGN_LAYERS,
  foreignFolder,
  type ForeignLayer,
  layerFileNames,
  LAYOUT,
  userFileNames,
} from "./foreign_layout.ts";

export { FOREIGN_LAYERS, foreignFolder, type ForeignLayer, foreignUserFiles } from "./foreign_layout.ts";

/**
 * Loads the foreign user layers (`claude-user`, `codex-user`) of `userHome`, except `skip` (the host
 * that delegates to mind-hooks in adapter mode runs its own user hooks itself).
 */
export async function loadForeignUserLayers(
  userHome: string | null,
  layers: readonly ForeignLayer[],
  skip: ForeignLayer | undefined,
  files: string[],
  warnings: Warning[],
): Promise<LayerFile[]> {
  if (userHome === null) return [];
  const out: LayerFile[] = [];
  for (const l of layers) {
    if (l === skip) continue;
    const { folder, userLayer, claude } = LAYOUT[l];
    const loaded = await loadLayerDir(userLayer, join(userHome, folder), files, warnings, {
      names: userFileNames(l),
      dialect: claude ? "claude" : "mind",
      hooksOnly: true,
    });
    for (const f of loaded) warnings.push(...foreignUserSettingsWarnings(f));
    out.push(...loaded);
  }
  return out;
}

/** What a foreign user file holds that mind does not take from it (SPEC §2.8 r3: hooks only). */
function foreignUserSettingsWarnings(f: LayerFile): Warning[] {
  const out: Warning[] = [];
  const host = f.layer === "claude-user" ? "Claude Code's" : "Codex's";
  const ignored = (key: string, what: string) =>
    out.push(warning(
      "W_FOREIGN_USER_SETTINGS",
      `${key} in ${f.path} ${what} ${host} own: mind reads only the hooks of this file`,
      f.path,
      { path: [key] },
    ));
  for (const key of ["mcp_servers", "mcpServers"]) {
    if (f.data[key] !== undefined) ignored(key, "(MCP servers) are");
  }
  if (f.data.features !== undefined) ignored("features", "(feature switches) are");
  if (f.data.projects !== undefined) ignored("projects", "(project trust) is");
  if (f.data.disableAllHooks !== undefined) ignored("disableAllHooks", "is");
  return out;
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
