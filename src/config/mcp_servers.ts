/**
 * Which `[mcp_servers.<name>]` definition an `mcp_tool` hook calls (SPEC §2.7).
 *
 * The user-side layers (user, profile, CLI) and the managed layer define servers for every hook
 * (managed wins a name over the others, so a user cannot redirect a managed hook). A project's
 * `config.toml` and a plugin (its manifest's `mcpServers` or its `.mcp.json`) are a stranger's files:
 * their definitions serve only their own hooks. A hook resolves its `server` in its own
 * project/plugin scope first, then in the user-side ones; a user-side hook never sees a project's
 * or plugin's definition, so no stranger can replace or shadow a server the user's hooks use. A
 * standalone `hooks.json` defines no servers at all (discovery never reads one here).
 *
 * Secrets from the environment (`bearer_token_env_var`, `env_http_headers`, `env_vars`, and
 * `${NAME}` references) are honoured only in user-side definitions: a stranger's definition loses
 * them, with `W_MCP_SECRET_IGNORED`, so a project cannot have the engine send it the user's tokens.
 *
 * Each resolved definition keeps the table as written (what a hook's hash covers, SPEC §3.2) apart
 * from the table that is used (secrets stripped, a plugin's root variables expanded).
 * @module
 */
import type { Layer } from "../schema/handler.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { nestsTooDeep, TOO_DEEP } from "../util/nesting.ts";
import { type Warning, warning } from "./warnings.ts";

/** One server definition as a hook resolves it. */
export type ServerDef = {
  name: string;
  /** The table as written in its file (TOML read as JSON, nothing expanded): hashed as `serverSpec`. */
  written: JsonObject;
  /** The table the runner uses: without the secrets its layer may not use, plugin variables expanded. */
  config: JsonObject;
  /** The file that defines it (real path), or `cli-override`. */
  source: string;
  layer: Layer;
};

/** Every server definition, by scope. */
export type McpServers = {
  /** User, profile, CLI and managed definitions (managed wins a name): for every hook. */
  userSide: Map<string, ServerDef>;
  /** The trusted project's `config.toml`: for its own hooks only. */
  project: Map<string, ServerDef>;
  /** Each enabled plugin's own servers, by plugin name: for that plugin's hooks only. */
  plugins: Map<string, Map<string, ServerDef>>;
};

/** An empty set of definitions. */
export function noServers(): McpServers {
  return { userSide: new Map(), project: new Map(), plugins: new Map() };
}

/** Deepest nesting of a server table that is read (SPEC §15: deeper input is refused, never a stack overflow). */

/** Fields whose value comes from the engine's environment (Codex's names). */
const ENV_SECRET_FIELDS = ["bearer_token_env_var", "env_http_headers", "env_vars"] as const;
/** A `${NAME}` reference (Claude Code's `.mcp.json` expands these from the environment). */
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;

/** Expands `${NAME}` in the strings of `value` when `vars` has NAME; other references stay literal. */
function expandVars(value: unknown, vars: ReadonlyMap<string, string>, seen: Set<string>): unknown {
  if (typeof value === "string") {
    return value.replace(ENV_REFERENCE, (whole, name: string) => {
      const v = vars.get(name);
      if (v !== undefined) return v;
      seen.add(name);
      return whole;
    });
  }
  if (Array.isArray(value)) return value.map((v) => expandVars(v, vars, seen));
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) out[k] = expandVars(v, vars, seen);
    return out;
  }
  return value;
}

/**
 * The table a stranger's definition may use: the env-derived secret fields removed, `${NAME}`
 * references left unexpanded (except the plugin variables in `vars`); one warning per thing ignored.
 */
