/**
 * MCP-tool handlers (SPEC §7.3): end-to-end one-shot dispatches of `mcp_tool` hooks against a real
 * MCP server over Streamable HTTP (tests/helpers/mcp_server.ts). The `${a.b}` expansion table is
 * src/runner/mcp_input_test.ts.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { startHttpServer, stdioServerConfig } from "./helpers/mcp_server.ts";

const MAIN = decodeURIComponent(new URL("../main.ts", import.meta.url).pathname);
const CONFIG = decodeURIComponent(new URL("../deno.json", import.meta.url).pathname);

// ---------------------------------------------------------------------------------------------
// End to end (one-shot dispatch); the expansion's unit tests are src/runner/mcp_input_test.ts

type RunRecord = { key: string; status: string; reason: string | null; exit_code: number | null; duration_ms: number };
type Result = {
  decision: string | null;
  reason: string | null;
  updatedInput: Record<string, unknown> | null;
  additionalContext: string[];
  systemMessages: string[];
  runs: RunRecord[];
};

/** Runs `mind-hooks dispatch` with the event on stdin. */
async function dispatch(home: string, event: Record<string, unknown>): Promise<Result> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-q",
      "-P",
      "--no-prompt",
      "--config",
      CONFIG,
      MAIN,
      "dispatch",
      "--home",
      home,
      "--requirements",
      `${home}/none.toml`,
    ],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(event)));
  await w.close();
  const out = await child.output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, `dispatch exited ${out.code}: ${stderr}`);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** A JSON value as TOML (a table inline, `{ K = "v" }`; strings, numbers and arrays as in JSON). */
