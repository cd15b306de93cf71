/**
 * Configuration discovery (SPEC §2, §3): every layer's files → one catalog of
 * handlers with key, hash, trust status and enabled flag, plus the settings
 * the rest of the engine needs and every discovery warning.
 *
 * Layer order (configuration order): managed, user, profile, project, plugin,
 * CLI; inside a layer config.toml before hooks.json.
 * @module
 */
import type { JsonObject } from "../events/types.ts";
import { contentHashSync, type HookKey, type Layer } from "../trust/hash.ts";
import { collectHandlers, type DiscoveredHandler } from "./handlers.ts";
import { loadConfigFile } from "./files.ts";
import { type Warning, warning } from "./warnings.ts";
import { buildOverrides } from "./overrides.ts";
import { join, realPathOr } from "../util/paths.ts";
import { assertMayParseStrangerFile } from "../sandbox/fast_path.ts";

/** Trust status (SPEC §3.4). */
export type TrustStatus = "managed" | "trusted" | "modified" | "untrusted";

/** A handler with its trust facts. */
export type HookHandler = DiscoveredHandler & {
  hash: string;
  status: TrustStatus;
  enabled: boolean;
  /** The stored trusted hash, if any. */
  trustedHash: string | null;
};

/** Stored state of one hook (SPEC §3.3). */
export type HookState = { enabled?: boolean; trusted_hash?: string };

/** What discovery needs to know about this invocation. */
export type ConfigOptions = {
  home: string;
  /** Where the project layer is searched from. */
  cwd: string;
  profile?: string;
  /** `-c KEY=VALUE` items. */
  overrides?: readonly string[];
  hooksFiles?: readonly string[];
  /** The managed requirements file; undefined = `$MIND_REQUIREMENTS`, else `/etc/mind/requirements.toml`. */
  requirements?: string;
  bypassTrust?: boolean;
  env?: Record<string, string | undefined>;
};

/** The project found from cwd. */
export type ProjectInfo = {
  root: string;
  trusted: boolean;
  trustLevel: string | null;
  /** The project's `.mind/` holds a config.toml or hooks.json (so an untrusted project is worth a word). */
  hasHookFiles: boolean;
};

/** An enabled plugin. */
export type PluginInfo = {
  name: string;
  root: string;
  dataDir: string;
  manifest: string | null;
};

/** Everything discovery found. */
export type Catalog = {
  handlers: HookHandler[];
  warnings: Warning[];
  /** The feature switch (SPEC §2.4). */
  hooksEnabled: boolean;
  project: ProjectInfo | null;
  home: string;
  userConfigPath: string;
  profile: string | null;
  mcpServers: Record<string, JsonObject>;
  stopBlockCap: number;
  managedOnly: boolean;
  plugins: PluginInfo[];
  /** Every file path that was (or would be) read: `serve` re-reads when one changes. */
  files: string[];
  bypassTrust: boolean;
};

/** Settings keys of the `[hooks]` table in config.toml / requirements.toml that are not events. */
const HOOKS_SETTINGS = new Set([
  "state",
  "stop_block_cap",
  "managed_dir",
  "windows_managed_dir",
]);

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function tableOf(
  data: JsonObject | undefined,
  key: string,
): JsonObject | undefined {
  const v = data?.[key];
  return isObject(v) ? v : undefined;
}

/** Reads `[features] hooks` (or the deprecated `codex_hooks`) from one config. */
function featureSwitch(
  data: JsonObject | undefined,
  source: string,
  warnings: Warning[],
): boolean | undefined {
  const features = tableOf(data, "features");
  if (!features) return undefined;
  if (typeof features.codex_hooks === "boolean") {
    warnings.push(
      warning(
        "W_DEPRECATED_ALIAS",
        "features.codex_hooks is deprecated; use features.hooks",
        source,
      ),
    );
    if (typeof features.hooks !== "boolean") return features.codex_hooks;
  }
  if (features.hooks !== undefined && typeof features.hooks !== "boolean") {
    warnings.push(
      warning(
        "W_BAD_FIELD",
        `features.hooks must be true or false (got ${JSON.stringify(features.hooks)}); ignored`,
        source,
      ),
    );
  }
  return typeof features.hooks === "boolean" ? features.hooks : undefined;
}

