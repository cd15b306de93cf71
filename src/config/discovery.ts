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
import { outsideRootWarning, type Warning, warning } from "./warnings.ts";
import { buildOverrides } from "./overrides.ts";
import { isInside, join, realPathOr, searchDirs } from "../util/paths.ts";
import { isObject } from "../util/json.ts";
import { decideFeatures } from "./features.ts";
import { type McpServers, noServers, readServers, resolveServer, scopedNameWarnings } from "./mcp_servers.ts";
import { assertMayParseStrangerFile } from "./fast_path_guard.ts";
import type { PluginInfo } from "./plugins.ts";
import { type HookPins, pinScopeFor, type ScopeContext, storedPins } from "./pinning.ts";
import type { PinScope } from "../trust/pin_scope.ts";
import type { FileHashCache, PinnedFiles } from "../trust/pins.ts";

/** Trust status (SPEC §3.4). */
export type TrustStatus = "managed" | "trusted" | "modified" | "untrusted";

/** A handler with its trust facts. */
export type HookHandler = DiscoveredHandler & {
  hash: string;
  /** SPEC §3.4: the definition's status and, for a hook with pinned files, theirs (see {@link HookPins}). */
  status: TrustStatus;
  /** The status from the definition's hash alone (its matcher is as trusted as this says). */
  definitionStatus: TrustStatus;
  /** The stored hash equals the current one (and the hook is not managed). */
  definitionTrusted: boolean;
  /** Why a `modified` hook is: `modified` (its definition changed) or `modified: <path> changed|…`. */
  modifiedReason: string | null;
  enabled: boolean;
  /** The stored trusted hash, if any. */
  trustedHash: string | null;
  /** Its pinned files (SPEC §3.5), or null when its layer's root is not a project's or a plugin's. */
  pins: HookPins | null;
};

/** Stored state of one hook (SPEC §3.3, §3.5). */
export type HookState = { enabled?: boolean; trusted_hash?: string; trusted_files?: PinnedFiles };

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
  /** Every MCP server definition by scope (SPEC §2.7); each mcp_tool handler holds the one it resolves. */
  mcpServers: McpServers;
  stopBlockCap: number;
  managedOnly: boolean;
  plugins: PluginInfo[];
  /** Every file path that was (or would be) read: `serve` re-reads when one changes. */
  files: string[];
  bypassTrust: boolean;
  /** The OS user's home (`$HOME`), for `~` in commands and in paths shown; null when unknown. */
  userHome: string | null;
  /** Why the trust store (the user config.toml) cannot be read (SPEC §6), or null when it can. */
  trustStore: Warning | null;
  /** File hashes kept across dispatches (`serve`); absent in a one-shot run. */
  pinCache?: FileHashCache;
};

/** Settings keys of the `[hooks]` table in config.toml / requirements.toml that are not events. */
const HOOKS_SETTINGS = new Set([
  "state",
  "stop_block_cap",
  "managed_dir",
  "windows_managed_dir",
]);

function tableOf(
  data: JsonObject | undefined,
  key: string,
): JsonObject | undefined {
  const v = data?.[key];
  return isObject(v) ? v : undefined;
}

/** The project root: nearest ancestor of cwd (inclusive) holding a `.mind/` directory, not the home itself. */
export async function findProjectRoot(
  cwd: string,
  home: string,
): Promise<string | null> {
  const start = await realPathOr(cwd);
  const realHome = await realPathOr(home);
  for (const dir of searchDirs(start)) {
    const candidate = join(dir, ".mind");
    if (candidate === realHome) continue;
    try {
      const info = await Deno.stat(candidate);
      if (info.isDirectory && (await realPathOr(candidate)) !== realHome) return dir;
    } catch {
      // missing, unreadable or a symlink loop: not a project marker
    }
  }
  return null;
}