function tomlValue(v: unknown): string {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return JSON.stringify(v);
  return `{ ${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)} = ${tomlValue(x)}`).join(", ")} }`;
}

/** A home whose config.toml declares the servers and whose hooks.json holds the hooks. */
async function homeWith(servers: Record<string, Record<string, unknown>>, hooks: Record<string, unknown>) {
  const home = await Deno.makeTempDir({ prefix: "mcp_test_" });
  let toml = "";
  for (const [name, cfg] of Object.entries(servers)) {
    toml += `[mcp_servers.${name}]\n`;
    for (const [k, v] of Object.entries(cfg)) toml += `${k} = ${tomlValue(v)}\n`;
  }
  await Deno.writeTextFile(`${home}/config.toml`, toml);
  await Deno.writeTextFile(`${home}/hooks.json`, JSON.stringify({ hooks }));
  return home;
}

/** Trusts every hook of the home with the real CLI, as a user would. */
async function trustAll(home: string): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-q",
      "-P",
      "--no-prompt",
      "--config",
      CONFIG,
      MAIN,
      "trust",
      "--all",
      "--home",
      home,
      "--requirements",
      `${home}/none.toml`,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
}

function preToolUse(command = "rm -rf /tmp/x"): Record<string, unknown> {
  return {
    session_id: "mcp-e2e",
    transcript_path: null,
    cwd: "/",
    hook_event_name: "PreToolUse",
    model: "m",
    turn_id: "t1",
    permission_mode: "default",
    tool_name: "exec_command",
    tool_use_id: "call-1",
    tool_input: { cmd: command },
  };
}

function userPrompt(prompt = "hello"): Record<string, unknown> {
  return {
    session_id: "mcp-e2e",
    transcript_path: null,
    cwd: "/",
    hook_event_name: "UserPromptSubmit",
    model: "m",
    turn_id: "t1",
    permission_mode: "default",
    prompt,
  };
}

function mcpHook(tool: string, extra: Record<string, unknown> = {}, server = "scanner") {
  return { type: "mcp_tool", server, tool, ...extra };
}

/** One handler on `event`; runs it (trusted) and returns the result. */
async function runOne(
  servers: Record<string, Record<string, unknown>>,
  event: Record<string, unknown>,
  handlers: unknown[],
): Promise<Result> {
  const home = await homeWith(servers, { [String(event.hook_event_name)]: [{ hooks: handlers }] });
  try {
    await trustAll(home);
    return await dispatch(home, event);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("mcp_tool hooks end to end over Streamable HTTP (one-shot dispatch)", async (t) => {
  const server = await startHttpServer();
  const servers = { scanner: { url: server.url } };
  try {
    await t.step("allow: completed, no decision", async () => {
      const r = await runOne(servers, preToolUse(), [mcpHook("allow")]);
      assertEquals(r.runs.length, 1);
      assertEquals(r.runs[0].status, "completed", JSON.stringify(r.runs[0]));
      assertEquals(r.runs[0].exit_code, 0);
      assertEquals(r.decision, null);
      assertEquals(r.systemMessages, []);
    });

    await t.step("deny as structuredContent: decision deny, reason expanded from the hook input", async () => {
      const r = await runOne(servers, preToolUse("rm -rf /tmp/x"), [
        mcpHook("deny", { input: { reason: "refusing `${tool_input.command}` in ${cwd}" } }),
      ]);
      assertEquals(r.decision, "deny");
      assertEquals(r.reason, "refusing `rm -rf /tmp/x` in /");
      assertEquals(r.runs[0].status, "blocked");
    });

    await t.step("rewrite: allow + updatedInput goes back to the host's parameter", async () => {
      const r = await runOne(servers, preToolUse("make"), [
        mcpHook("rewrite", { input: { command: "${tool_input.command}" } }),
      ]);
      assertEquals(r.decision, "allow");
      assertEquals(r.updatedInput, { cmd: "make --dry-run" });
    });

    await t.step("structuredContent wins over text content, and keeps the expanded JSON types", async () => {
      const r = await runOne(servers, userPrompt("hello"), [
        mcpHook("structured", { input: { event: "UserPromptSubmit", prompt: "${prompt}", turn: "${turn_id}", n: 1 } }),
      ]);
      assertEquals(r.runs[0].status, "completed");
      assertEquals(r.additionalContext, [
        'structured:{"event":"UserPromptSubmit","prompt":"hello","turn":"t1","n":1}',
      ]);
    });

    await t.step("text content: concatenated, read as plain stdout (context on UserPromptSubmit)", async () => {
      const r = await runOne(servers, userPrompt("p"), [mcpHook("text", { input: { p: "${prompt}!" } })]);
      assertEquals(r.runs[0].status, "completed");
      assertEquals(r.additionalContext, ['text:{"p":"p!"}']);
    });

    await t.step("text content on PreToolUse is ignored like a command's plain stdout", async () => {
      const r = await runOne(servers, preToolUse(), [mcpHook("text")]);
      assertEquals(r.runs[0].status, "completed");
      assertEquals(r.decision, null);
      assertEquals(r.additionalContext, []);
    });

    await t.step("isError: failed, not blocked, and said so", async () => {
      const r = await runOne(servers, preToolUse(), [mcpHook("is_error")]);
      assertEquals(r.runs[0].status, "failed");
      assertMatch(r.runs[0].reason!, /isError: the scanner broke/);
      assertEquals(r.decision, null);
      assert(
        r.systemMessages.some((m) => m.includes(r.runs[0].key) && m.includes("isError")),
        r.systemMessages.join("|"),
      );
    });

    await t.step("a deny still wins next to a failing mcp_tool handler", async () => {
      const r = await runOne(servers, preToolUse(), [mcpHook("is_error"), mcpHook("deny")]);
      assertEquals(r.runs.map((x) => x.status), ["failed", "blocked"]);
      assertEquals(r.decision, "deny");
    });

    await t.step("hang: the handler's timeout fails it", async () => {
      const started = performance.now();
      const r = await runOne(servers, preToolUse(), [mcpHook("hang", { timeout: 1 })]);
      assertEquals(r.runs[0].status, "failed");
      assertEquals(r.runs[0].reason, "timeout after 1s");
      assertEquals(r.decision, null);
      assert(performance.now() - started < 8000, "a hung tool held the dispatch past its timeout");
    });

    await t.step("unknown tool: failed, not available", async () => {
      const r = await runOne(servers, preToolUse(), [mcpHook("no_such_tool")]);
      assertEquals(r.runs[0].status, "failed");
      assertMatch(r.runs[0].reason!, /tool "no_such_tool" is not available on MCP server "scanner"/);
      assertEquals(r.decision, null);
    });

    await t.step("missing server: failed, not configured", async () => {
      const r = await runOne(servers, preToolUse(), [mcpHook("deny", {}, "ghost")]);
      assertEquals(r.runs[0].status, "failed");
      assertMatch(r.runs[0].reason!, /MCP server "ghost" is not configured/);
      assertEquals(r.decision, null);
    });

    await t.step("stdio server in one-shot mode: failed, not connected, never started", async () => {
      const log = await Deno.makeTempFile();
      try {
        const r = await runOne({ local: stdioServerConfig({ log }) }, preToolUse(), [mcpHook("deny", {}, "local")]);
        assertEquals(r.runs[0].status, "failed");
        assertMatch(r.runs[0].reason!, /stdio MCP server "local" is not connected/);
        assertEquals(r.decision, null);
        assertEquals(await Deno.readTextFile(log), "", "a one-shot dispatch started a stdio server");
      } finally {
        await Deno.remove(log);
      }
    });

    await t.step("a server that refuses connections: failed with the transport error", async () => {
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = listener.addr.port;
      listener.close();
      const r = await runOne({ scanner: { url: `http://127.0.0.1:${port}/mcp` } }, preToolUse(), [mcpHook("deny")]);
      assertEquals(r.runs[0].status, "failed");
      assertMatch(r.runs[0].reason!, /MCP server "scanner" \(http:\/\/127\.0\.0\.1:\d+\/mcp\): .*refused/i);
      assertEquals(r.decision, null);
    });

    await t.step("an invalid server entry: failed with the entry's problem", async () => {
      const r = await runOne({ scanner: { url: "ftp://example.invalid/" } }, preToolUse(), [mcpHook("deny")]);
      assertEquals(r.runs[0].status, "failed");
      assertMatch(r.runs[0].reason!, /url must be http/);
    });
  } finally {
    await server.stop();
  }
});

