/**
 * MCP server scoping (SPEC §2.7) and the resolved server in the hash (SPEC §3.2), end to end through
 * the real CLI: a trusted project's `config.toml` — or its `hooks.json` root — cannot redirect a user
 * hook's server (nor send it the user's secrets), a project's own servers serve only its own hooks
 * and get no secrets from the environment, `serve` never starts a server a stranger defined for a
 * user hook, redefining a hook's server changes its hash, the sandbox grants only the servers that
 * loaded hooks resolve, and a plugin's own servers (`.mcp.json`, manifest `mcpServers`) serve only it.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import {
  dispatch,
  event,
  group,
  type Json,
  makeHome,
  makeProject,
  runCli,
  trustAll,
  writeConfigToml,
  writeHooksJson,
} from "./helpers/cli.ts";
import { type RunningServer, startHttpServer, stdioServerConfig } from "./helpers/mcp_server.ts";
import { join } from "node:path";

/** An HTTP test server that logs each `initialize` (with its Authorization header). */
async function loggedServer(): Promise<RunningServer & { log: string; lines(): Promise<string[]> }> {
  const log = await Deno.makeTempFile({ prefix: "mcp_scope_" });
  const server = await startHttpServer({ log });
  return {
    ...server,
    log,
    lines: async () => (await Deno.readTextFile(log)).split("\n").filter((l) => l !== ""),
    stop: async () => {
      await server.stop();
      await Deno.remove(log).catch(() => {});
    },
  };
}

/** The Authorization header each `initialize` carried (`-` for none). */
function auths(lines: string[]): string[] {
  return lines.filter((l) => l.startsWith("http-initialize ")).map((l) => l.split(" ").slice(2).join(" "));
}

function mcpHook(server: string, tool: string, extra: Json = {}): Json {
  return { type: "mcp_tool", server, tool, timeout: 20, ...extra };
}

const rewrite = (server = "scanner") => mcpHook(server, "rewrite", { input: { command: "${tool_input.command}" } });

function pre(cwd: string, cmd = "make"): Json {
  return event("PreToolUse", { cwd, tool_input: { cmd } });
}

async function trustProject(home: string, dir: string): Promise<void> {
  const r = await runCli(["project", "trust", dir, "--home", home]);
  assertEquals(r.code, 0, r.stderr);
}

type ListHook = { key: string; status: string; serverSource: string | null };
async function listStatuses(home: string, cwd: string): Promise<Record<string, string>> {
  const r = await runCli(["list", "--json", "--home", home, "--cwd", cwd]);
  assertEquals(r.code, 0, r.stderr);
  const data = r.json<{ hooks: ListHook[] }>();
  return Object.fromEntries(data.hooks.map((h) => [h.key, h.status]));
}

const SECRETS = { USER_TOKEN: "u-secret", OTHER_SECRET: "o-secret" };

Deno.test("mcp scope: a trusted project's config.toml cannot redirect a user hook's server, nor get its secrets", async () => {
  const mine = await loggedServer();
  const theirs = await loggedServer();
  try {
    await using home = await makeHome();
    await using proj = await makeProject();
    await writeConfigToml(
      home.path,
      `[mcp_servers.scanner]\nurl = ${JSON.stringify(mine.url)}\nbearer_token_env_var = "USER_TOKEN"\n`,
    );
    await writeHooksJson(home.path, { PreToolUse: [group([rewrite()])] });
    await writeConfigToml(
      proj.mindDir,
      `[mcp_servers.scanner]\nurl = ${JSON.stringify(theirs.url)}\nbearer_token_env_var = "OTHER_SECRET"\n`,
    );
    await trustProject(home.path, proj.path);
    await trustAll(home.path, proj.path);
    const r = await dispatch(home.path, pre(proj.path), [], { env: SECRETS });
    assertEquals([r.decision, r.updatedInput], ["allow", { cmd: "make --dry-run" }]);
    assertEquals(auths(await theirs.lines()), [], "the project's server was contacted for a user hook");
    assertEquals(auths(await mine.lines()), ["Bearer u-secret"]);
  } finally {
    await mine.stop();
    await theirs.stop();
  }
});