/** One parsed file of a layer. */
export type LayerFile = {
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

/**
 * Why a project's `.mind/` layer must not load: `.mind` is a symlink whose real path leaves the
 * project's real root (SPEC §3.6) — one repository can never borrow another's hooks and trust.
 * Null when it stays inside. `root` is a real path (as {@link findProjectRoot} returns it).
 */
export async function projectLayerEscape(root: string): Promise<string | null> {
  const mind = join(root, ".mind");
  const real = await realPathOr(mind);
  return isInside(root, real) ? null : outsideRootWarning(mind, real, "project").message;
}

/**
 * Loads the config.toml and hooks.json of one layer directory (`validate` reads an untrusted
 * project's through it too). With `within` (a real root), a file whose real path leaves it is
 * skipped with W_OUTSIDE_ROOT. Keys use the real path; the file is read
 * through its own path (the sandbox grants the layer folder, not every link target). A link swapped
 * between the check and the read cannot lend trust: whatever is read is hashed under this root's key.
 */
export async function loadLayerDir(
  layer: Layer,
  dir: string,
  files: string[],
  warnings: Warning[],
  within?: string,
): Promise<LayerFile[]> {
  // Every layer but the user's own ones is a stranger's file (SECURITY.md, the fast path).
  if (layer !== "user" && layer !== "profile") assertMayParseStrangerFile(`the ${layer} layer ${dir}`);
  const out: LayerFile[] = [];
  for (const [name, kind] of [["config.toml", "toml"], ["hooks.json", "json"]] as const) {
    const path = join(dir, name);
    files.push(path);
    const real = await realPathOr(path);
    if (within !== undefined && !isInside(within, real)) {
      warnings.push(outsideRootWarning(path, real, "project"));
      continue;
    }
    const loaded = await loadConfigFile(path, kind);
    if (loaded.ok) {
      out.push({ layer, path: real, kind, data: loaded.data });
      warnings.push(...loaded.warnings);
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
          { path: [k] },
        ),
      );
    }
  }
  if (
    f.data.description !== undefined && typeof f.data.description !== "string"
  ) {
    warnings.push(
      warning("W_BAD_FIELD", "description must be a string", f.path, { path: ["description"] }),
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
        { path: ["hooks", "state"] },
      ),
    );
  }
  if (f.data.projects !== undefined && f.layer !== "user") {
    warnings.push(
      warning(
        "W_STATE_NOT_AUTHORITATIVE",
        `project trust in the ${f.layer} layer is ignored: only the user config.toml (or -c) can trust a project`,
        f.path,
        { path: ["projects"] },
      ),
    );
  }
}

/**
 * The checks of one user, profile or project file on its own, and its handlers: the root of a
 * hooks.json, state a layer may not hold, then every group and handler. Discovery runs them on
 * every file it loads and `validate FILE` on the files it is given, so one problem gets one code
 * and one sentence everywhere.
 */