/** The project root: nearest ancestor of cwd (inclusive) holding a `.mind/` directory, not the home itself. */
export async function findProjectRoot(
  cwd: string,
  home: string,
): Promise<string | null> {
  const start = await realPathOr(cwd);
  const realHome = await realPathOr(home);
  let dir = start;
  for (let depth = 0; depth < 256; depth++) {
    const candidate = join(dir, ".mind");
    if (candidate !== realHome) {
      try {
        const info = await Deno.stat(candidate);
        if (info.isDirectory && (await realPathOr(candidate)) !== realHome) {
          return dir;
        }
      } catch {
        // missing, unreadable or a symlink loop: not a project marker
      }
    }
    const parent = dir.replace(/[\\/][^\\/]*$/, "") || "/";
    if (parent === dir || dir === "/") break;
    dir = parent;
  }
  return null;
}

type LayerFile = {
  layer: Layer;
  path: string;
  kind: "toml" | "json";
  data: JsonObject;
};

/**
 * The trust level the user side (user config.toml, then `-c`) gives the project at `root`, or null
 * (SPEC §2.3: only these two can trust a project). Shared with the sandbox's fast-path decision.
 */
export function projectTrustLevel(
  userToml: JsonObject | undefined,
  cli: JsonObject,
  root: string,
): string | null {
  const trust = new Map([
    ...Object.entries(tableOf(userToml, "projects") ?? {}),
    ...Object.entries(tableOf(cli, "projects") ?? {}),
  ]);
  const entry = trust.get(root);
  return isObject(entry) && typeof entry.trust_level === "string" ? entry.trust_level : null;
}

/** The `[plugins]` settings of the user side (user config.toml, then `-c`): discovery loads the
 * plugin layer whenever this is not empty. Shared with the sandbox's fast-path decision. */
export function pluginSettings(userToml: JsonObject | undefined, cli: JsonObject): JsonObject {
  return { ...(tableOf(userToml, "plugins") ?? {}), ...(tableOf(cli, "plugins") ?? {}) };
}

/** The profile this run loads (`--profile`, `$MIND_PROFILE`, else the user config's `profile`), or
 * null; a name that is not a plain folder name loads none and is returned as `invalid`. Shared with
 * the sandbox. */
export function selectedProfile(
  opts: Pick<ConfigOptions, "profile">,
  env: Record<string, string | undefined>,
  userToml: JsonObject | undefined,
): { profile: string | null; invalid: string | null } {
  const name = opts.profile ?? env.MIND_PROFILE ?? (typeof userToml?.profile === "string" ? userToml.profile : null);
  if (name !== null && (name === "" || /[\\/]|^\.\.?$/.test(name))) return { profile: null, invalid: name };
  return { profile: name, invalid: null };
}

/** Loads the config.toml and hooks.json of one layer directory. */
async function loadLayerDir(
  layer: Layer,
  dir: string,
  files: string[],
  warnings: Warning[],
): Promise<LayerFile[]> {
  // Every layer but the user's own ones is a stranger's file (SECURITY.md, the fast path).
  if (layer !== "user" && layer !== "profile") assertMayParseStrangerFile(`the ${layer} layer ${dir}`);
  const out: LayerFile[] = [];
  for (
    const [name, kind] of [["config.toml", "toml"], [
      "hooks.json",
      "json",
    ]] as const
  ) {
    const path = join(dir, name);
    files.push(path);
    const loaded = await loadConfigFile(path, kind);
    if (loaded.ok) {
      out.push({
        layer,
        path: await realPathOr(path),
        kind,
        data: loaded.data,
      });
    } else if (!loaded.missing) warnings.push(loaded.warning);
  }
  const toml = out.find((f) => f.kind === "toml");
  if (
    toml && isObject(toml.data.hooks) &&
    Object.keys(toml.data.hooks).some((k) => !HOOKS_SETTINGS.has(k)) &&
    out.some((f) => f.kind === "json")
  ) {
    warnings.push(
      warning(
        "W_BOTH_REPRESENTATIONS",
        "both config.toml [hooks] and hooks.json define hooks here; both are loaded (keep one)",
        dir,
      ),
    );
  }
  return out;
}