Deno.test("mcp scope: mcp_servers at a hooks.json root define nothing (user or project)", async () => {
  const mine = await loggedServer();
  const theirs = await loggedServer();
  try {
    await using home = await makeHome();
    await using proj = await makeProject();
    await writeConfigToml(home.path, `[mcp_servers.scanner]\nurl = ${JSON.stringify(mine.url)}\n`);
    await writeHooksJson(home.path, { PreToolUse: [group([rewrite()])] });
    await Deno.writeTextFile(
      join(proj.mindDir, "hooks.json"),
      JSON.stringify({ mcp_servers: { scanner: { url: theirs.url }, ghost: { url: theirs.url } }, hooks: {} }),
    );
    // A user hooks.json cannot define one either: `ghost` stays unconfigured.
    await Deno.writeTextFile(
      join(home.path, "hooks.json"),
      JSON.stringify({
        mcp_servers: { ghost: { url: theirs.url } },
        hooks: { PreToolUse: [group([rewrite(), rewrite("ghost")])] },
      }),
    );
    await trustProject(home.path, proj.path);
    await trustAll(home.path, proj.path);
    const r = await dispatch(home.path, pre(proj.path));
    assertEquals(r.runs.map((x) => x.status), ["completed", "failed"]);
    assert(/MCP server "ghost" is not configured/.test(r.runs[1].reason ?? ""), r.runs[1].reason ?? "");
    assertEquals(auths(await theirs.lines()), []);
    assertEquals(auths(await mine.lines()), ["-"]);
    assert(
      r.warnings.some((w) => w.code === "W_UNKNOWN_FIELD" && w.message.includes('"mcp_servers"')),
      JSON.stringify(r.warnings),
    );
  } finally {
    await mine.stop();
    await theirs.stop();
  }
});

Deno.test("mcp scope: a project's own server serves its own hooks, without secrets from the environment", async () => {
  const mine = await loggedServer();
  const theirs = await loggedServer();
  try {
    await using home = await makeHome();
    await using proj = await makeProject();
    await writeConfigToml(
      home.path,
      `[mcp_servers.shared]\nurl = ${JSON.stringify(mine.url)}\nbearer_token_env_var = "USER_TOKEN"\n`,
    );
    await writeConfigToml(
      proj.mindDir,
      `[mcp_servers.own]\nurl = ${JSON.stringify(theirs.url)}\nbearer_token_env_var = "OTHER_SECRET"\n` +
        `env_http_headers = { "X-Key" = "OTHER_SECRET" }\n` +
        `[[hooks.PreToolUse]]\nhooks = [ { type = "mcp_tool", server = "own", tool = "rewrite", timeout = 20 }, ` +
        `{ type = "mcp_tool", server = "shared", tool = "allow", timeout = 20 } ]\n`,
    );
    // The user-side hook cannot reach the project's server.
    await writeHooksJson(home.path, { PreToolUse: [group([mcpHook("own", "allow")])] });
    await trustProject(home.path, proj.path);
    await trustAll(home.path, proj.path);
    const r = await dispatch(home.path, pre(proj.path), [], { env: SECRETS });
    const byLayer = r.runs.map((x) => `${x.layer}:${x.status}`);
    assertEquals(byLayer, ["user:failed", "project:completed", "project:completed"]);
    assert(/MCP server "own" is not configured/.test(r.runs[0].reason ?? ""), r.runs[0].reason ?? "");
    assertEquals(auths(await theirs.lines()), ["-"], "a project server got a secret from the environment");
    // A project hook may call a user-side server (its definition is in the hook's hash).
    assertEquals(auths(await mine.lines()), ["Bearer u-secret"]);
    const ignored = r.warnings.filter((w) => w.code === "W_MCP_SECRET_IGNORED").map((w) => w.message);
    assertEquals(ignored.length, 2, JSON.stringify(r.warnings));
  } finally {
    await mine.stop();
    await theirs.stop();
  }
});

Deno.test("mcp scope: redefining the server a trusted hook calls makes it modified (serverSpec in the hash)", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const toml = (url: string) => `[mcp_servers.scanner]\nurl = ${JSON.stringify(url)}\n`;
  await writeConfigToml(home.path, toml("http://127.0.0.1:9/a"));
  await writeHooksJson(home.path, { PreToolUse: [group([rewrite()])] });
  await writeConfigToml(
    proj.mindDir,
    `[[hooks.PreToolUse]]\nhooks = [ { type = "mcp_tool", server = "scanner", tool = "rewrite" } ]\n`,
  );
  await trustProject(home.path, proj.path);
  await trustAll(home.path, proj.path);
  const before = await listStatuses(home.path, proj.path);
  assertEquals(Object.values(before), ["trusted", "trusted"]);

  // The project defining its own `scanner` redirects only its own hook.
  await Deno.writeTextFile(
    join(proj.mindDir, "config.toml"),
    toml("http://127.0.0.1:9/project") + (await Deno.readTextFile(join(proj.mindDir, "config.toml"))),
  );
  const projectDefined = await listStatuses(home.path, proj.path);
  assertEquals(Object.entries(projectDefined).map(([k, v]) => `${k.split(":")[0]}:${v}`), [
    "user:trusted",
    "project:modified",
  ]);
  const listed = await runCli(["list", "--json", "--home", home.path, "--cwd", proj.path]);
  assertEquals(listed.json<{ hooks: ListHook[] }>().hooks.map((h) => h.serverSource), [
    join(home.path, "config.toml"),
    join(proj.mindDir, "config.toml"),
  ]);

  // The user changing the server's URL modifies the user hook.
  const cfg = await Deno.readTextFile(join(home.path, "config.toml"));
  await Deno.writeTextFile(join(home.path, "config.toml"), cfg.replace("9/a", "9/b"));
  const after = await listStatuses(home.path, proj.path);
  assertEquals(Object.entries(after).map(([k, v]) => `${k.split(":")[0]}:${v}`), [
    "user:modified",
    "project:modified",
  ]);
});

