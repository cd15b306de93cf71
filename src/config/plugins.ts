/**
 * Plugins (SPEC §2.6): `$MIND_HOME/plugins/<name>/`, enabled by
 * `[plugins."<name>"] enabled = true`. The manifest is
 * `.mind-plugin/plugin.json`, or a Codex (`.codex-plugin/`) or Claude Code
 * (`.claude-plugin/`) one read the same way, so those plugins install
 * unchanged (precedence: see {@link chooseManifest}; the hooks of a
 * `.claude-plugin` manifest are of the Claude dialect). Hooks come from the
 * manifest's `hooks` field (a `./` path, an array of them, an inline hooks
 * object, or an array of those), else from `hooks/hooks.json`. Paths must
 * stay inside the plugin root.
 * @module
 */
import { collectHandlers, type DiscoveredHandler } from "./handlers.ts";
import { loadConfigFile } from "./files.ts";
import { outsideRootWarning, type Warning, warning } from "./warnings.ts";
import { isInside, join, realPathOr } from "../util/paths.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { readServers, type ServerDef } from "./mcp_servers.ts";
import { fail, ok, type Result } from "../util/result.ts";

const MANIFESTS = [
  ".mind-plugin/plugin.json",
  ".codex-plugin/plugin.json",
  ".claude-plugin/plugin.json",
];

/** An enabled plugin. */
export type PluginInfo = {
  name: string;
  root: string;
  dataDir: string;
  manifest: string | null;
  /** Root-relative hooks files its manifest names (or the default `hooks/hooks.json`): hashed as hook
   * definitions, so never among the files its hooks pin (SPEC §3.5). */
  hooksFiles: string[];
};

/** The environment a plugin's commands get. */
export function pluginEnv(
  root: string,
  dataDir: string,
): Record<string, string> {
  return {
    PLUGIN_ROOT: root,
    PLUGIN_DATA: dataDir,
    CLAUDE_PLUGIN_ROOT: root,
    CLAUDE_PLUGIN_DATA: dataDir,
  };
}

/** What the enabled plugins hold. */
export type LoadedPlugins = {
  handlers: DiscoveredHandler[];
  warnings: Warning[];
  plugins: PluginInfo[];
  /** Each plugin's own MCP servers (SPEC §2.6, §2.7), by plugin name: for its own hooks only. */
  servers: Map<string, Map<string, ServerDef>>;
};

/** One manifest of a plugin (its real path inside the root). */
type Manifest = { path: string; data: JsonObject; dir: (typeof MANIFESTS)[number] };

/** The manifests a plugin has, in {@link MANIFESTS} order, or why the plugin is refused. */
async function findManifests(
  root: string,
  files: string[],
  warnings: Warning[],
): Promise<Result<Manifest[], Warning>> {
  const out: Manifest[] = [];
  for (const m of MANIFESTS) {
    const p = join(root, m);
    files.push(p);
    const real = await realPathOr(p);
    if (!isInside(root, real)) {
      // A manifest folder or file linking elsewhere would lend this plugin another's hooks (and keys).
      return fail(outsideRootWarning(p, real, "plugin"));
    }
    const loaded = await loadConfigFile(real, "json");
    if (loaded.ok) {
      warnings.push(...loaded.value.warnings);
      out.push({ path: real, data: loaded.value.data, dir: m });
    } else if (!loaded.error.missing) warnings.push(loaded.error.warning);
  }
  return ok(out);
}

/** The hooks one manifest (or, without one, the default `hooks/hooks.json`) yields. */
type ManifestHooks = { handlers: DiscoveredHandler[]; warnings: Warning[]; sources: string[] };