/** Checks the root of a standalone hooks.json: only `description` and `hooks`. */
function checkHooksJsonRoot(f: LayerFile, warnings: Warning[]): void {
  for (const k of Object.keys(f.data)) {
    if (k !== "description" && k !== "hooks") {
      warnings.push(
        warning(
          "W_UNKNOWN_FIELD",
          `unknown root field ${JSON.stringify(k)} ignored (hooks.json accepts description and hooks)`,
          f.path,
        ),
      );
    }
  }
  if (
    f.data.description !== undefined && typeof f.data.description !== "string"
  ) {
    warnings.push(
      warning("W_BAD_FIELD", "description must be a string", f.path),
    );
  }
}

/** Removes and warns about state a layer is not allowed to hold. */
function stripForeignState(f: LayerFile, warnings: Warning[]): void {
  const hooks = tableOf(f.data, "hooks");
  if (hooks && hooks.state !== undefined) {
    warnings.push(
      warning(
        "W_STATE_NOT_AUTHORITATIVE",
        `hook state in the ${f.layer} layer is ignored: only the user config.toml (or -c) can trust or disable hooks`,
        f.path,
      ),
    );
  }
  if (f.data.projects !== undefined && f.layer !== "user") {
    warnings.push(
      warning(
        "W_STATE_NOT_AUTHORITATIVE",
        `project trust in the ${f.layer} layer is ignored: only the user config.toml (or -c) can trust a project`,
        f.path,
      ),
    );
  }
}

/** Reads `[hooks.state]` into a map. */
function readState(
  data: JsonObject | undefined,
  into: Map<HookKey, HookState>,
): void {
  const state = tableOf(tableOf(data, "hooks"), "state");
  if (!state) return;
  for (const [key, v] of Object.entries(state)) {
    if (!isObject(v)) continue;
    const prev = into.get(key) ?? {};
    const next: HookState = { ...prev };
    if (typeof v.enabled === "boolean") next.enabled = v.enabled;
    if (typeof v.trusted_hash === "string") next.trusted_hash = v.trusted_hash;
    into.set(key, next);
  }
}