Deno.test("mcp_tool: a stateful server (sessions, JSON responses) works, and one-shot ends its session", async () => {
  const log = await Deno.makeTempFile({ prefix: "mcp_stateful_" });
  const server = await startHttpServer({ stateful: true, json: true, log });
  try {
    const r = await runOne({ scanner: { url: server.url } }, preToolUse("rm -rf /"), [mcpHook("deny")]);
    assertEquals(r.decision, "deny");
    const lines = (await Deno.readTextFile(log)).trim().split("\n");
    assertEquals(lines.filter((l) => l.startsWith("http-initialize")).length, 1);
    assertEquals(lines.filter((l) => l.startsWith("http-session-closed")).length, 1, lines.join("\n"));
  } finally {
    await server.stop();
    await Deno.remove(log);
  }
});

Deno.test("mcp_tool: a server that crashes mid-call fails the handler, never blocks", async () => {
  const server = await startHttpServer();
  try {
    const r = await runOne({ scanner: { url: server.url } }, preToolUse(), [mcpHook("crash", { timeout: 20 })]);
    assertEquals(r.runs[0].status, "failed");
    assertMatch(r.runs[0].reason!, /MCP server "scanner"/);
    assertEquals(r.decision, null);
    assert(r.runs[0].duration_ms < 15000, `crash detected only after ${r.runs[0].duration_ms} ms`);
  } finally {
    await server.stop();
  }
});
