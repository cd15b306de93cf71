/**
 * `ask` is a decision (SPEC §8.1 r3, §9 r3), end to end on every path: a real guard (karanb192's
 * block-dangerous-commands, vendored in fixtures/thirdparty/, in its documented ask mode
 * `HOOK_ASK_HIGH=true`) answers `permissionDecision: "ask"` on `git reset --hard`, installed as a
 * repository's `.claude/settings.json` and as a plugin. mind's result says `decision: "ask"` with the
 * hook's reason through the CLI (the sandbox Worker), `serve` and `mod.ts`; each adapter gives its host's
 * own ask, or — Codex has none — a deny that says the hook asks for approval. deny > ask > allow.
 */
import { join } from "node:path";
import { assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  type DispatchResult,
  echoHook,
  event,
  group,
  type Json,
  makeHome,
  REPO,
  sessionId,
  trustAll,
  trustProject,
  writeHooksJson,
} from "./helpers/cli.ts";
import { comparable, hostToolCall, viaCli, viaMod, viaProtocol, viaServe } from "./helpers/front_ends.ts";

const GUARD = join(
  REPO,
  "fixtures/thirdparty/karanb192-claude-code-hooks/plugins/block-dangerous-commands",
);
const REASON = "⛔ [git-reset-hard] git reset --hard loses uncommitted work";
const COMMAND = "git reset --hard";

/** A trusted project whose `.claude/settings.json` runs the guard in ask mode, as its README says. */
async function askingProject() {
  const home = await makeHome();
  const proj = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-ask-" }));
  const osHome = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-ask-os-" }));
  await Deno.mkdir(join(proj, ".claude", "hooks"), { recursive: true });
  await Deno.copyFile(
    join(GUARD, "block-dangerous-commands.js"),
    join(proj, ".claude/hooks/block-dangerous-commands.js"),
  );
  const command = `HOOK_ASK_HIGH=true node "$CLAUDE_PROJECT_DIR/.claude/hooks/block-dangerous-commands.js"`;
  await Deno.writeTextFile(
    join(proj, ".claude", "settings.json"),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command }] }] } }, null, 2),
  );
  await trustProject(home.path, proj);
  return {
    home: home.path,
    proj,
    env: { HOME: osHome },
    async [Symbol.asyncDispose]() {
      await home.cleanup();
      for (const d of [proj, osHome]) await Deno.remove(d, { recursive: true }).catch(() => {});
    },
  };
}

const bash = (cwd: string, command = COMMAND) =>
  event("PreToolUse", { tool_name: "Bash", tool_input: { command }, cwd, session_id: sessionId("ask") });

Deno.test("ask (r3): a Claude-dialect ask is mind's decision ask with its reason — CLI (sandbox), serve and mod.ts agree whole", async () => {
  await using p = await askingProject();
  const input = bash(p.proj);
  const cli = await viaCli(p.home, input, p.env);
  assertEquals([cli.decision, cli.reason, cli.updatedInput], ["ask", REASON, null]);
  assertEquals(cli.runs.map((r) => [r.layer, r.status, r.reason]), [["claude-project", "completed", null]]);
  assertEquals(cli.systemMessages, []);
  const serve = await viaServe(p.home, input, p.env);
  const lib = await viaMod(p.home, input, p.env);
  assertEquals(comparable(serve), comparable(cli));
  assertEquals(comparable(lib), comparable(cli));
  // A harmless command: the guard answers {} and nothing is decided.
  const ls = await viaCli(p.home, bash(p.proj, "ls"), p.env);
  assertEquals([ls.decision, ls.reason, ls.runs[0].status], [null, null, "completed"]);
});

Deno.test("ask (r3): each adapter gives its host's own ask, or a deny that says so where the host has none", async () => {
  await using p = await askingProject();
  const out = async (host: "codex" | "gemini" | "copilot") =>
    (await viaProtocol(host, p.home, hostToolCall(host, COMMAND, p.proj, sessionId("ask")), { env: p.env })).stdout;
  // Codex fails a hook answering ask ("unsupported permissionDecision:ask"): it gets a deny.
  assertEquals(await out("codex"), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: `${REASON} (this hook asks for your approval)`,
    },
  });
  assertEquals(await out("gemini"), { decision: "ask", reason: REASON });
  assertEquals(await out("copilot"), { permissionDecision: "ask", permissionDecisionReason: REASON });
});

Deno.test("ask (r3): --protocol claude forwards Claude Code's own ask (the vendored plugin, unchanged, in ask mode)", async () => {
  await using home = await makeHome();
  await Deno.mkdir(join(home.path, "plugins"), { recursive: true });
  const copy = await new Deno.Command("cp", { args: ["-R", GUARD, join(home.path, "plugins", "guard")] }).output();
  assertEquals(copy.success, true);
  await Deno.writeTextFile(join(home.path, "config.toml"), `[plugins.guard]\nenabled = true\n`);
  await trustAll(home.path, home.path);
  const osHome = await Deno.makeTempDir({ prefix: "mind-hooks-ask-os-" });
  try {
    const env = { HOME: osHome, HOOK_ASK_HIGH: "true" };
    const input = hostToolCall("claude", COMMAND, home.path, sessionId("ask"));
    const { stdout } = await viaProtocol("claude", home.path, input, { env });
    assertEquals(stdout, {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: REASON },
    });
    // Out of ask mode the same guard denies: deny stays deny.
    const denied = await viaProtocol("claude", home.path, input, { env: { HOME: osHome } });
    assertEquals(denied.stdout, {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: REASON },
    });
  } finally {
    await Deno.remove(osHome, { recursive: true }).catch(() => {});
  }
});

Deno.test("ask (r3): deny > ask — a mind deny beside the ask denies; a Claude ask without a reason gets Claude Code's words", async () => {
  await using p = await askingProject();
  await writeHooksJson(p.home, {
    PreToolUse: [group([cmd(echoHook({ decision: "block", reason: "mind says no" }))], "Bash")],
  });
  await trustAll(p.home, p.proj);
  const r: DispatchResult = await viaCli(p.home, bash(p.proj), p.env);
  assertEquals([r.decision, r.reason], ["deny", "mind says no"]);
  assertEquals(r.runs.map((x) => [x.layer, x.status]), [["user", "blocked"], ["claude-project", "completed"]]);

  const settings = join(p.proj, ".claude", "settings.json");
  const ask = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask" } };
  await Deno.writeTextFile(settings, JSON.stringify({ hooks: { PreToolUse: [group([cmd(echoHook(ask))])] } }));
  await Deno.remove(join(p.home, "hooks.json"));
  await trustAll(p.home, p.proj);
  const bare = await viaCli(p.home, bash(p.proj), p.env);
  assertEquals([bare.decision, bare.reason], ["ask", "Hook asked for confirmation for this tool"]);
  const copilot = await viaProtocol("copilot", p.home, hostToolCall("copilot", COMMAND, p.proj, sessionId("ask")));
  assertEquals(copilot.stdout, {
    permissionDecision: "ask",
    permissionDecisionReason: "Hook asked for confirmation for this tool",
  });
});

Deno.test("ask: a mind-dialect ask is still a failure (SPEC §8), never a decision", async () => {
  await using home = await makeHome();
  const answer: Json = {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "?" },
  };
  await writeHooksJson(home.path, { PreToolUse: [group([cmd(echoHook(answer))])] });
  await trustAll(home.path, home.path);
  const r = await viaCli(home.path, bash(home.path));
  assertEquals([r.decision, r.runs[0].status], [null, "failed"]);
  assertEquals(r.runs[0].reason, `PreToolUse hook returned unsupported permissionDecision "ask"`);
});