/** Loads every layer and returns the catalog. Never throws for bad files: they become warnings. */
export async function loadCatalog(
  opts: ConfigOptions,
): Promise<Catalog | { error: string }> {
  const env = opts.env ?? {};
  const warnings: Warning[] = [];
  const files: string[] = [];
  const discovered: DiscoveredHandler[] = [];
  const home = opts.home;
  const userConfigPath = join(home, "config.toml");

  const overrides = buildOverrides(opts.overrides ?? []);
  if ("error" in overrides) return { error: overrides.error };
  const cli = overrides.data;

  // Managed layer.
  const reqPath = opts.requirements ?? env.MIND_REQUIREMENTS ??
    "/etc/mind/requirements.toml";
  files.push(reqPath);
  let managed: JsonObject | undefined;
  const reqLoaded = await loadConfigFile(reqPath, "toml");
  if (reqLoaded.ok) managed = reqLoaded.data;
  else if (!reqLoaded.missing) warnings.push(reqLoaded.warning);
  const managedOnly = managed?.allow_managed_hooks_only === true;
  const managedPath = reqLoaded.ok ? await realPathOr(reqPath) : reqPath;
  if (managed) {
    const r = collectHandlers(tableOf(managed, "hooks"), {
      layer: "managed",
      keyPath: managedPath,
      reservedKeys: HOOKS_SETTINGS,
    });
    discovered.push(...r.handlers);
    warnings.push(...r.warnings);
  }

  // User layer.
  const userFiles = await loadLayerDir("user", home, files, warnings);
  const userToml = userFiles.find((f) => f.kind === "toml")?.data;

  // Profile.
  const { profile, invalid } = selectedProfile(opts, env, userToml);
  if (invalid !== null) {
    warnings.push(
      warning(
        "W_BAD_FIELD",
        `profile name ${JSON.stringify(invalid)} is not a plain name; no profile layer loaded`,
        userConfigPath,
      ),
    );
  }
  const profileFiles = profile
    ? await loadLayerDir(
      "profile",
      join(home, "profiles", profile),
      files,
      warnings,
    )
    : [];

  // Project.
  let project: ProjectInfo | null = null;
  let projectFiles: LayerFile[] = [];
  const root = await findProjectRoot(opts.cwd, home);
  if (root) {
    const level = projectTrustLevel(userToml, cli, root);
    const hookFiles = ["config.toml", "hooks.json"].map((f) => join(root, ".mind", f));
    files.push(...hookFiles);
    const present = await Promise.all(hookFiles.map((f) => Deno.stat(f).then((i) => i.isFile, () => false)));
    project = { root, trusted: level === "trusted", trustLevel: level, hasHookFiles: present.some(Boolean) };
    if (project.trusted) {
      projectFiles = await loadLayerDir(
        "project",
        join(root, ".mind"),
        files,
        warnings,
      );
    } else {
      warnings.push(
        warning(
          "W_PROJECT_UNTRUSTED",
          `project ${root} is not trusted; its .mind/ hooks are not loaded (run: mind-hooks project trust ${root})`,
          join(root, ".mind"),
        ),
      );
    }
  }

  // Plugins (enabled in the user config or -c).
  const pluginCfg = pluginSettings(userToml, cli);
  // Most homes enable no plugin: then the plugin loader is not even imported.
  const hasPlugins = Object.keys(pluginCfg).length > 0;
  if (hasPlugins) assertMayParseStrangerFile("plugins");
  const pluginResult = hasPlugins
    ? await (await import("./plugins.ts")).loadPlugins(home, pluginCfg, files)
    : { handlers: [], warnings: [], plugins: [] };
  warnings.push(...pluginResult.warnings);

  // CLI layer: -c overrides, then --hooks-file files.
  const cliFiles: LayerFile[] = [];
  for (const hf of opts.hooksFiles ?? []) {
    assertMayParseStrangerFile(`--hooks-file ${hf}`);
    const loaded = await loadConfigFile(hf, "json");
    files.push(hf);
    if (loaded.ok) {
      cliFiles.push({
        layer: "cli",
        path: await realPathOr(hf),
        kind: "json",
        data: loaded.data,
      });
    } else {warnings.push(
        loaded.missing ? warning("W_UNREADABLE", "--hooks-file not found", hf) : loaded.warning,
      );}
  }

  // Feature switch: highest layer that sets it wins; a managed value pins it.
  let hooksEnabled = true;
  const switchLayers: [JsonObject | undefined, string][] = [
    ...userFiles.map((f) => [f.data, f.path] as [JsonObject, string]),
    ...profileFiles.map((f) => [f.data, f.path] as [JsonObject, string]),
    ...projectFiles.map((f) => [f.data, f.path] as [JsonObject, string]),
    [cli, "cli-override"],
  ];
  for (const [data, source] of switchLayers) {
    const v = featureSwitch(data, source, warnings);
    if (v !== undefined) hooksEnabled = v;
  }
  const pinned = featureSwitch(managed, managedPath, warnings);
  if (pinned !== undefined) hooksEnabled = pinned;

  // Hooks of the ordinary layers, in configuration order.
  const ordinary: { files: LayerFile[] }[] = [{ files: userFiles }, {
    files: profileFiles,
  }, { files: projectFiles }];
  const ordinaryHandlers: DiscoveredHandler[] = [];
  for (const { files: layerFiles } of ordinary) {
    for (const f of layerFiles) {
      if (f.layer !== "user") stripForeignState(f, warnings);
      if (f.kind === "json") {
        checkHooksJsonRoot(f, warnings);
        if (
          f.layer === "user" && isObject(f.data.hooks) &&
          f.data.hooks.state !== undefined
        ) {
          warnings.push(
            warning(
              "W_STATE_NOT_AUTHORITATIVE",
              "hook state belongs in config.toml, not hooks.json; ignored",
              f.path,
            ),
          );
        }
      }
      const reserved = f.kind === "toml" ? HOOKS_SETTINGS : new Set(["state"]);
      const r = collectHandlers(tableOf(f.data, "hooks"), {
        layer: f.layer,
        keyPath: f.path,
        reservedKeys: reserved,
      });
      ordinaryHandlers.push(...r.handlers);
      warnings.push(...r.warnings);
    }
  }
  ordinaryHandlers.push(...pluginResult.handlers);
  if (Object.keys(cli).length > 0) {
    const r = collectHandlers(tableOf(cli, "hooks"), {
      layer: "cli",
      keyPath: "cli-override",
      reservedKeys: HOOKS_SETTINGS,
    });
    ordinaryHandlers.push(...r.handlers);
    warnings.push(...r.warnings);
  }
  for (const f of cliFiles) {
    checkHooksJsonRoot(f, warnings);
    const r = collectHandlers(tableOf(f.data, "hooks"), {
      layer: "cli",
      keyPath: f.path,
      reservedKeys: new Set(["state"]),
    });
    ordinaryHandlers.push(...r.handlers);
    warnings.push(...r.warnings);
  }
  if (managedOnly) {
    if (ordinaryHandlers.length > 0) {
      warnings.push(
        warning(
          "W_MANAGED_ONLY",
          `allow_managed_hooks_only is set: ${ordinaryHandlers.length} non-managed hook(s) not loaded`,
          managedPath,
        ),
      );
    }
  } else {
    discovered.push(...ordinaryHandlers);
  }

  // State: user config.toml, then this process's -c overrides.
  const state = new Map<HookKey, HookState>();
  readState(userToml, state);
  readState(cli, state);

  const handlers = discovered.map((d) => withTrust(d, d.layer === "managed" ? undefined : state.get(d.key)));

  // hooks.stop_block_cap: user layer, overridable by -c for this process.
  const cliCap = tableOf(cli, "hooks")?.stop_block_cap;
  const userCap = tableOf(userToml, "hooks")?.stop_block_cap;
  const capValue = typeof cliCap === "number" ? cliCap : typeof userCap === "number" ? userCap : 8;

  const mcpServers: Record<string, JsonObject> = {};
  for (
    const data of [
      userToml,
      ...profileFiles.map((f) => f.data),
      ...projectFiles.map((f) => f.data),
      cli,
      // Managed last: a user cannot redirect a managed hook to a server of the same name.
      managed,
    ]
  ) {
    const servers = tableOf(data, "mcp_servers");
    for (const [name, cfg] of Object.entries(servers ?? {})) {
      if (isObject(cfg)) mcpServers[name] = cfg;
    }
  }

  return {
    handlers,
    warnings,
    hooksEnabled,
    project,
    home,
    userConfigPath,
    profile,
    mcpServers,
    stopBlockCap: Number.isInteger(capValue) && capValue >= 0 ? capValue : 8,
    managedOnly,
    plugins: pluginResult.plugins,
    files,
    bypassTrust: opts.bypassTrust === true,
  };
}