async function manifestHooks(
  name: string,
  root: string,
  manifest: Manifest | null,
  env: Record<string, string>,
  files: string[],
): Promise<ManifestHooks> {
  const out: ManifestHooks = { handlers: [], warnings: [], sources: [] };
  // SPEC §2.6: hooks taken from the .claude-plugin manifest (its default hooks.json included) are Claude's.
  const dialect = manifest?.dir === ".claude-plugin/plugin.json" ? "claude" : "mind";
  const declared = manifest !== null && manifest.data.hooks !== undefined;
  const entries: unknown[] = declared
    ? (Array.isArray(manifest.data.hooks) ? manifest.data.hooks : [manifest.data.hooks])
    : ["./hooks/hooks.json"];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (typeof entry === "string") {
      const loaded = await loadPluginJson(root, entry, declared, files, "hooks");
      if (!loaded.ok) {
        if (loaded.error) out.warnings.push(loaded.error);
        continue;
      }
      const r = loaded.value;
      out.warnings.push(...r.warnings);
      out.sources.push(r.path);
      const c = collectHandlers(r.data.hooks, {
        layer: "plugin",
        keyPath: r.path,
        reservedKeys: new Set(),
        env,
        plugin: name,
        dialect,
      });
      out.handlers.push(...c.handlers);
      out.warnings.push(...c.warnings);
    } else if (isObject(entry) && manifest) {
      // An inline hooks object: either `{ "hooks": {…} }` (hooks.json shape) or the event map itself.
      const hooks = isObject(entry.hooks) ? entry.hooks : entry;
      const keyPath = `${manifest.path}#${i}`;
      out.sources.push(keyPath);
      // Where the entry sits in the manifest, for positions: `hooks[i]`, or `hooks` itself.
      const entryPath = Array.isArray(manifest.data.hooks) ? ["hooks", i] : ["hooks"];
      const c = collectHandlers(hooks, {
        layer: "plugin",
        keyPath,
        reservedKeys: new Set(["description"]),
        path: isObject(entry.hooks) ? [...entryPath, "hooks"] : entryPath,
        env,
        plugin: name,
        dialect,
      });
      out.handlers.push(...c.handlers);
      out.warnings.push(...c.warnings);
    } else {
      out.warnings.push(
        warning(
          "W_PLUGIN",
          `plugin ${name}: hooks entry ${i} must be a "./" path or a hooks object; skipped`,
          manifest?.path ?? root,
        ),
      );
    }
  }
  return out;
}

/**
 * Manifest precedence (SPEC §2.6): `.mind-plugin` when present; else of `.codex-plugin` and
 * `.claude-plugin` the one that yields hooks (an empty `hooks` entry in one never hides the other's);
 * when both do, `.codex-plugin` wins with W_PLUGIN_MANIFESTS — unless both read the very same files
 * (two manifests without a `hooks` field share `hooks/hooks.json`: nothing is hidden then).
 */
async function chooseManifest(
  name: string,
  root: string,
  manifests: Manifest[],
  env: Record<string, string>,
  files: string[],
  warnings: Warning[],
): Promise<{ manifest: Manifest | null; hooks: ManifestHooks }> {
  const mind = manifests.find((m) => m.dir === ".mind-plugin/plugin.json");
  if (mind || manifests.length === 0) {
    const manifest = mind ?? null;
    return { manifest, hooks: await manifestHooks(name, root, manifest, env, files) };
  }
  const codex = manifests.find((m) => m.dir === ".codex-plugin/plugin.json");
  const claude = manifests.find((m) => m.dir === ".claude-plugin/plugin.json");
  const fromCodex = codex ? await manifestHooks(name, root, codex, env, files) : null;
  const fromClaude = claude ? await manifestHooks(name, root, claude, env, files) : null;
  const yields = (h: ManifestHooks | null) => h !== null && h.handlers.length > 0;
  if (yields(fromCodex) && yields(fromClaude)) {
    const same = fromCodex!.sources.join("\n") === fromClaude!.sources.join("\n");
    if (!same) {
      warnings.push(warning(
        "W_PLUGIN_MANIFESTS",
        `plugin ${name}: both .codex-plugin and .claude-plugin define hooks; the .codex-plugin ones are loaded`,
        root,
      ));
    }
    return { manifest: codex!, hooks: fromCodex! };
  }
  if (yields(fromClaude)) return { manifest: claude!, hooks: fromClaude! };
  return codex ? { manifest: codex, hooks: fromCodex! } : { manifest: claude!, hooks: fromClaude! };
}

