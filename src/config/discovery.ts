/**
 * Configuration discovery (SPEC §2, §3): every layer's files → one catalog of
 * handlers (plain records) with key, stored trust facts, pin scope and enabled
 * flag, plus the settings the rest of the engine needs and every discovery
 * warning. Their trust is decided by `assessTrust` (src/trust/verdict.ts).
 *
 * Layer order (configuration order): managed, user, claude-user, codex-user
 * (SPEC §2.8 r3), profile, project, claude-project, codex-project (SPEC §2.8),
 * plugin, CLI; inside a layer config.toml before hooks.json.
 * @module
 */
import type { HookKey, Layer } from "../schema/handler.ts";
import { collectHandlers, type DiscoveredHandler } from "./handlers.ts";
import { loadConfigFile } from "./files.ts";
import { homeMissingDispatch, NO_HOME_DISPATCH, outsideRootWarning, type Warning, warning } from "./warnings.ts";
import {
  checkHooksJsonRoot,
  checkLayerFile,
  HOOKS_SETTINGS,
  type LayerFile,
  loadLayerDir,
  recordSetting,
} from "./layer_files.ts";
import {
  FOREIGN_LAYERS,
  foreignFolder,
  foreignHookFiles,
  foreignLayersSetting,
  loadForeignLayers,
  loadForeignUserLayers,
  loadGeminiExtensions,
  projectMarkers,
} from "./foreign_layers.ts";
import { buildOverrides } from "./overrides.ts";
import { isInside, join, osUserHome, realPathOr } from "../util/paths.ts";
import { findProject, type ProjectLayout, type ProjectSearch } from "./project_root.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { decideFeatures } from "./features.ts";
import { noServers, readServers, resolveServer, scopedNameWarnings } from "./mcp_servers.ts";
import { strangerRefusal } from "./fast_path_guard.ts";
import { type HookPins, pinScopeFor, type ScopeContext, storedPins } from "./pinning.ts";
import type { PinScope } from "../trust/pin_scope.ts";
import { fail, ok, type Result } from "../util/result.ts";
import { handlerModule } from "./handler_types/registry.ts";
import { allowedHttpUrls, dropDisallowedHttp } from "./handler_types/http.ts";
import { hooksModel } from "./hooks_model.ts";

export type {
  AnyCatalog,
  Catalog,
  CatalogOf,
  ConfigOptions,
  HomelessConfigOptions,
  HookHandler,
  HookState,
  MissingHome,
  ProjectInfo,
} from "./catalog_types.ts";
import type {
  AnyCatalog,
  Catalog,
  ConfigOptions,
  HomelessConfigOptions,
  HookHandler,
  HookState,
  ProjectInfo,
} from "./catalog_types.ts";

function tableOf(
  data: JsonObject | undefined,
  key: string,
): JsonObject | undefined {
  const v = data?.[key];
  return isObject(v) ? v : undefined;
}

/**
 * The project search of a run (SPEC §2.8): `[hooks] foreign_layers` of the user side (its config.toml
 * and `-c`), and the OS user's home. For commands that search before loading a catalog.
 */
export async function projectSearchOf(opts: ConfigOptions): Promise<ProjectSearch> {
  const overrides = buildOverrides(opts.overrides ?? []);
  const cli = overrides.ok ? overrides.value : {};
  const loaded = await loadConfigFile(join(opts.home, "config.toml"), "toml");
  const env = opts.env ?? {};
  return {
    foreign: foreignLayersSetting(loaded.ok ? loaded.value.data : undefined, cli, join(opts.home, "config.toml")),
    userHome: osUserHome(env),
  };
}

export { findProject, findProjectRoot, type ProjectSearch } from "./project_root.ts";

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
    if (typeof v.unpinnable === "string") next.unpinnable = v.unpinnable;
    if (typeof v.trusted_fail_closed === "boolean") next.trusted_fail_closed = v.trusted_fail_closed;
    into.set(key, next);
  }
}

/**
 * Loads every layer and returns the catalog. Never throws for bad files: they become warnings.
 * Without a home (a dispatch, SPEC §1 r3) only the managed and CLI layers load, with `W_NO_HOME`.
 */
