/**
 * The planning pass of the sandbox: inside a read-only Worker, load the configuration as the command
 * would and list what its MCP servers need (SPEC §2.7): the `host:port` of every HTTP server and the
 * program of every stdio server that some loaded mcp_tool hook resolves, in that hook's own scope —
 * a definition no hook calls (or one a project wrote for nobody but itself) is granted nothing.
 * Only runs when a configuration file mentions `mcp_servers`.
 * @module
 */
import type { SandboxPlan } from "./plan.ts";
import type { ParsedArgs } from "../util/args.ts";
import { resolvedServers } from "../config/mcp_servers.ts";
import { handlerModule } from "../config/handler_types/registry.ts";
import { configOptionsOf, fromCliValues, resolveSettings } from "../engine/settings.ts";

/** `host:port` of an http(s) URL, or null. */
export function netTarget(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    const port = u.port || (u.protocol === "https:" ? "443" : "80");
    return `${u.hostname}:${port}`;
  } catch {
    return null;
  }
}

/** What the configured MCP servers need, loaded with the command line of this run. */
export async function mcpNeeds(plan: SandboxPlan, args: ParsedArgs): Promise<{ hosts: string[]; programs: string[] }> {
  const { loadCatalog } = await import("../config/discovery.ts");
  const settings = resolveSettings(fromCliValues(args.options), Deno.env.toObject(), Deno.cwd());
  const loaded = await loadCatalog({ ...configOptionsOf(settings, plan.facts.searchFrom), home: plan.facts.home });
  const hosts = new Set<string>();
  const programs = new Set<string>();
  if (!loaded.ok) return { hosts: [], programs: [] };
  for (const { config: cfg } of resolvedServers(loaded.value.handlers)) {
    if (typeof cfg.url === "string") {
      const t = netTarget(cfg.url);
      if (t) hosts.add(t);
    } else if (typeof cfg.command === "string" && cfg.command.trim() !== "") {
      programs.add(cfg.command.trim());
    }
  }
  // http and prompt hooks (SPEC §2.2 r4): each one's host and port only, a stranger's included.
  for (const h of loaded.value.handlers) {
    for (const t of handlerModule(h.handler).netReach(h.handler, loaded.value.model)) hosts.add(t);
  }
  return { hosts: [...hosts], programs: [...programs] };
}
