/**
 * Where a hook's pinned files are taken from (SPEC §3.5): the scope of one hook — its layer's real
 * root, the command that runs, and what is never pinned. Kept apart from the hashing
 * (src/trust/pins.ts) so that discovery can describe every hook's scope without loading the
 * tokeniser and the hasher: a dispatch loads those only when a matched hook has a scope.
 * @module
 */

/** The project-layer folders whose scripts pin their whole folder (SPEC §3.5). */
export const LAYER_FOLDERS = [".mind", ".claude", ".codex"];
/** The project layers' own configuration (SPEC §2.1, §2.8): hashed as hook definitions, never pinned. */
export const PROJECT_CONFIG_FILES: readonly string[] = [
  ".mind/config.toml",
  ".mind/hooks.json",
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".codex/config.toml",
  ".codex/hooks.json",
];
/** A plugin's manifest folders (SPEC §2.6). */
export const PLUGIN_MANIFEST_FOLDERS: readonly string[] = [".mind-plugin", ".codex-plugin", ".claude-plugin"];
/** Never pinned, at any depth: what running a hook or a checkout leaves behind. */
export const SKIPPED_FOLDERS = new Set([".git", "__pycache__"]);

/** Where a hook's pins are taken from. */
export type PinScope = {
  kind: "project" | "plugin";
  /** The layer's real root. */
  root: string;
  /** The command that runs on this platform. */
  command: string;
  /** The variables whose values are known where it runs (the root's, a plugin's data folder), by name. */
  vars: Readonly<Record<string, string>>;
  /** The user's home (`~`), or null. */
  home: string | null;
  /** Root-relative files never pinned (the plugin's hooks files; the project layers' configuration). */
  excludedFiles: ReadonlySet<string>;
  /** Root-relative folders never entered (a plugin's manifest folders). */
  excludedFolders: ReadonlySet<string>;
};

/**
 * The variables that stand for a layer's root (SPEC §3.5): for a project layer, `$CLAUDE_PROJECT_DIR`
 * and `$MIND_PROJECT_DIR`; for a plugin, `$PLUGIN_ROOT` and `$CLAUDE_PLUGIN_ROOT`.
 */
export function rootVariables(kind: "project" | "plugin", root: string): Record<string, string> {
  return kind === "project"
    ? { CLAUDE_PROJECT_DIR: root, MIND_PROJECT_DIR: root }
    : { PLUGIN_ROOT: root, CLAUDE_PLUGIN_ROOT: root };
}

/** The pin scope of a project layer's hook; `env` is what the engine adds to its environment. */
export function projectScope(
  root: string,
  command: string,
  home: string | null,
  env: Readonly<Record<string, string>> = {},
): PinScope {
  return {
    kind: "project",
    root,
    command,
    vars: { ...env, ...rootVariables("project", root) },
    home,
    excludedFiles: new Set(PROJECT_CONFIG_FILES),
    excludedFolders: new Set(),
  };
}

/** The pin scope of a plugin's hook; `hooksFiles` are the root-relative hooks files its manifest names. */
export function pluginScope(
  root: string,
  command: string,
  home: string | null,
  hooksFiles: string[],
  env: Readonly<Record<string, string>> = {},
): PinScope {
  return {
    kind: "plugin",
    root,
    command,
    vars: { ...env, ...rootVariables("plugin", root) },
    home,
    excludedFiles: new Set(hooksFiles),
    excludedFolders: new Set(PLUGIN_MANIFEST_FOLDERS),
  };
}
