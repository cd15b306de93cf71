/**
 * What a run will parse, decided before it starts (SECURITY.md, "The dispatch fast path"): whether a
 * stranger's file is in reach (a trusted project's layer, a plugin, a `--hooks-file`), and whether
 * the configuration defines MCP servers (the planning pass that grants their hosts).
 *
 * Decided from parsed data, exactly as discovery decides: the user's config.toml, its profile and
 * this run's `-c` overrides are parsed here with discovery's own loader (they are the user's own
 * files, not a stranger's), the project root is found with discovery's `findProjectRoot`, and a
 * project counts as trusted, or plugins as configured, through discovery's own functions. So a
 * path spelled with escapes in TOML (`"\u007f"`) is read as what it is. A stranger's file is never
 * parsed here; to see whether it defines MCP servers its text is only searched.
 *
 * This decision is an optimisation, not the guard: on the fast path discovery itself refuses to
 * parse a plugin or a `--hooks-file`, and the dispatch stops before a stranger's matched hook
 * (src/config/fast_path_guard.ts), so a decision overtaken by a change (TOCTOU) only costs a second
 * start, in the Worker.
 * @module
 */
import { LAYOUT } from "../config/foreign_layout.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import type { ParsedArgs } from "../util/args.ts";
import { configOptionsOf, fromCliValues, resolveSettings } from "../engine/settings.ts";
import { join, osUserHome } from "../util/paths.ts";
import type { PlanFacts } from "./plan.ts";

/** What a run from here reaches. */
export type Reach = {
  /** Why the run is sandboxed (a stranger's file will be parsed), or null: none is in reach. */
  sandbox: string | null;
  /**
   * Why the run must start in the Worker (a plugin or a `--hooks-file` will be parsed), or null: it
   * may start on the fast path. A trusted project's files alone do not send it there (the user trusted
   * them, and the parsers are pure); its hooks run only in the Worker (src/config/fast_path_guard.ts).
   */
  workerFirst: string | null;
  /**
   * Whether an MCP server, or an http or prompt hook (SPEC §2.2 r4), may be configured: then a planning
   * pass finds what to grant (each server's, hook's or model's host and port).
   */
  mcp: boolean;
  /**
   * The root whose tree the run reads for pinned files (SPEC §3.5), or null: the trusted project's in
   * reach; with `anyProject`, the project's in reach whatever its trust.
   */
  pinRoot: string | null;
};

/** Why a run is sandboxed when a trusted project's layer is in reach. */
export function projectInReach(root: string): string {
  return `a trusted project layer is in reach (${root})`;
}

/**
 * Whether the user side trusts any project at all: when it trusts none, no project root can be
 * trusted (discovery's `projectTrustLevel` reads only these tables), so the root search is skipped.
 */
function trustsSomeProject(tables: (JsonObject | undefined)[]): boolean {
  return tables.some((t) => {
    const projects = t?.projects;
    return isObject(projects) && Object.values(projects).some((p) => isObject(p) && p.trust_level === "trusted");
  });
}

function definesServers(data: JsonObject | undefined): boolean {
  const servers = data?.mcp_servers;
  return isObject(servers) && Object.keys(servers).length > 0;
}

/** An http or prompt hook's `type`, as JSON or TOML writes it (SPEC §2.2 r4: they reach the network). */
const NETWORK_HOOK = /"type"\s*:\s*"(?:http|prompt)"|\btype\s*=\s*["'](?:http|prompt)["']/;

/** Whether a parsed user-side table holds an http or prompt hook, or the `[hooks.model]` prompt hooks ask. */
function usesNetwork(data: JsonObject | undefined): boolean {
  const hooks = data?.hooks;
  return isObject(hooks) && (isObject(hooks.model) || NETWORK_HOOK.test(JSON.stringify(hooks)));
}

/**
 * Whether the text of a file mentions MCP servers, or with `hooks` an http or prompt hook (searched,
 * never parsed).
 */
async function mentionsServers(path: string, hooks = false): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > 16 * 1024 * 1024) return false;
    const text = await Deno.readTextFile(path);
    return text.includes("mcp_servers") || text.includes("mcpServers") || (hooks && NETWORK_HOOK.test(text));
  } catch {
    return false; // missing or unreadable: nothing to grant
  }
}

/** The files of enabled plugins that may declare MCP servers (SPEC §2.6). */
function pluginServerFiles(home: string, plugins: JsonObject): string[] {
  const out: string[] = [];
  for (const [name, cfg] of Object.entries(plugins)) {
    if (!isObject(cfg) || cfg.enabled !== true || /[\\/]|^\.\.?$/.test(name) || name === "") continue;
    const root = join(home, "plugins", name);
    out.push(join(root, ".mcp.json"), join(root, "hooks", "hooks.json"));
    for (const m of [".mind-plugin", ".codex-plugin", ".claude-plugin"]) out.push(join(root, m, "plugin.json"));
  }
  return out;
}