/** Loads every enabled plugin's hooks and MCP servers. */
export async function loadPlugins(
  home: string,
  config: JsonObject,
  files: string[],
): Promise<LoadedPlugins> {
  const handlers: DiscoveredHandler[] = [];
  const warnings: Warning[] = [];
  const plugins: PluginInfo[] = [];
  const servers = new Map<string, Map<string, ServerDef>>();
  for (const [name, cfg] of Object.entries(config)) {
    if (!isObject(cfg) || cfg.enabled !== true) continue;
    if (!/^[A-Za-z0-9._@-]+$/.test(name) || name === "." || name === "..") {
      warnings.push(
        warning(
          "W_PLUGIN",
          `plugin name ${JSON.stringify(name)} is not a plain directory name; skipped`,
          join(home, "config.toml"),
        ),
      );
      continue;
    }
    const dir = join(home, "plugins", name);
    let root: string;
    try {
      root = await Deno.realPath(dir);
      if (!(await Deno.stat(root)).isDirectory) {
        throw new Error("not a directory");
      }
    } catch {
      warnings.push(
        warning(
          "W_PLUGIN",
          `plugin ${name} is enabled but ${dir} is not a directory`,
          dir,
        ),
      );
      continue;
    }
    const same = plugins.find((p) => p.root === root);
    if (same) {
      // Its keys would be the other plugin's keys: one folder is one plugin.
      warnings.push(warning("W_PLUGIN", `plugin ${name} is the same folder as plugin ${same.name}; skipped`, dir));
      continue;
    }
    const dataDir = join(home, "plugin-data", name);
    const env = pluginEnv(root, dataDir);
    const found = await findManifests(root, files, warnings);
    if (!found.ok) {
      warnings.push(found.error);
      continue;
    }
    const { manifest, hooks } = await chooseManifest(name, root, found.value, env, files, warnings);
    // The hooks files the manifest named, relative to the root: definitions, not pinned files (SPEC §3.5).
    const hooksFiles = [
      "hooks/hooks.json",
      ...hooks.sources.filter((p) => !p.includes("#") && p.startsWith(root + "/")).map((p) => p.slice(root.length + 1)),
    ];
    plugins.push({ name, root, dataDir, manifest: manifest?.path ?? null, hooksFiles: [...new Set(hooksFiles)] });
    const own = await loadPluginServers(root, manifest?.data ?? null, manifest?.path ?? null, env, files, warnings);
    if (own.size > 0) servers.set(name, own);
    handlers.push(...hooks.handlers);
    warnings.push(...hooks.warnings);
    if (hooks.handlers.length === 0) {
      // Never a silent zero (SPEC §2.6).
      warnings.push(warning(
        "W_PLUGIN_NO_HOOKS",
        `plugin ${name} is enabled but has no hooks${
          manifest ? ` (manifest ${manifest.dir})` : " (no manifest, and no hooks/hooks.json)"
        }`,
        manifest?.path ?? root,
      ));
    }
  }
  return { handlers, warnings, plugins, servers };
}

/**
 * A plugin's own MCP servers (SPEC §2.6): its manifest's `mcpServers` (a `./` path to a JSON file,
 * or the servers inline), else `.mcp.json` at its root — each a `{"mcpServers": {…}}` document or
 * the server map itself, as Claude Code and Codex plugins write them. They are a stranger's
 * definitions: no secrets from the environment; `${CLAUDE_PLUGIN_ROOT}` and friends are expanded.
 */
async function loadPluginServers(
  root: string,
  manifest: JsonObject | null,
  manifestPath: string | null,
  env: Record<string, string>,
  files: string[],
  warnings: Warning[],
): Promise<Map<string, ServerDef>> {
  const declared = manifest !== null && Object.hasOwn(manifest, "mcpServers") ? manifest.mcpServers : undefined;
  let table: unknown;
  let source: string;
  if (isObject(declared) && manifestPath) {
    table = declared;
    source = manifestPath;
  } else {
    if (declared !== undefined && typeof declared !== "string") {
      warnings.push(warning("W_PLUGIN", `mcpServers must be a "./" path or a table of servers; ignored`, root));
      return new Map();
    }
    const loaded = await loadPluginJson(root, declared ?? "./.mcp.json", declared !== undefined, files, "MCP servers");
    if (!loaded.ok) {
      if (loaded.error) warnings.push(loaded.error);
      return new Map();
    }
    const r = loaded.value;
    warnings.push(...r.warnings);
    table = isObject(r.data.mcpServers) ? r.data.mcpServers : r.data;
    source = r.path;
  }
  const vars = new Map(Object.entries(env));
  return readServers(table, { source, layer: "plugin", userSide: false, vars }, warnings);
}

/** Reads a `./` JSON file of the plugin (hooks or MCP servers) whose real path stays inside its root. */
async function loadPluginJson(
  root: string,
  rel: string,
  explicit: boolean,
  files: string[],
  what: string,
): Promise<Result<{ path: string; data: JsonObject; warnings: Warning[] }, Warning | null>> {
  if (!rel.startsWith("./")) {
    return fail(warning("W_PLUGIN", `plugin ${what} path ${JSON.stringify(rel)} must start with "./"; skipped`, root));
  }
  const full = join(root, rel.slice(2));
  files.push(full);
  const real = await realPathOr(full);
  // Resolve symlinks before the check, so a link cannot lead outside the plugin either (SPEC §3.6).
  if (!isInside(root, real) || rel.split(/[\\/]/).includes("..")) {
    return fail(warning(
      "W_OUTSIDE_ROOT",
      `plugin ${what} path ${JSON.stringify(rel)} escapes the plugin root (to ${real}); skipped`,
      root,
    ));
  }
  const loaded = await loadConfigFile(real, "json");
  if (!loaded.ok) {
    if (loaded.error.missing) {
      return fail(explicit ? warning("W_PLUGIN", `plugin ${what} file ${rel} not found`, full) : null);
    }
    return fail(loaded.error.warning);
  }
  return ok({ path: real, data: loaded.value.data, warnings: loaded.value.warnings });
}
