/**
 * The prompt handler type (SPEC §2.2 r4): its normalized (hashed) form, its default timeout, and that
 * without the user's `[hooks.model]` it cannot run; the model config is read from the user side only.
 */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { normalizeHandler } from "../handlers.ts";
import type { Warning } from "../warnings.ts";
import { hooksModel } from "../hooks_model.ts";
import { NO_MODEL, NO_MODEL_NAME } from "./prompt.ts";
import { HANDLER_MODULES } from "./registry.ts";

Deno.test("prompt: normalized with its prompt and model, 30 s by default; once only in the Claude dialect", () => {
  const warnings: Warning[] = [];
  const raw = { type: "prompt", prompt: "Safe? $ARGUMENTS", model: "small", once: true };
  assertEquals(normalizeHandler("Stop", raw, "w", [], "f", warnings, "claude"), {
    type: "prompt",
    prompt: "Safe? $ARGUMENTS",
    model: "small",
    timeout: 30,
    once: true,
  });
  assertEquals(warnings, []);
  const mind: Warning[] = [];
  assertEquals(normalizeHandler("Stop", raw, "w", [], "f", mind)?.once, undefined);
  assertEquals(mind.map((w) => w.code), ["W_UNKNOWN_FIELD"]);
  const empty: Warning[] = [];
  assertEquals(normalizeHandler("Stop", { type: "prompt", prompt: " " }, "w", [], "f", empty), null);
  assertEquals(empty.map((w) => w.code), ["W_BAD_FIELD"]);
});

Deno.test("prompt: cannot run without [hooks.model]; its reach is the model's host", () => {
  const h = { type: "prompt" as const, prompt: "p", timeout: 30 };
  const model = { provider: "openai" as const, baseUrl: "http://127.0.0.1:9999/v1", model: "m", apiKeyEnv: null };
  assertEquals(HANDLER_MODULES.prompt.cannotRun(h, null), NO_MODEL);
  assertEquals(HANDLER_MODULES.prompt.cannotRun(h, model), null);
  assertEquals(HANDLER_MODULES.prompt.netReach(h, model), ["127.0.0.1:9999"]);
  // [hooks.model] without a model name: a hook must name its own.
  assertEquals(HANDLER_MODULES.prompt.cannotRun(h, { ...model, model: null }), NO_MODEL_NAME);
  assertEquals(HANDLER_MODULES.prompt.cannotRun({ ...h, model: "own" }, { ...model, model: null }), null);
});

Deno.test("[hooks.model]: the user side's, -c over the user config; defaults and a bad one said", () => {
  const w: Warning[] = [];
  assertEquals(hooksModel(undefined, {}, "f", w), null);
  assertEquals(
    hooksModel(
      { hooks: { model: { provider: "anthropic", model: "a", api_key_env: "K" } } },
      {
        hooks: { model: { model: "b" } },
      },
      "f",
      w,
    ),
    { provider: "anthropic", baseUrl: "https://api.anthropic.com", model: "b", apiKeyEnv: "K" },
  );
  assertEquals(
    hooksModel(
      { hooks: { model: { provider: "openai", model: "m", base_url: "http://127.0.0.1:1/v1/" } } },
      {},
      "f",
      w,
    ),
    { provider: "openai", baseUrl: "http://127.0.0.1:1/v1", model: "m", apiKeyEnv: null },
  );
  assertEquals(w, []);
  assertEquals(hooksModel({ hooks: { model: { provider: "openai" } } }, {}, "f", w)?.model, null);
  assertEquals(hooksModel({ hooks: { model: { provider: "gemini", model: "m" } } }, {}, "f", w), null);
  assertEquals(w.map((x) => x.code), ["W_BAD_FIELD"]);
});