export async function loadCatalog(opts: ConfigOptions): Promise<Result<Catalog>>;
export async function loadCatalog(opts: HomelessConfigOptions): Promise<Result<AnyCatalog>>;
export async function loadCatalog(opts: HomelessConfigOptions): Promise<Result<AnyCatalog>> {
  const env = opts.env ?? {};
  const warnings: Warning[] = [];
  const files: string[] = [];
  const discovered: DiscoveredHandler[] = [];
  const home = opts.home;
  const userConfigPath = home === null ? null : join(home, "config.toml");
  if (home === null) {
    warnings.push(
      opts.missingHome
        ? warning("W_HOME_MISSING", homeMissingDispatch(opts.missingHome.path, opts.missingHome.namedBy), "home")
        : warning("W_NO_HOME", NO_HOME_DISPATCH, "home"),
    );
  }

  const overrides = buildOverrides(opts.overrides ?? []);
  if (!overrides.ok) return fail(overrides.error);
  const cli = overrides.value;

  // Managed layer.
  const reqPath = opts.requirements ?? env.MIND_REQUIREMENTS ??
    "/etc/mind/requirements.toml";
  files.push(reqPath);
  let managed: JsonObject | undefined;
  const reqLoaded = await loadConfigFile(reqPath, "toml");
  if (reqLoaded.ok) managed = reqLoaded.value.data;
  else if (!reqLoaded.error.missing) warnings.push(reqLoaded.error.warning);
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
  const userFiles = home === null ? [] : await loadLayerDir("user", home, files, warnings);
  const userToml = userFiles.find((f) => f.kind === "toml")?.data;
  // SPEC §6: a trust store that cannot be read leaves only managed hooks runnable.
  const trustStoreProblem =
    warnings.find((w) => w.source === userConfigPath && (w.code === "W_PARSE" || w.code === "W_UNREADABLE")) ?? null;

  // The foreign user layers (SPEC §2.8 r3): the user's own Claude Code and Codex hooks, right after.
  const foreign = foreignLayersSetting(userToml, cli, userConfigPath ?? "cli-override", warnings);
  const userHome = osUserHome(env);
  const delegating = FOREIGN_LAYERS.find((l) => l === opts.delegatingHost);
  const foreignUserFiles = home === null
    ? []
    : await loadForeignUserLayers(userHome, foreign, delegating, files, warnings);

  // Profile.
  const { profile, invalid } = selectedProfile(opts, env, userToml);
  if (invalid !== null) {
    warnings.push(
      warning(
        "W_BAD_FIELD",
        `profile name ${JSON.stringify(invalid)} is not a plain name; no profile layer loaded`,
        userConfigPath ?? "profile",
      ),
    );
  }
  const profileFiles = profile && home !== null
    ? await loadLayerDir(
      "profile",
      join(home, "profiles", profile),
      files,
      warnings,
    )
    : [];

  // Project (SPEC §2.3), and its foreign layers (SPEC §2.8).
  let project: ProjectInfo | null = null;
  let projectFiles: LayerFile[] = [];
  let foreignFiles: LayerFile[] = [];
  // No home, no trust store: no project can be trusted, so none is searched for.
  const layout = home === null ? null : await findProject(opts.cwd, home, { foreign, userHome });
  if (layout) {
    const root = layout.root;
    const level = projectTrustLevel(userToml, cli, root);
    const hookFiles = ["config.toml", "hooks.json"].map((f) => join(root, ".mind", f));
    files.push(...hookFiles);
    const present = await Promise.all(hookFiles.map((f) => Deno.stat(f).then((i) => i.isFile, () => false)));
    // A .mind leading elsewhere holds no hooks of this project: never loaded, never worth trusting.
    const escape = await projectLayerEscape(root);
    const hasHookFiles = (escape === null && present.some(Boolean)) ||
      await mayHoldHooks(foreignHookFiles(layout.foreign));
    project = { root, trusted: level === "trusted", trustLevel: level, hasHookFiles, foreignDirs: layout.foreign };
    if (escape) warnings.push(warning("W_OUTSIDE_ROOT", escape, join(root, ".mind")));
    if (project.trusted) {
      if (!escape) projectFiles = await loadLayerDir("project", join(root, ".mind"), files, warnings, { within: root });
      foreignFiles = await loadForeignLayers(root, layout.foreign, delegating, files, warnings);
    } else {
      // Name the folders this project has (`.mind/`, `.claude/`, `.codex/`), the first one as the source.
      // A `.mind` leading outside the project is none of its folders: trusting the project would not load it.
      const folders: string[] = [];
      for (const f of projectMarkers(foreign)) {
        if (f === ".mind" && escape) continue;
        if (await Deno.stat(join(root, f)).then((i) => i.isDirectory, () => false)) folders.push(f);
      }
      // No trust advice while the trust store cannot be read (SPEC §6): trusting could not work.
      const advice = trustStoreProblem === null
        ? `(run: mind-hooks project trust ${root})`
        : `(the trust store ${userConfigPath} cannot be read)`;
      project.folders = folders;
      if (folders.length > 0) {
        warnings.push(
          warning(
            "W_PROJECT_UNTRUSTED",
            `project ${root} is not trusted; its ${
              folders.map((f) => `${f}/`).join(", ")
            } hooks are not loaded ${advice}`,
            join(root, folders[0]),
          ),
        );
      }
    }
  }

  if (layout) warnings.push(...await aboveRootWarnings(layout, opts.delegatingHost));

  // Plugins (enabled in the user config or -c).
  const pluginCfg = pluginSettings(userToml, cli);
  // Most homes enable no plugin: then the plugin loader is not even imported.
  const hasPlugins = home !== null && Object.keys(pluginCfg).length > 0;
  if (hasPlugins && opts.strangerFiles === "refuse") return strangerRefusal("plugins");
  const pluginResult = hasPlugins
    ? await (await import("./plugins.ts")).loadPlugins(home!, pluginCfg, files)
    : { handlers: [], warnings: [], plugins: [], servers: new Map() };
  warnings.push(...pluginResult.warnings);
  // Gemini CLI's enabled extensions carry hooks as plugins do (SPEC §2.8 r4): strangers' files too.
  const geminiExtensions = home !== null && foreign.includes("gemini") && delegating !== "gemini"
    ? await loadGeminiExtensions(userHome, opts.cwd, files, warnings)
    : [];
  if (geminiExtensions.length > 0 && opts.strangerFiles === "refuse") return strangerRefusal("Gemini CLI extensions");

  // CLI layer: -c overrides, then --hooks-file files.
  const cliFiles: LayerFile[] = [];
  for (const hf of opts.hooksFiles ?? []) {
    if (opts.strangerFiles === "refuse") return strangerRefusal(`--hooks-file ${hf}`);
    files.push(hf);
    const real = await realPathOr(hf);
    const loaded = await loadConfigFile(hf, "json");
    if (loaded.ok) {
      cliFiles.push({
        layer: "cli",
        path: real,
        kind: "json",
        data: loaded.value.data,
        dialect: "mind",
        hooksOnly: false,
      });
      warnings.push(...loaded.value.warnings);
    } else {
      warnings.push(
        loaded.error.missing ? warning("W_UNREADABLE", "--hooks-file not found", hf) : loaded.error.warning,
      );
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
  const layers = [userFiles, foreignUserFiles, profileFiles, projectHooksOff ? [] : projectFiles, foreignFiles];
  for (const layerFiles of layers) {
    for (const f of layerFiles) {
      const r = checkLayerFile(f);
      ordinaryHandlers.push(...r.handlers);
      warnings.push(...r.warnings);
    }
  }
  ordinaryHandlers.push(...pluginResult.handlers);
  for (const f of geminiExtensions) {
    const r = checkLayerFile(f);
    ordinaryHandlers.push(...r.handlers);
    warnings.push(...r.warnings);
  }
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
  // The managed allow-list of http hooks' URLs (SPEC §2.2 r4): a URL matching none is dropped, said.
  dropDisallowedHttp(discovered, allowedHttpUrls(managed, managedPath, warnings), warnings);
  // The model prompt hooks ask: the user side's only (SPEC §2.2 r4).
  const model = hooksModel(userToml, cli, userConfigPath ?? "cli-override", warnings);

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
    const name = handlerModule(d.handler).mcpServer(d.handler);
    if (name === null) continue;
    d.server = resolveServer(mcpServers, d, name);
    d.handler = { ...d.handler, serverSpec: d.server?.written ?? null } as typeof d.handler;
  }

  const scopes: ScopeContext = { projectRoot: project?.root ?? null, plugins: pluginResult.plugins, home: userHome };
  const requirePins = requirePinsOf([managed, userToml, cli]);
  const handlers = discovered.map((d) =>
    withTrust(d, d.layer === "managed" ? undefined : state.get(d.key), pinScopeFor(d, scopes), requirePins)
  );

  // hooks.stop_block_cap: user layer, overridable by -c for this process.
  const cliCap = tableOf(cli, "hooks")?.stop_block_cap;
  const userCap = tableOf(userToml, "hooks")?.stop_block_cap;
  const capValue = typeof cliCap === "number" ? cliCap : typeof userCap === "number" ? userCap : 8;

  return ok({
    handlers,
    warnings,
    hooksEnabled,
    project,
    home,
    userConfigPath,
    profile,
    mcpServers,
    stopBlockCap: Number.isInteger(capValue) && capValue >= 0 ? capValue : 8,
    ...([managed, userToml].some((t) => tableOf(t, "hooks")?.daemon === false) ? { daemonOff: true as const } : {}),
    managedOnly,
    plugins: pluginResult.plugins,
    model,
    files,
    bypassTrust: opts.bypassTrust === true,
    userHome,
    trustStoreProblem,
    record: home === null ? null : recordSetting(userToml, cli),
  });
}

/**
 * `W_ABOVE_ROOT` for each `.claude/`/`.codex/` folder above a `.mind/` root whose files hold hooks
 * (SPEC §2.8 r3): not loaded, never ignored silently. The delegating host's own folders are its business.
 */
async function aboveRootWarnings(layout: ProjectLayout, delegatingHost: string | undefined): Promise<Warning[]> {
  const out: Warning[] = [];
  for (const d of layout.above) {
    if (d.layer === delegatingHost || !(await mayHoldHooks(foreignHookFiles([d])))) continue;
    const folder = join(d.dir, foreignFolder(d.layer));
    out.push(warning(
      "W_ABOVE_ROOT",
      `${folder} holds hooks but is above the project root ${layout.root}, whose .mind/ decides: its hooks are not loaded`,
      folder,
    ));
  }
  return out;
}

/**
 * Whether any of a stranger's files may define hooks — their text is searched, never parsed (an
 * untrusted project's files are not read as configuration): a file naming `hooks` counts.
 */
async function mayHoldHooks(paths: readonly string[]): Promise<boolean> {
  for (const path of paths) {
    try {
      const info = await Deno.stat(path);
      if (!info.isFile) continue;
      if (info.size > 4 * 1024 * 1024 || (await Deno.readTextFile(path)).includes("hooks")) return true;
    } catch {
      // missing or unreadable: no hooks from it
    }
  }
  return false;
}

/**
 * Adds the stored trust facts to a discovered handler: a plain record. Its hash is taken on first use
 * (`hookHash`) and its status decided by `assessTrust` (src/trust/verdict.ts), which a hook with a pin
 * scope needs its pins checked for (src/config/pinning.ts).
 */
function withTrust(
  d: DiscoveredHandler,
  state: HookState | undefined,
  scope: PinScope | null,
  requirePins: boolean,
): HookHandler {
  const managed = d.layer === "managed";
  const pins: HookPins | null = scope === null
    ? null
    : { scope, stored: state?.trusted_files ?? null, storedUnpinnable: state?.unpinnable ?? null, requirePins };
  return {
    ...d,
    enabled: managed ? true : state?.enabled ?? true,
    trustedHash: managed ? null : state?.trusted_hash ?? null,
    trustedFailClosed: !managed && state?.trusted_fail_closed === true,
    pins,
  };
}

/**
 * `[hooks] require_pins = true` in the managed requirements, the user config.toml or a `-c` override
 * (SPEC §3.5 r3): a layer below cannot switch off what a layer above requires.
 */
function requirePinsOf(tables: readonly (JsonObject | undefined)[]): boolean {
  return tables.some((t) => tableOf(t, "hooks")?.require_pins === true);
}
