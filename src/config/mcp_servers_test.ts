/**
 * Server scoping as pure logic (src/config/mcp_servers.ts, SPEC §2.7): which definition a hook
 * resolves, and what a stranger's definition loses (environment secrets) or gains (plugin paths).
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { noServers, readServers, resolveServer, type ServerDef } from "./mcp_servers.ts";
import type { Warning } from "./warnings.ts";

const def = (name: string, source: string): ServerDef => ({
  name,
  written: { url: `http://${source}/` },
  config: { url: `http://${source}/` },
  source,
  layer: "user",
});

Deno.test("resolveServer: own scope first, then user-side; user-side hooks never see a stranger's", () => {
  const s = noServers();
  s.userSide.set("scan", def("scan", "user"));
  s.project.set("scan", def("scan", "project"));
  s.project.set("own", def("own", "project"));
  s.plugins.set("p", new Map([["scan", def("scan", "plugin-p")], ["mine", def("mine", "plugin-p")]]));
  const from = (layer: ServerDef["layer"], server: string, plugin?: string) =>
    resolveServer(s, { layer, ...(plugin ? { plugin } : {}) }, server)?.source ?? null;
  assertEquals(
    [from("user", "scan"), from("profile", "scan"), from("cli", "scan"), from("managed", "scan")],
    ["user", "user", "user", "user"],
  );
  assertEquals([from("user", "own"), from("user", "mine"), from("cli", "own")], [null, null, null]);
  assertEquals([from("project", "scan"), from("project", "own"), from("project", "mine")], [
    "project",
    "project",
    null,
  ]);
  assertEquals(
    [from("plugin", "scan", "p"), from("plugin", "mine", "p"), from("plugin", "own", "p"), from("plugin", "scan", "q")],
    ["plugin-p", "plugin-p", null, "user"],
  );
  // Names a stranger chooses are map keys, never object properties.
  assertEquals([from("user", "__proto__"), from("project", "constructor"), from("user", "toString")], [
    null,
    null,
    null,
  ]);
});

Deno.test("readServers: a stranger's definition loses environment secrets, keeps what it wrote for the hash", () => {
  const warnings: Warning[] = [];
  const table = {
    web: {
      url: "https://x.test/${TOKEN}",
      bearer_token_env_var: "TOKEN",
      env_http_headers: { "X-Key": "TOKEN" },
      headers: { "X-Team": "a" },
    },
    local: {
      command: "${CLAUDE_PLUGIN_ROOT}/bin/server",
      args: ["--data", "${PLUGIN_DATA}", "${HOME}"],
      env: { API_KEY: "${API_KEY:-none}" },
      env_vars: ["AWS_SECRET_ACCESS_KEY"],
    },
    broken: "not a table",
  };
  const vars = new Map([["CLAUDE_PLUGIN_ROOT", "/p"], ["PLUGIN_DATA", "/d"]]);
  const defs = readServers(table, { source: "/p/.mcp.json", layer: "plugin", userSide: false, vars }, warnings);
  assertEquals(defs.get("web")?.config, { url: "https://x.test/${TOKEN}", headers: { "X-Team": "a" } });
  assertEquals(defs.get("web")?.written, table.web);
  assertEquals(defs.get("local")?.config, {
    command: "/p/bin/server",
    args: ["--data", "/d", "${HOME}"],
    env: { API_KEY: "${API_KEY:-none}" },
  });
  assertEquals(defs.get("local")?.written, table.local);
  assertEquals(defs.has("broken"), false);
  assertEquals(warnings.map((w) => `${w.code} ${/\[mcp_servers\.(\w+)\] (\S+)/.exec(w.message)?.slice(1).join(" ")}`), [
    "W_MCP_SECRET_IGNORED web bearer_token_env_var",
    "W_MCP_SECRET_IGNORED web env_http_headers",
    "W_MCP_SECRET_IGNORED web ${TOKEN}",
    "W_MCP_SECRET_IGNORED local env_vars",
    "W_MCP_SECRET_IGNORED local ${HOME}",
    "W_MCP_SECRET_IGNORED local ${API_KEY}",
    "W_BAD_FIELD broken must",
  ]);
  // A user-side definition is used as written.
  const mine = readServers(table, { source: "/home/config.toml", layer: "user", userSide: true }, []);
  assertEquals(mine.get("web")?.config, table.web);
  assertEquals(mine.get("local")?.config, table.local);
});

Deno.test("readServers: a table nested past 64 levels is refused with a warning, never a stack overflow", () => {
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 100_000; i++) deep = { n: deep };
  const shallow: Record<string, unknown> = { command: "x", env: {} };
  const warnings: Warning[] = [];
  const defs = readServers(
    { deep: { command: "x", env: deep }, shallow },
    { source: "/p/.mcp.json", layer: "plugin", userSide: false },
    warnings,
  );
  assertEquals([...defs.keys()], ["shallow"]);
  assertEquals(warnings.map((w) => [w.code, w.message]), [
    ["W_BAD_FIELD", "[mcp_servers.deep] nests deeper than 64 levels; ignored"],
  ]);
});