/** Runs `serve` for one dispatch request (end of input then shuts it down) and returns the result. */
async function serveOnce(home: string, input: Json): Promise<Json> {
  const line = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "dispatch", params: input }) + "\n";
  const r = await runCli(["serve", "--home", home], { stdin: line });
  assertEquals(r.code, 0, r.stderr);
  const reply = r.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l)).find((m) => m.id === 1);
  assert(reply && reply.result, r.stdout);
  return reply.result as Json;
}

Deno.test("mcp scope: serve never starts a server that a project defined for a user hook, or for an untrusted hook", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const log = join(home.path, "stdio.log");
  const marker = join(home.path, "started-by-project");
  const cfg = stdioServerConfig({ log });
  await writeConfigToml(
    home.path,
    `[mcp_servers.local]\ncommand = ${JSON.stringify(cfg.command)}\nargs = ${JSON.stringify(cfg.args)}\n` +
      `startup_timeout_sec = 60\n[mcp_servers.local.env]\n` +
      Object.entries(cfg.env as Json).map(([k, v]) => `${k} = ${JSON.stringify(v)}\n`).join(""),
  );
  await writeHooksJson(home.path, { PreToolUse: [group([mcpHook("local", "deny", { timeout: 60 })])] });
  const sh = (name: string) =>
    `[mcp_servers.${name}]\ncommand = "/bin/sh"\nargs = ["-c", ${JSON.stringify(`echo ${name} >> ${marker}`)}]\n`;
  await writeConfigToml(
    proj.mindDir,
    sh("local") + sh("evil") +
      `[[hooks.PreToolUse]]\nhooks = [ { type = "mcp_tool", server = "evil", tool = "deny" } ]\n`,
  );
  await trustProject(home.path, proj.path);
  // Only the user hook is trusted; the project's hook (and its server) is not.
  const list = await runCli(["list", "--json", "--home", home.path, "--cwd", proj.path]);
  const userKey = list.json<{ hooks: ListHook[] }>().hooks.find((h) => h.key.startsWith("user:"))!.key;
  assertEquals((await runCli(["trust", userKey, "--home", home.path, "--cwd", proj.path])).code, 0);
  const r = await serveOnce(home.path, pre(proj.path));
  assertEquals(r.decision, "deny", JSON.stringify(r.runs));
  assertEquals((r.runs as Json[]).map((x) => [x.status, x.reason]), [["blocked", null], ["skipped", "untrusted"]]);
  assertEquals(await Deno.readTextFile(marker).catch(() => "(none)"), "(none)", "serve started a project's server");
  assertEquals((await Deno.readTextFile(log)).trim().split("\n").length, 1);
});

Deno.test("mcp scope: the sandbox grants the network only to servers that loaded hooks resolve", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  await writeConfigToml(
    home.path,
    `[mcp_servers.used]\nurl = "http://127.0.0.1:1111/mcp"\n[mcp_servers.unused]\nurl = "http://127.0.0.1:2222/mcp"\n`,
  );
  await writeHooksJson(home.path, { PreToolUse: [group([mcpHook("used", "allow")])] });
  // A project redefining `used` for nobody but itself, plus one of its own that no hook calls.
  await writeConfigToml(
    proj.mindDir,
    `[mcp_servers.used]\nurl = "http://127.0.0.1:3333/mcp"\n[mcp_servers.spare]\nurl = "http://127.0.0.1:4444/mcp"\n`,
  );
  await trustProject(home.path, proj.path);
  const doc = await runCli(["doctor", "--home", home.path], { cwd: proj.path });
  const net = /\n {2}net +([^\n]*)/.exec(doc.stdout)?.[1];
  assertEquals(net, "127.0.0.1:1111", doc.stdout);
});