export function checkLayerFile(f: LayerFile): { handlers: DiscoveredHandler[]; warnings: Warning[] } {
  const warnings: Warning[] = [];
  if (f.layer !== "user") stripForeignState(f, warnings);
  if (f.kind === "json") {
    checkHooksJsonRoot(f, warnings);
    if (f.layer === "user" && isObject(f.data.hooks) && f.data.hooks.state !== undefined) {
      warnings.push(
        warning("W_STATE_NOT_AUTHORITATIVE", "hook state belongs in config.toml, not hooks.json; ignored", f.path, {
          path: ["hooks", "state"],
        }),
      );
    }
  }
  const reserved = f.kind === "toml" ? HOOKS_SETTINGS : new Set(["state"]);
  const r = collectHandlers(tableOf(f.data, "hooks"), { layer: f.layer, keyPath: f.path, reservedKeys: reserved });
  warnings.push(...r.warnings);
  return { handlers: r.handlers, warnings };
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
    const files = storedPins(v.trusted_files);
    if (files !== null) next.trusted_files = files;
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
  // SPEC §6: a trust store that cannot be read leaves only managed hooks runnable.
  const trustStore =
    warnings.find((w) => w.source === userConfigPath && (w.code === "W_PARSE" || w.code === "W_UNREADABLE")) ?? null;

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
    // A .mind leading elsewhere holds no hooks of this project: never loaded, never worth trusting.
    const escape = await projectLayerEscape(root);
    const hasHookFiles = escape === null && present.some(Boolean);
    project = { root, trusted: level === "trusted", trustLevel: level, hasHookFiles };
    if (escape) {
      warnings.push(warning("W_OUTSIDE_ROOT", escape, join(root, ".mind")));
    } else if (project.trusted) {
      projectFiles = await loadLayerDir("project", join(root, ".mind"), files, warnings, root);
    } else {
      // No trust advice while the trust store cannot be read (SPEC §6): trusting could not work.
      const advice = trustStore === null
        ? `(run: mind-hooks project trust ${root})`
        : `(the trust store ${userConfigPath} cannot be read)`;
      warnings.push(
        warning(
          "W_PROJECT_UNTRUSTED",
          `project ${root} is not trusted; its .mind/ hooks are not loaded ${advice}`,
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
    : { handlers: [], warnings: [], plugins: [], servers: new Map() };
  warnings.push(...pluginResult.warnings);

  // CLI layer: -c overrides, then --hooks-file files.
  const cliFiles: LayerFile[] = [];
  for (const hf of opts.hooksFiles ?? []) {
    assertMayParseStrangerFile(`--hooks-file ${hf}`);
    files.push(hf);
    const real = await realPathOr(hf);
    const loaded = await loadConfigFile(hf, "json");
    if (loaded.ok) {
      cliFiles.push({ layer: "cli", path: real, kind: "json", data: loaded.data });
      warnings.push(...loaded.warnings);
    } else {
      warnings.push(loaded.missing ? warning("W_UNREADABLE", "--hooks-file not found", hf) : loaded.warning);
    }
  }

  // Feature switch (SPEC §2.4) and MCP servers (SPEC §2.7): config.toml files only, never a hooks.json.
  const tomlOf = (fs: LayerFile[]) => fs.find((f) => f.kind === "toml");
  const projectToml = tomlOf(projectFiles);
  const userSide: { data: JsonObject | undefined; source: string; layer: Layer }[] = [];
  for (const f of [tomlOf(userFiles), tomlOf(profileFiles)]) if (f) userSide.push({ ...f, source: f.path });
  userSide.push({ data: cli, source: "cli-override", layer: "cli" });
  const { hooksEnabled, projectHooksOff } = decideFeatures(
    userSide.map((l) => [l.data, l.source]),
    [managed, managedPath],
    projectToml ? [projectToml.data, projectToml.path] : null,
    warnings,
  );

  // Hooks of the ordinary layers, in configuration order.
  const ordinaryHandlers: DiscoveredHandler[] = [];
  for (const layerFiles of [userFiles, profileFiles, projectHooksOff ? [] : projectFiles]) {
    for (const f of layerFiles) {
      const r = checkLayerFile(f);
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

  // Each mcp_tool hook resolves its server in its own scope first (SPEC §2.7); the table it
  // resolves is part of its hash (SPEC §3.2).
  const mcpServers = noServers();
  // Managed last: a user cannot redirect a managed hook to a server of the same name.
  for (const l of [...userSide, { data: managed, source: managedPath, layer: "managed" as Layer }]) {
    const defs = readServers(l.data?.mcp_servers, { source: l.source, layer: l.layer, userSide: true }, warnings);
    for (const [name, def] of defs) mcpServers.userSide.set(name, def);
  }
  if (projectToml && !projectHooksOff) {
    const src = { source: projectToml.path, layer: "project" as Layer, userSide: false };
    mcpServers.project = readServers(projectToml.data.mcp_servers, src, warnings);
  }
  mcpServers.plugins = pluginResult.servers;
  warnings.push(...scopedNameWarnings(mcpServers));
  for (const d of discovered) {
    if (d.handler.type !== "mcp_tool") continue;
    d.server = resolveServer(mcpServers, d, d.handler.server);
    d.handler = { ...d.handler, serverSpec: d.server?.written ?? null };
  }

  const userHome = env.HOME ?? env.USERPROFILE ?? null;
  const scopes: ScopeContext = { projectRoot: project?.root ?? null, plugins: pluginResult.plugins, home: userHome };
  const handlers = discovered.map((d) =>
    withTrust(d, d.layer === "managed" ? undefined : state.get(d.key), pinScopeFor(d, scopes))
  );

  // hooks.stop_block_cap: user layer, overridable by -c for this process.
  const cliCap = tableOf(cli, "hooks")?.stop_block_cap;
  const userCap = tableOf(userToml, "hooks")?.stop_block_cap;
  const capValue = typeof cliCap === "number" ? cliCap : typeof userCap === "number" ? userCap : 8;

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
    userHome,
    trustStore,
  };
}

/**
 * Adds the trust facts to a discovered handler. The hash (and so the status) is computed on first
 * read and then kept: a dispatch only reads it for the handlers its event matched, so a catalog of
 * 1,000 handlers does not pay 1,000 SHA-256s on every tool call; `list` and `review` read them all.
 * A hook with a pin scope is `trusted` only once its pins were checked and hold (src/config/pinning.ts).
 */
function withTrust(d: DiscoveredHandler, state: HookState | undefined, scope: PinScope | null): HookHandler {
  const managed = d.layer === "managed";
  const trustedHash = managed ? null : state?.trusted_hash ?? null;
  let hash: string | undefined;
  const pins: HookPins | null = scope === null ? null : { scope, stored: state?.trusted_files ?? null };
  const h = { ...d, enabled: managed ? true : state?.enabled ?? true, trustedHash, pins } as HookHandler;
  const definitionStatus = (): TrustStatus =>
    managed ? "managed" : trustedHash === null ? "untrusted" : trustedHash === h.hash ? "trusted" : "modified";
  /** Null while the pins hold (or there are none); else why they do not. */
  const pinReason = (): string | null =>
    pins === null ? null : pins.check === undefined ? UNCHECKED : pins.check.reason;
  Object.defineProperties(h, {
    hash: { enumerable: true, get: () => hash ??= contentHashSync(d.event, d.matcher, d.handler) },
    definitionStatus: { enumerable: false, get: definitionStatus },
    definitionTrusted: { enumerable: false, get: () => definitionStatus() === "trusted" },
    status: {
      enumerable: true,
      get: (): TrustStatus => {
        const s = definitionStatus();
        return s === "trusted" && pinReason() !== null ? "modified" : s;
      },
    },
    modifiedReason: {
      enumerable: false,
      get: (): string | null => {
        const s = definitionStatus();
        if (s === "modified") return "modified";
        return s === "trusted" ? pinReason() : null;
      },
    },
  });
  return h;
}

/** The reason of a hook whose pins were not checked (a caller that skipped {@link checkPins}). */
const UNCHECKED = "modified: its pinned files were not checked";

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
