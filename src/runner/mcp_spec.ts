/**
 * A `[mcp_servers.<name>]` entry read into what a connection needs (SPEC §2.7): Streamable HTTP
 * (`url`, headers, secrets from the environment) or stdio (`command`, `args`, `env`). Which entry a
 * hook calls is decided by discovery (src/config/mcp_servers.ts); this reads only that one.
 * @module
 */
import type { JsonObject } from "../util/json.ts";
import { fail, ok, type Result } from "../util/result.ts";

/** Default bound on opening a server (initialize handshake), as Codex's `startup_timeout_sec`. */
export const DEFAULT_STARTUP_TIMEOUT_SEC = 10;

/** A `[mcp_servers.<name>]` entry, checked. */
export type ServerSpec =
  | { kind: "http"; url: string; headers: Record<string, string>; toolTimeoutSec: number | null }
  | {
    kind: "stdio";
    command: string;
    args: string[];
    env: Record<string, string>;
    cwd: string | null;
    startupTimeoutSec: number;
    toolTimeoutSec: number | null;
  };

/** `v` as a table of strings (absent: empty), or null when it is not one. */
function stringRecord(v: unknown): Record<string, string> | null {
  if (v === undefined) return {};
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== "string") return null;
    out[k] = x;
  }
  return out;
}

/** `v` when it is a positive finite number, else null. */
function positive(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null;
}

/** Reads one server entry (SPEC §2.7): `url` (+ `headers`) or `command` (+ `args`, `env`). */
export function serverSpec(name: string, cfg: JsonObject): Result<ServerSpec> {
  const where = `[mcp_servers.${name}]`;
  if (cfg.enabled === false) return fail(`${where} is disabled (enabled = false)`);
  const toolTimeoutSec = positive(cfg.tool_timeout_sec);
  if (cfg.url !== undefined && cfg.command !== undefined) {
    return fail(`${where} has both url and command; give one`);
  }
  if (typeof cfg.url === "string") {
    let url: URL;
    try {
      url = new URL(cfg.url);
    } catch {
      return fail(`${where} url ${JSON.stringify(cfg.url)} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return fail(`${where} url must be http:// or https://`);
    }
    // `http_headers` is Codex's spelling of the same table.
    const headers = stringRecord(cfg.headers ?? cfg.http_headers);
    if (!headers) return fail(`${where} headers must be a table of strings`);
    // Codex's `env_http_headers` and `bearer_token_env_var`: secrets stay in the environment, not in
    // a config file. Discovery removes both from a stranger's definition (SPEC §2.7), so only a
    // user-side server can name a variable here.
    const envHeaders = stringRecord(cfg.env_http_headers);
    if (!envHeaders) return fail(`${where} env_http_headers must be a table of strings`);
    for (const [header, variable] of Object.entries(envHeaders)) {
      const value = Deno.env.get(variable);
      if (value) headers[header] = value;
    }
    if (typeof cfg.bearer_token_env_var === "string") {
      const token = Deno.env.get(cfg.bearer_token_env_var);
      if (!token) return fail(`${where} bearer_token_env_var ${cfg.bearer_token_env_var} is not set`);
      headers.Authorization = `Bearer ${token}`;
    }
    return ok({ kind: "http", url: url.href, headers, toolTimeoutSec });
  }
  if (typeof cfg.command === "string" && cfg.command.trim() !== "") {
    const args = cfg.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) {
      return fail(`${where} args must be a list of strings`);
    }
    const env = stringRecord(cfg.env);
    if (!env) return fail(`${where} env must be a table of strings`);
    // Codex's `env_vars`: engine variables passed through by name (user-side servers only, SPEC §2.7).
    const passed = cfg.env_vars ?? [];
    if (!Array.isArray(passed) || passed.some((v) => typeof v !== "string")) {
      return fail(`${where} env_vars must be a list of variable names`);
    }
    for (const variable of passed as string[]) {
      const value = Deno.env.get(variable);
      if (value !== undefined && !Object.hasOwn(env, variable)) env[variable] = value;
    }
    return ok({
      kind: "stdio",
      command: cfg.command,
      args: args as string[],
      env,
      cwd: typeof cfg.cwd === "string" ? cfg.cwd : null,
      startupTimeoutSec: positive(cfg.startup_timeout_sec) ?? DEFAULT_STARTUP_TIMEOUT_SEC,
      toolTimeoutSec,
    });
  }
  return fail(`${where} needs url (Streamable HTTP) or command (stdio)`);
}
