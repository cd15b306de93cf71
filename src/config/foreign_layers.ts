/**
 * Foreign layers (SPEC §2.8): a repository set up for Claude Code (`.claude/settings.json`,
 * `.claude/settings.local.json`) or Codex (`.codex/config.toml`, `.codex/hooks.json`) works in mind
 * unchanged. Their hooks load — only when the project is trusted, and only their `hooks` — as the
 * layers `claude-project` (Claude dialect, SPEC §8.1) and `codex-project` (mind dialect), after the
 * `.mind/` layer. *(r3)* The user's own `~/.claude/settings.json` and `~/.codex/config.toml` /
 * `~/.codex/hooks.json` load likewise as `claude-user` and `codex-user`, right after the user layer:
 * user-side files whose hooks need trust like user hooks, and that define nothing else for mind (their
 * MCP servers, feature switches and state are that host's own: a warning says so). `[hooks]
 * foreign_layers` in the user config chooses which (default all four); the delegating host's own layers are
 * never loaded in its adapter mode. *(r4)* Gemini CLI's `.gemini/settings.json` (`gemini-project`,
 * `~/.gemini/settings.json` as `gemini-user`, enabled extensions' `hooks/hooks.json` as plugins) and Copilot
 * CLI's `.github/hooks/*.json` (`copilot-project`, `~/.copilot/hooks/*.json` as `copilot-user`) load the
 * same way, in their hosts' dialects (src/dialect/).
 * @module
 */
import { isObject, type JsonObject } from "../util/json.ts";
import { join } from "../util/paths.ts";
import { type Warning, warning } from "./warnings.ts";
import { type LayerFile, loadLayerDir } from "./layer_files.ts";
import { FOREIGN_LAYERS, foreignFolder, type ForeignLayer, layerFileNames, LAYOUT } from "./foreign_layout.ts";

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
    const { userFolder, userLayer, dialect, userFiles, listsFolder } = LAYOUT[l];
    const dir = join(userHome, userFolder);
    if (listsFolder && isDir(dir)) files.push(dir);
    const loaded = await loadLayerDir(userLayer, dir, files, warnings, {
      names: userFiles(dir),
      dialect,
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
  const host = f.layer === "claude-user" ? "Claude Code's" : f.layer === "codex-user" ? "Codex's" : "";
  // Gemini CLI's and Copilot CLI's settings hold a great deal besides hooks: none of it is mind's to warn about.
  if (host === "") return out;
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
  if (Array.isArray(value) && value.every((v) => (FOREIGN_LAYERS as readonly unknown[]).includes(v))) {
    return FOREIGN_LAYERS.filter((l) => value.includes(l));
  }
  const all = FOREIGN_LAYERS.map((l) => JSON.stringify(l)).join(", ");
  warnings?.push(warning(
    "W_BAD_FIELD",
    `hooks.foreign_layers must be a list of ${all}; the default [${all}] is used`,
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
    const { folder, layer, dialect, listsFolder } = LAYOUT[l];
    const at = join(dir, folder);
    if (listsFolder && isDir(at)) files.push(at);
    out.push(
      ...await loadLayerDir(layer, at, files, warnings, {
        within: root,
        names: layerFileNames(l, at),
        dialect,
        hooksOnly: true,
      }),
    );
  }
  return out;
}

/** The files of foreign folders that may hold hooks (for "this project has hooks", `W_ABOVE_ROOT`). */
export function foreignHookFiles(dirs: readonly { layer: ForeignLayer; dir: string }[]): string[] {
  return dirs.flatMap(({ layer, dir }) => {
    const at = join(dir, LAYOUT[layer].folder);
    return layerFileNames(layer, at).map(([name]) => join(at, name));
  });
}

/**
 * Whether Gemini CLI has extension `name` enabled in `cwd`: its `extension-enablement.json` rules, the
 * last one matching the folder winning (`!` disables, a trailing `*` takes the folders below too), as
 * Gemini CLI 0.61 decides it; enabled when no rule matches.
 */
export function geminiExtensionEnabled(enablement: JsonObject | null, name: string, cwd: string): boolean {
  const entry = enablement?.[name];
  const rules = isObject(entry) && Array.isArray(entry.overrides) ? entry.overrides : [];
  let path = cwd.replaceAll("\\", "/");
  if (!path.startsWith("/")) path = "/" + path;
  if (!path.endsWith("/")) path += "/";
  let enabled = true;
  for (const rule of rules) {
    if (typeof rule !== "string") continue;
    const disable = rule.startsWith("!");
    let base = disable ? rule.slice(1) : rule;
    const subdirs = base.endsWith("*");
    if (subdirs) base = base.slice(0, -1);
    if (subdirs ? path.startsWith(base) : path === base) enabled = !disable;
  }
  return enabled;
}

/**
 * The hooks of the Gemini CLI extensions enabled for `cwd` (SPEC §2.8 r4): `~/.gemini/extensions/<name>/`
 * holding `gemini-extension.json`, their `hooks/hooks.json` loaded as plugins of the Gemini dialect, in
 * name order; `${extensionPath}` in their commands names the extension's folder, as in Gemini CLI.
 */
export async function loadGeminiExtensions(
  userHome: string | null,
  cwd: string,
  files: string[],
  warnings: Warning[],
): Promise<LayerFile[]> {
  if (userHome === null) return [];
  const root = join(userHome, ".gemini", "extensions");
  if (isDir(root)) files.push(root); // an extension installed later is seen (`serve`)
  let names: string[];
  try {
    names = [];
    for await (const e of Deno.readDir(root)) if (e.isDirectory) names.push(e.name);
  } catch {
    return [];
  }
  let enablement: JsonObject | null = null;
  try {
    const parsed = JSON.parse(await Deno.readTextFile(join(root, "extension-enablement.json")));
    if (isObject(parsed)) enablement = parsed;
  } catch {
    // none, or unreadable: every extension is enabled, as Gemini CLI takes it
  }
  const out: LayerFile[] = [];
  for (const name of names.sort()) {
    const dir = join(root, name);
    const manifest = await Deno.stat(join(dir, "gemini-extension.json")).then((i) => i.isFile, () => false);
    if (!manifest || !geminiExtensionEnabled(enablement, name, cwd)) continue;
    const loaded = await loadLayerDir("plugin", join(dir, "hooks"), files, warnings, {
      names: [["hooks.json", "json"]],
      dialect: "gemini",
      hooksOnly: true,
    });
    out.push(...loaded.map((f) => ({ ...f, extensionPath: dir })));
  }
  return out;
}

/** Whether `path` is a folder now: a listed folder is watched (`serve`) once it is there. */
function isDir(path: string): boolean {
  try {
    // sync: one stat, where an async one waits for a thread
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}