Deno.test("mcp scope: a plugin's own servers (.mcp.json, manifest mcpServers) serve only its own hooks", async () => {
  const a = await loggedServer();
  const b = await loggedServer();
  try {
    await using home = await makeHome();
    const plug = (name: string) => join(home.path, "plugins", name);
    // A Claude Code plugin: `.mcp.json` at its root, default hooks/hooks.json.
    await Deno.mkdir(join(plug("claude-style"), ".claude-plugin"), { recursive: true });
    await Deno.writeTextFile(join(plug("claude-style"), ".claude-plugin", "plugin.json"), `{"name":"claude-style"}`);
    await Deno.writeTextFile(
      join(plug("claude-style"), ".mcp.json"),
      JSON.stringify({ mcpServers: { pscan: { type: "http", url: a.url } } }),
    );
    await writeHooksJson(join(plug("claude-style"), "hooks"), {
      PreToolUse: [group([mcpHook("pscan", "allow")])],
    });
    // A Codex-style manifest with inline mcpServers and inline hooks.
    await Deno.mkdir(join(plug("codex-style"), ".codex-plugin"), { recursive: true });
    await Deno.writeTextFile(
      join(plug("codex-style"), ".codex-plugin", "plugin.json"),
      JSON.stringify({
        name: "codex-style",
        mcpServers: { qscan: { url: b.url } },
        hooks: { PreToolUse: [group([mcpHook("qscan", "allow"), mcpHook("pscan", "allow")])] },
      }),
    );
    await writeConfigToml(
      home.path,
      `[plugins.claude-style]\nenabled = true\n[plugins.codex-style]\nenabled = true\n`,
    );
    // The user's own hook cannot reach either plugin's server.
    await writeHooksJson(home.path, { PreToolUse: [group([mcpHook("pscan", "allow"), mcpHook("qscan", "allow")])] });
    await trustAll(home.path);
    const r = await dispatch(home.path, pre("/"));
    assertEquals(r.runs.map((x) => `${x.layer}:${x.status}`), [
      "user:failed",
      "user:failed",
      "plugin:completed",
      "plugin:completed",
      "plugin:failed",
    ]);
    assertEquals([auths(await a.lines()).length, auths(await b.lines()).length], [1, 1]);
  } finally {
    await a.stop();
    await b.stop();
  }
});

Deno.test("mcp scope: a TOML key named __proto__ stays a key, so the hash covers what the server table holds", async () => {
  await using home = await makeHome();
  await using proj = await makeProject();
  const write = (url: string) =>
    writeConfigToml(
      proj.mindDir,
      `[mcp_servers.scan]\n"__proto__" = { url = ${JSON.stringify(url)} }\n` +
        `[[hooks.PreToolUse]]\nhooks = [ { type = "mcp_tool", server = "scan", tool = "allow" } ]\n`,
    );
  await write("http://127.0.0.1:9/one");
  await trustProject(home.path, proj.path);
  await trustAll(home.path, proj.path);
  await write("http://127.0.0.1:9/two");
  assertEquals(Object.values(await listStatuses(home.path, proj.path)), ["modified"]);
});

Deno.test("mcp scope: the trusted copy of a definition (its server's headers included) is readable by the owner only", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await using home = await makeHome();
  await writeConfigToml(
    home.path,
    `[mcp_servers.scanner]\nurl = "http://127.0.0.1:9/mcp"\nheaders = { Authorization = "Bearer literal" }\n`,
  );
  await writeHooksJson(home.path, { PreToolUse: [group([rewrite()])] });
  await trustAll(home.path);
  const dir = join(home.path, "hooks", "trusted");
  const copies = [];
  for await (const e of Deno.readDir(dir)) copies.push(join(dir, e.name));
  assertEquals(copies.length, 1);
  assert((await Deno.readTextFile(copies[0])).includes("Bearer literal"), "the copy holds the server table");
  assertEquals([(await Deno.stat(copies[0])).mode! & 0o777, (await Deno.stat(dir)).mode! & 0o077], [0o600, 0]);
});

Deno.test("mcp scope: a plugin .mcp.json nested 100,000 deep is refused with a warning; dispatch answers", async () => {
  await using home = await makeHome();
  const root = join(home.path, "plugins", "deep");
  await writeHooksJson(join(root, "hooks"), { PreToolUse: [group([mcpHook("deep", "allow")])] });
  const depth = 100_000;
  await Deno.writeTextFile(
    join(root, ".mcp.json"),
    `{"mcpServers": {"deep": {"command": "x", "env": ${'{"n":'.repeat(depth)}1${"}".repeat(depth)}}}}`,
  );
  await writeConfigToml(home.path, `[plugins.deep]\nenabled = true\n`);
  await trustAll(home.path);
  const r = await dispatch(home.path, pre("/"));
  assertEquals(r.runs.map((x) => x.status), ["failed"]);
  // The file is refused when read (W_PARSE names its line); a table nested past the bound in a file that
  // reads would be refused by the server reader (W_BAD_FIELD, src/config/mcp_servers_test.ts).
  assert(
    r.warnings.some((w) => w.code === "W_PARSE" && w.message.includes("deeper than 64")),
    JSON.stringify(r.warnings),
  );
});
