/**
 * Plugins (SPEC §2.6): `$MIND_HOME/plugins/<name>/`, enabled by
 * `[plugins."<name>"] enabled = true`. The manifest is
 * `.mind-plugin/plugin.json`, or a Codex (`.codex-plugin/`) or Claude Code
 * (`.claude-plugin/`) one read the same way, so those plugins install
 * unchanged. Hooks come from the manifest's `hooks` field (a `./` path, an
 * array of them, an inline hooks object, or an array of those), else from
 * `hooks/hooks.json`. Paths must stay inside the plugin root.
 * @module
 */
import type { JsonObject } from "../events/types.ts";
import { collectHandlers, type DiscoveredHandler } from "./handlers.ts";
import { loadConfigFile } from "./files.ts";
import { type Warning, warning } from "./warnings.ts";
import { join, realPathOr } from "../util/paths.ts";
import type { PluginInfo } from "./discovery.ts";

const MANIFESTS = [
  ".mind-plugin/plugin.json",
  ".codex-plugin/plugin.json",
  ".claude-plugin/plugin.json",
];

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

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

/** True when `inner` is `root` or below it. */
export function isInside(root: string, inner: string): boolean {
  return inner === root ||
    inner.startsWith(root.endsWith("/") ? root : root + "/");
}

/** Loads every enabled plugin's hooks. */
export async function loadPlugins(
  home: string,
  config: JsonObject,
  files: string[],
): Promise<
  { handlers: DiscoveredHandler[]; warnings: Warning[]; plugins: PluginInfo[] }
> {
  const handlers: DiscoveredHandler[] = [];
  const warnings: Warning[] = [];
  const plugins: PluginInfo[] = [];
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
    const dataDir = join(home, "plugin-data", name);
    const env = pluginEnv(root, dataDir);
    let manifestPath: string | null = null;
    let manifest: JsonObject | null = null;
    for (const m of MANIFESTS) {
      const p = join(root, m);
      files.push(p);
      const loaded = await loadConfigFile(p, "json");
      if (loaded.ok) {
        manifestPath = await realPathOr(p);
        manifest = loaded.data;
        break;
      }
      if (!loaded.missing) {
        warnings.push(loaded.warning);
        break;
      }
    }
    plugins.push({ name, root, dataDir, manifest: manifestPath });
    const entries: unknown[] = manifest && manifest.hooks !== undefined
      ? (Array.isArray(manifest.hooks) ? manifest.hooks : [manifest.hooks])
      : ["./hooks/hooks.json"];
    const fromManifest = !!manifest && manifest.hooks !== undefined;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (typeof entry === "string") {
        const r = await loadPluginHooksFile(root, entry, fromManifest, files);
        if ("warning" in r) {
          if (r.warning) warnings.push(r.warning);
          continue;
        }
        const c = collectHandlers(r.data.hooks, {
          layer: "plugin",
          keyPath: r.path,
          reservedKeys: new Set(),
          env,
          plugin: name,
        });
        handlers.push(...c.handlers);
        warnings.push(...c.warnings);
      } else if (isObject(entry) && manifestPath) {
        // An inline hooks object: either `{ "hooks": {…} }` (hooks.json shape) or the event map itself.
        const hooks = isObject(entry.hooks) ? entry.hooks : entry;
        const c = collectHandlers(hooks, {
          layer: "plugin",
          keyPath: `${manifestPath}#${i}`,
          reservedKeys: new Set(["description"]),
          env,
          plugin: name,
        });
        handlers.push(...c.handlers);
        warnings.push(...c.warnings);
      } else {
        warnings.push(
          warning(
            "W_PLUGIN",
            `plugin ${name}: hooks entry ${i} must be a "./" path or a hooks object; skipped`,
            manifestPath ?? root,
          ),
        );
      }
    }
  }
  return { handlers, warnings, plugins };
}

async function loadPluginHooksFile(
  root: string,
  rel: string,
  explicit: boolean,
  files: string[],
): Promise<{ path: string; data: JsonObject } | { warning: Warning | null }> {
  if (!rel.startsWith("./")) {
    return {
      warning: warning(
        "W_PLUGIN",
        `plugin hooks path ${JSON.stringify(rel)} must start with "./"; skipped`,
        root,
      ),
    };
  }
  const full = join(root, rel.slice(2));
  files.push(full);
  const real = await realPathOr(full);
  // Resolve symlinks before the check, so a link cannot lead outside the plugin either.
  if (!isInside(root, real) || rel.split(/[\\/]/).includes("..")) {
    return {
      warning: warning(
        "W_PLUGIN",
        `plugin hooks path ${JSON.stringify(rel)} escapes the plugin root; skipped`,
        root,
      ),
    };
  }
  const loaded = await loadConfigFile(real, "json");
  if (!loaded.ok) {
    if (loaded.missing) {
      return {
        warning: explicit ? warning("W_PLUGIN", `plugin hooks file ${rel} not found`, full) : null,
      };
    }
    return { warning: loaded.warning };
  }
  return { path: real, data: loaded.data };
}