/**
 * What a run of `args` from `facts.searchFrom` reaches. Never throws: arguments the command will
 * refuse, or a configuration it cannot read, give the answer discovery would act on (it parses no
 * stranger's file then either). With `anyProject` (`review`, which can trust the project while it runs
 * and then pin its hooks' files), `pinRoot` is the project's root even when it is not trusted.
 */
export async function reach(
  facts: PlanFacts,
  args: ParsedArgs,
  env: Record<string, string | undefined>,
  opts: { anyProject?: boolean } = {},
): Promise<Reach> {
  const { options } = args;
  // The home as the plan resolved it (from the same command line), so the two never disagree.
  const settings = resolveSettings(fromCliValues(options), env, Deno.cwd());
  const cfg = configOptionsOf(settings, facts.searchFrom);
  // Without a home (a dispatch, SPEC §1 r3) discovery loads only the managed and CLI layers.
  const home = facts.home;
  const [{ loadConfigFile }, { buildOverrides }, discovery] = await Promise.all([
    import("../config/files.ts"),
    import("../config/overrides.ts"),
    import("../config/discovery.ts"),
  ]);
  const overrides = buildOverrides(cfg.overrides ?? []);
  if (!overrides.ok) return { sandbox: null, workerFirst: null, mcp: false, pinRoot: null }; // so does discovery
  const cli = overrides.value;
  // Kept for the fast path's discovery, which then does not parse the same bytes again.
  const keep = { handOver: true };
  const loaded = home === null ? null : await loadConfigFile(join(home, "config.toml"), "toml", keep);
  const user = loaded?.ok ? loaded.value.data : undefined;

  const userSide: (JsonObject | undefined)[] = [user, cli];
  const { profile } = discovery.selectedProfile(cfg, env, user);
  if (profile !== null && home !== null) {
    const p = await loadConfigFile(join(home, "profiles", profile, "config.toml"), "toml", keep);
    if (p.ok) userSide.push(p.value.data);
  }
  // The administrator's requirements.toml (not a stranger's either) may define servers for managed hooks.
  const managed = await loadConfigFile(facts.requirements, "toml", keep);
  if (managed.ok) userSide.push(managed.value.data);

  const strangers: string[] = [];
  const reasons: string[] = [];
  if ((cfg.hooksFiles ?? []).length > 0) reasons.push("--hooks-file is given");
  const plugins = discovery.pluginSettings(user, cli);
  if (home !== null && Object.keys(plugins).length > 0) {
    reasons.push("plugins are configured");
    strangers.push(...pluginServerFiles(home, plugins));
  }
  const { foreignLayersSetting } = await import("../config/foreign_layers.ts");
  const foreign = foreignLayersSetting(user, cli, home === null ? "cli-override" : join(home, "config.toml"));
  // With no project trusted, no root can be trusted: the search is skipped, unless the caller wants
  // the project's root whatever its trust (`review`, which can trust it while it runs).
  const root = home !== null && (trustsSomeProject([user, cli]) || opts.anyProject)
    ? await discovery.findProjectRoot(facts.searchFrom, home, { foreign, userHome: osUserHome(env) })
    : null;
  const trusted = root !== null && discovery.projectTrustLevel(user, cli, root) === "trusted";
  if (trusted) strangers.push(join(root, ".mind", "config.toml"));
  // Where else an http or prompt hook may be written (SPEC §2.2 r4), so that the network it needs is planned
  // (the fast path's, once revoked, cannot be granted again): the user's and profile's hooks.json, the
  // foreign user layers, the trusted project's hook files, every `--hooks-file`.
  const userHome = osUserHome(env);
  const foreignFiles = (base: string, user: boolean) =>
    foreign.flatMap((l) => {
      const lay = LAYOUT[l];
      const dir = join(base, user ? lay.userFolder : lay.folder);
      return (user ? lay.userFiles(dir) : lay.projectFiles(dir)).map(([name]) => join(dir, name));
    });
  const hookFiles = [
    ...(home !== null ? [join(home, "hooks.json")] : []),
    ...(home !== null && profile !== null ? [join(home, "profiles", profile, "hooks.json")] : []),
    ...(userHome !== null ? foreignFiles(userHome, true) : []),
    ...(trusted ? [join(root, ".mind", "hooks.json"), ...foreignFiles(root, false)] : []),
    ...(cfg.hooksFiles ?? []),
  ];

  let mcp = userSide.some((t) => definesServers(t) || usesNetwork(t));
  for (const f of [...strangers, ...hookFiles]) if (!mcp) mcp = await mentionsServers(f, true);
  const workerFirst = reasons[0] ?? null;
  if (trusted) reasons.push(projectInReach(root));
  return { sandbox: reasons[0] ?? null, workerFirst, mcp, pinRoot: trusted || opts.anyProject ? root : null };
}
