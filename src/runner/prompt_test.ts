/**
 * The prompt runner against loopback mocks of the Anthropic Messages API and an OpenAI-compatible chat
 * endpoint (SPEC §2.2 r4): the request each provider takes, `$ARGUMENTS`, the key from its variable, and
 * how `{ok, reason}` becomes a completion (a block on an event that can block, a message elsewhere).
 */
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import type { ModelConfig } from "../config/hooks_model.ts";
import { NO_REASON, promptText, runPrompt, verdictOf } from "./prompt.ts";

type Seen = { path: string; headers: Record<string, string>; body: Record<string, unknown> };

/** A loopback model answering `text` in the provider's own response shape. */
async function withModel(
  provider: ModelConfig["provider"],
  text: string,
  test: (model: ModelConfig, seen: Seen[]) => Promise<void>,
): Promise<void> {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    seen.push({
      path: new URL(req.url).pathname,
      headers: Object.fromEntries(req.headers),
      body: await req.json(),
    });
    return Response.json(
      provider === "anthropic"
        ? { content: [{ type: "text", text }], stop_reason: "end_turn" }
        : { choices: [{ message: { role: "assistant", content: text } }] },
    );
  });
  const base = `http://127.0.0.1:${server.addr.port}${provider === "openai" ? "/v1" : ""}`;
  try {
    await test({ provider, baseUrl: base, model: "judge-1", apiKeyEnv: "JUDGE_KEY" }, seen);
  } finally {
    await server.shutdown();
  }
}

const env = (n: string) => n === "JUDGE_KEY" ? "k-123" : undefined;
const handler = { type: "prompt" as const, prompt: "Safe? $ARGUMENTS", timeout: 5 };

Deno.test("prompt runner: Anthropic Messages request; ok:false blocks with the reason on an event that can block", async () => {
  await withModel("anthropic", '{"ok": false, "reason": "deletes the home"}', async (model, seen) => {
    const r = await runPrompt(handler, { eventJson: '{"e":1}', model, canBlock: true, env });
    assertEquals([r.exitCode, r.stderr, r.answer], [
      2,
      "deletes the home",
      '{"ok": false, "reason": "deletes the home"}',
    ]);
    assertEquals(seen[0].path, "/v1/messages");
    assertEquals([seen[0].headers["x-api-key"], seen[0].headers["anthropic-version"]], ["k-123", "2023-06-01"]);
    assertEquals(seen[0].body.model, "judge-1");
    assertEquals(seen[0].body.messages, [{ role: "user", content: 'Safe? {"e":1}' }]);
    // Elsewhere a no cannot stop anything: the user hears it.
    const info = await runPrompt(handler, { eventJson: "{}", model, canBlock: false, env });
    assertEquals([info.exitCode, info.stdout], [0, '{"systemMessage":"deletes the home"}']);
  });
});

Deno.test("prompt runner: OpenAI-compatible chat request; ok:true is no decision; the handler's model wins", async () => {
  await withModel("openai", '```json\n{"ok": true}\n```', async (model, seen) => {
    const r = await runPrompt({ ...handler, model: "other" }, { eventJson: "{}", model, canBlock: true, env });
    assertEquals([r.exitCode, r.stdout, r.stderr], [0, "", ""]);
    assertEquals(seen[0].path, "/v1/chat/completions");
    assertEquals(seen[0].headers.authorization, "Bearer k-123");
    assertEquals(seen[0].body.model, "other");
  });
});

Deno.test("prompt runner: an answer that is not {ok} fails, with the raw answer kept for --explain", async () => {
  await withModel("openai", "Sure, looks fine to me.", async (model) => {
    const r = await runPrompt(handler, { eventJson: "{}", model, canBlock: true, env });
    assertEquals(r.answer, "Sure, looks fine to me.");
    assertMatch(r.failure ?? "", /^invalid model answer/);
  });
  const down = await runPrompt(handler, {
    eventJson: "{}",
    model: { provider: "openai", baseUrl: "http://127.0.0.1:1/v1", model: "m", apiKeyEnv: null },
    canBlock: true,
    env,
  });
  assertMatch(down.failure ?? "", /^model 127\.0\.0\.1:1: /);
});

Deno.test("prompt: $ARGUMENTS replaced (appended when absent); verdicts read as Claude Code reads them", () => {
  assertEquals(promptText("a $ARGUMENTS b $ARGUMENTS", "{}"), "a {} b {}");
  assertEquals(promptText("judge this", "{}"), "judge this\n\n{}");
  assertEquals(verdictOf('{"ok": true}'), { ok: true, reason: null });
  assertEquals(verdictOf('x {"ok": false, "reason": "r"} y'), { ok: false, reason: "r" });
  assertEquals([verdictOf('{"ok": "yes"}'), verdictOf("no"), verdictOf('{"ok": false, "reason": 3}')], [
    null,
    null,
    null,
  ]);
  assertEquals(NO_REASON, "Blocked by prompt hook");
});
