/**
 * SPEC §3.2 (r3): the dialect is hashed. A Claude-dialect handler hashes with `"dialect": "claude"` added
 * to its canonical object, so a trusted plugin that swaps `.mind-plugin/` for `.claude-plugin/` — same
 * key, same definition, but its output now read the way Claude Code reads it (a bare
 * `permissionDecision: "allow"` forwarded to Claude Code as its own allow) — becomes `modified`.
 * mind-dialect hashes are unchanged (tests/hash_test.ts keeps their known vectors).
 */
import { join } from "node:path";
import { assertEquals } from "./helpers/assert.ts";
import { cmd, dispatch, echoHook, event, group, makeHome, runCli, sessionId, trustAll } from "./helpers/cli.ts";
import { canonicalJson, contentHashSync, hashSubject } from "../src/trust/hash.ts";

const ALLOW = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } };

Deno.test("dialect hash: a trusted plugin swapping .mind-plugin/ for .claude-plugin/ becomes modified", async () => {
  await using home = await makeHome();
  const root = join(home.path, "plugins", "swap");
  await Deno.mkdir(join(root, ".mind-plugin"), { recursive: true });
  await Deno.mkdir(join(root, "hooks"), { recursive: true });
  await Deno.writeTextFile(join(root, ".mind-plugin", "plugin.json"), JSON.stringify({ name: "swap" }));
  await Deno.writeTextFile(
    join(root, "hooks", "hooks.json"),
    JSON.stringify({ hooks: { PreToolUse: [group([cmd(echoHook(ALLOW))], "Bash")] } }),
  );
  await Deno.writeTextFile(join(home.path, "config.toml"), `[plugins.swap]\nenabled = true\n`);
  await trustAll(home.path);
  const ev = event("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" }, session_id: sessionId("dh") });
  const key = `plugin:${await Deno.realPath(join(root, "hooks", "hooks.json"))}:PreToolUse:0:0`;

  // The mind dialect: a bare allow is a protocol failure of the hook.
  const mind = await dispatch(home.path, ev);
  assertEquals(mind.runs.map((r) => [r.key, r.status]), [[key, "failed"]]);

  await Deno.rename(join(root, ".mind-plugin"), join(root, ".claude-plugin"));
  const swapped = await dispatch(home.path, ev);
  assertEquals(swapped.runs.map((r) => [r.key, r.status, r.reason]), [[key, "skipped", "modified"]]);
  assertEquals(swapped.systemMessages, ["1 hook needs review: run mind-hooks review"]);
  const listed = (await runCli(["list", "--json", "--home", home.path])).json().hooks;
  assertEquals(listed.map((h: { key: string; status: string }) => [h.key, h.status]), [[key, "modified"]]);

  // Trusting it again trusts the Claude reading: the allow is now accepted (no failure).
  await trustAll(home.path);
  const retrusted = await dispatch(home.path, ev);
  assertEquals(retrusted.runs.map((r) => [r.key, r.status]), [[key, "completed"]]);
});

Deno.test("dialect hash: the canonical object gains dialect only for the Claude dialect (known vector)", () => {
  const handler = {
    type: "command" as const,
    command: "./guard.sh",
    timeout: 600,
    async: false,
    additionalContextLimit: 2500,
  };
  assertEquals(
    canonicalJson(hashSubject("PreToolUse", "Bash", handler, "claude")),
    `{"dialect":"claude","event":"PreToolUse","handler":{"additionalContextLimit":2500,"async":false,"command":"./guard.sh","timeout":600,"type":"command"},"matcher":"Bash"}`,
  );
  assertEquals(
    canonicalJson(hashSubject("PreToolUse", "Bash", handler, "mind")),
    `{"event":"PreToolUse","handler":{"additionalContextLimit":2500,"async":false,"command":"./guard.sh","timeout":600,"type":"command"},"matcher":"Bash"}`,
  );
  // Computed independently (Python: json.dumps(sort_keys=True, separators=(",", ":")) + hashlib.sha256).
  assertEquals(contentHashSync("PreToolUse", "Bash", handler, "claude"), CLAUDE_PLAIN);
  assertEquals(contentHashSync("PreToolUse", "Bash", handler), MIND_PLAIN);
});

const CLAUDE_PLAIN = "sha256:7659eaafa8bdd406f5211d2194192531739de1c7d6041ffedcc894d0c0fe4605";
const MIND_PLAIN = "sha256:d096f3a48d81c8f345ad5b5621e8f7c8ed505775408fddc8adb30aeb0c593e21";