/**
 * Adds the trust facts to a discovered handler. The hash (and so the status) is computed on first
 * read and then kept: a dispatch only reads it for the handlers its event matched, so a catalog of
 * 1,000 handlers does not pay 1,000 SHA-256s on every tool call; `list` and `review` read them all.
 */
function withTrust(d: DiscoveredHandler, state: HookState | undefined): HookHandler {
  const managed = d.layer === "managed";
  const trustedHash = managed ? null : state?.trusted_hash ?? null;
  let hash: string | undefined;
  const h = { ...d, enabled: managed ? true : state?.enabled ?? true, trustedHash } as HookHandler;
  Object.defineProperties(h, {
    hash: { enumerable: true, get: () => hash ??= contentHashSync(d.event, d.matcher, d.handler) },
    status: {
      enumerable: true,
      get: (): TrustStatus =>
        managed ? "managed" : trustedHash === null ? "untrusted" : trustedHash === h.hash ? "trusted" : "modified",
    },
  });
  return h;
}

/** May this handler run now (SPEC §3.4, §6)? Returns null when yes, else the skip reason. */
export function skipReason(
  h: HookHandler,
  bypassTrust: boolean,
): "untrusted" | "modified" | "disabled" | null {
  if (h.status === "managed") return null;
  if (!h.enabled) return "disabled";
  if (bypassTrust) return null;
  if (h.status === "untrusted" || h.status === "modified") return h.status;
  return null;
}
