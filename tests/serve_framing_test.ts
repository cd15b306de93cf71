/**
 * `serve` line framing (SPEC §13, §15: a JSON-RPC line of N bytes costs O(N)) through the real CLI:
 * a 32 MB line is answered within a generous bound. The splitter's counted work, alone and inside
 * the server, is src/serve/jsonrpc_test.ts.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { makeHome, REPO } from "./helpers/cli.ts";
import { join } from "node:path";

const MB = 1024 * 1024;
const encoder = new TextEncoder();

Deno.test("serve (CLI): a 32 MB dispatch line is answered within a generous bound", async () => {
  await using home = await makeHome();
  const event = {
    session_id: "big-line",
    transcript_path: null,
    cwd: home.path,
    hook_event_name: "UserPromptSubmit",
    model: "m",
    turn_id: "t",
    permission_mode: "default",
    prompt: "p".repeat(32 * MB),
  };
  const request = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "dispatch", params: event }) + "\n";
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", join(REPO, "deno.json"), join(REPO, "main.ts"), "serve"],
    env: { SHELL: "/bin/sh", MIND_HOME: home.path, MIND_REQUIREMENTS: "/nonexistent/r.toml" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const started = performance.now();
  const writer = child.stdin.getWriter();
  await writer.write(encoder.encode(request));
  await writer.close();
  const out = await child.output();
  const ms = performance.now() - started;
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const reply = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n")[0]);
  assertEquals(reply.id, 7);
  assert(reply.result || reply.error, JSON.stringify(reply).slice(0, 300));
  // The quadratic framing took about 6.5 s here; linear framing plus parsing takes well under 1 s.
  assert(ms < 5_000, `a 32 MB line took ${ms.toFixed(0)} ms`);
});
