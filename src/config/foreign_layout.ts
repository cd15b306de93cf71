/**
 * How the foreign layers are laid out on disk (SPEC §2.8): which folder, which files, which layer
 * names, which dialect. Import-free but for paths, so the sandbox plan (on every command's start) can
 * name the files without loading the configuration readers.
 * @module
 */
import { join } from "../util/paths.ts";
import type { Layer } from "../schema/handler.ts";
import type { Dialect } from "../events/types.ts";

/** The foreign hosts whose project folders mind reads. */
export type ForeignLayer = "claude" | "codex" | "gemini" | "copilot";

/** Every foreign layer, the default of `[hooks] foreign_layers` (SPEC §2.8 r4). */
export const FOREIGN_LAYERS: readonly ForeignLayer[] = ["claude", "codex", "gemini", "copilot"];

/** The files of one folder that hold hooks, in configuration order. */
export type FileNames = readonly (readonly [name: string, kind: "toml" | "json"])[];

/** How one foreign layer is laid out. */
export type ForeignLayout = {
  /** The project folder, from the project root (`.github/hooks` for Copilot). */
  folder: string;
  layer: Layer;
  /** The user folder, from the OS user's home. */
  userFolder: string;
  userLayer: Layer;
  /** How its hooks are read (SPEC §8.1, §2.8 r4). */
  dialect: Dialect;
  /** The files of the project folder `dir` that hold hooks. */
  projectFiles(dir: string): FileNames;
  /** The files of the user folder `dir` that hold hooks (relative to it). */
  userFiles(dir: string): FileNames;
  /** What of the user folder the sandbox grants reading, relative to it (never the whole: credentials). */
  userGrants: readonly string[];
  /** Its files are the folder's listing: the folder itself is watched (`serve` sees a file added later). */
  listsFolder: boolean;
};

/** The `*.json` files of `dir`, in name order (Copilot CLI's hook folders); none when it cannot be read. */
export function jsonFilesOf(dir: string, prefix = ""): FileNames {
  try {
    const names: string[] = [];
    // sync: a folder of a few files, read once per catalog
    for (const e of Deno.readDirSync(dir)) if (e.name.endsWith(".json") && !e.isDirectory) names.push(e.name);
    return names.sort().map((n) => [prefix + n, "json"] as const);
  } catch {
    return [];
  }
}

/**
 * The host that runs a layer's hooks itself, or null (SPEC §2.8): a foreign layer is that host's own
 * settings, which it reads and runs whatever mind says (trust shown for them applies when mind, or
 * another host delegating to mind, runs them). A per-layer fact of {@link LAYOUT}, keyed by host: a
 * layer added there is covered.
 */
export function layerHost(layer: Layer): ForeignLayer | null {
  for (const host of Object.keys(LAYOUT) as ForeignLayer[]) {
    if (LAYOUT[host].layer === layer || LAYOUT[host].userLayer === layer) return host;
  }
  return null;
}

const MIND_FILES: FileNames = [["config.toml", "toml"], ["hooks.json", "json"]];

/** How each foreign layer is laid out. */
export const LAYOUT: Readonly<Record<ForeignLayer, ForeignLayout>> = {
  claude: {
    folder: ".claude",
    layer: "claude-project",
    userFolder: ".claude",
    userLayer: "claude-user",
    dialect: "claude",
    projectFiles: () => [["settings.json", "json"], ["settings.local.json", "json"]],
    userFiles: () => [["settings.json", "json"]],
    userGrants: ["settings.json"],
    listsFolder: false,
  },
  codex: {
    folder: ".codex",
    layer: "codex-project",
    userFolder: ".codex",
    userLayer: "codex-user",
    dialect: "mind",
    projectFiles: () => MIND_FILES,
    userFiles: () => MIND_FILES,
    userGrants: ["config.toml", "hooks.json"],
    listsFolder: false,
  },
  gemini: {
    folder: ".gemini",
    layer: "gemini-project",
    userFolder: ".gemini",
    userLayer: "gemini-user",
    dialect: "gemini",
    projectFiles: () => [["settings.json", "json"]],
    userFiles: () => [["settings.json", "json"]],
    // The extensions' folder too: their hooks load as plugins (SPEC §2.8 r4).
    userGrants: ["settings.json", "extensions"],
    listsFolder: false,
  },
  copilot: {
    folder: join(".github", "hooks"),
    layer: "copilot-project",
    // Copilot CLI's own user hooks: `~/.copilot/hooks/*.json` (checked against the real CLI's files).
    userFolder: join(".copilot", "hooks"),
    userLayer: "copilot-user",
    dialect: "copilot",
    projectFiles: (dir) => jsonFilesOf(dir),
    userFiles: (dir) => jsonFilesOf(dir),
    userGrants: ["."],
    listsFolder: true,
  },
};

/**
 * The files and folders of the foreign user layers (SPEC §2.8 r3, r4) under the OS user's home: what the
 * sandbox grants (never a host's whole folder, which holds its credentials).
 */
export function foreignUserFiles(userHome: string | null, layers: readonly ForeignLayer[]): string[] {
  if (userHome === null) return [];
  return layers.flatMap((l) =>
    LAYOUT[l].userGrants.map((g) =>
      g === "." ? join(userHome, LAYOUT[l].userFolder) : join(userHome, LAYOUT[l].userFolder, g)
    )
  );
}

/** The project folder of a foreign layer (`.claude`, `.codex`, `.gemini`, `.github/hooks`). */
export function foreignFolder(layer: ForeignLayer): string {
  return LAYOUT[layer].folder;
}

/** The files a foreign layer's project folder `dir` (the folder itself) may hold hooks in, in configuration order. */
export function layerFileNames(layer: ForeignLayer, dir: string): FileNames {
  return LAYOUT[layer].projectFiles(dir);
}