export function strangerConfig(
  name: string,
  table: JsonObject,
  source: string,
  vars: ReadonlyMap<string, string>,
  warnings: Warning[],
): JsonObject {
  const config: JsonObject = { ...table };
  for (const field of ENV_SECRET_FIELDS) {
    if (!Object.hasOwn(config, field)) continue;
    delete config[field];
    warnings.push(
      warning(
        "W_MCP_SECRET_IGNORED",
        `[mcp_servers.${name}] ${field} ignored: only user-side layers (user, profile, -c, managed) may give a server values from the environment`,
        source,
      ),
    );
  }
  const seen = new Set<string>();
  const expanded = expandVars(config, vars, seen) as JsonObject;
  for (const v of seen) {
    warnings.push(
      warning(
        "W_MCP_SECRET_IGNORED",
        `[mcp_servers.${name}] \${${v}} is not expanded: only user-side layers may give a server values from the environment`,
        source,
      ),
    );
  }
  return expanded;
}

/**
 * The definitions of one `mcp_servers` table (a config.toml's, or a plugin's map). `userSide`
 * keeps every field; otherwise {@link strangerConfig} applies. A non-table entry is a warning.
 */
export function readServers(
  table: unknown,
  src: { source: string; layer: Layer; userSide: boolean; vars?: ReadonlyMap<string, string> },
  warnings: Warning[],
): Map<string, ServerDef> {
  const out = new Map<string, ServerDef>();
  if (table === undefined) return out;
  if (!isObject(table)) {
    warnings.push(warning("W_BAD_FIELD", "mcp_servers must be a table of servers; ignored", src.source));
    return out;
  }
  for (const [name, cfg] of Object.entries(table)) {
    if (!isObject(cfg)) {
      warnings.push(warning("W_BAD_FIELD", `[mcp_servers.${name}] must be a table; ignored`, src.source));
      continue;
    }
    if (nestsTooDeep(cfg)) {
      warnings.push(
        warning(
          "W_BAD_FIELD",
          `[mcp_servers.${name}] ${TOO_DEEP}; ignored`,
          src.source,
        ),
      );
      continue;
    }
    const config = src.userSide ? cfg : strangerConfig(name, cfg, src.source, src.vars ?? new Map(), warnings);
    out.set(name, { name, written: cfg, config, source: src.source, layer: src.layer });
  }
  return out;
}

/** The definition an mcp_tool hook of `layer` (and `plugin`) calls for `server`, or null. */
export function resolveServer(
  servers: McpServers,
  hook: { layer: Layer; plugin?: string },
  server: string,
): ServerDef | null {
  const own = hook.layer === "project"
    ? servers.project
    : hook.layer === "plugin" && hook.plugin !== undefined
    ? servers.plugins.get(hook.plugin)
    : undefined;
  return own?.get(server) ?? servers.userSide.get(server) ?? null;
}

/**
 * `W_MCP_SCOPED` for each project/plugin definition that reuses the name of a user-side one: it
 * serves only that layer's hooks, and the user's hooks keep the user-side definition.
 */
export function scopedNameWarnings(servers: McpServers): Warning[] {
  const out: Warning[] = [];
  const scopes: [string, Map<string, ServerDef>][] = [
    ["this project's", servers.project],
    ...[...servers.plugins].map(([p, m]) => [`plugin ${p}'s`, m] as [string, Map<string, ServerDef>]),
  ];
  for (const [whose, defs] of scopes) {
    for (const def of defs.values()) {
      const theirs = servers.userSide.get(def.name);
      if (!theirs) continue;
      out.push(
        warning(
          "W_MCP_SCOPED",
          `[mcp_servers.${def.name}] here serves only ${whose} own hooks; every other hook keeps the definition in ${theirs.source}`,
          def.source,
        ),
      );
    }
  }
  return out;
}

/** The server definitions that `handlers` resolve, each once: what a pool may open, a sandbox grant. */
export function resolvedServers(handlers: Iterable<{ server?: ServerDef | null }>): ServerDef[] {
  const out = new Set<ServerDef>();
  for (const h of handlers) if (h.server) out.add(h.server);
  return [...out];
}
