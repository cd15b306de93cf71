/**
 * The `prompt` handler runner (SPEC §2.2 r4): the model of `[hooks.model]` (the handler's own `model`
 * wins) is asked the prompt, `$ARGUMENTS` replaced by the event JSON, through the Anthropic Messages API
 * or an OpenAI-compatible chat endpoint. Its answer is read as Claude Code reads it: `{"ok": true}` has no
 * control effect; `{"ok": false, "reason": …}` blocks (denies) with the reason on an event that can block
 * — it becomes an exit-2 completion with the reason on stderr, which the §8 protocol reads as a block in
 * either dialect — and is a message for the user elsewhere. An answer of another shape, a non-2xx status,
 * a network error or the timeout is a failure (`failClosed` applies). The key is read from the variable
 * `api_key_env` names at call time and never logged; `dispatch --explain` shows the model's raw answer.
 * @module
 */
import type { HandlerOf } from "../config/handler_types/types.ts";
import type { ModelConfig } from "../config/hooks_model.ts";
import { isObject } from "../util/json.ts";
import { completion, errorText, withDeadline } from "./mcp_client.ts";
import type { RawCompletion } from "./types.ts";
import { spawnQueue } from "./spawn_queue.ts";

/** What the model is told (Claude Code's prompt hooks answer the same JSON). */
export const SYSTEM_PROMPT =
  'You are a hook that checks one event of a coding agent. Answer with only a JSON object: {"ok": true} ' +
  'when the event may proceed, or {"ok": false, "reason": "<why, for the agent>"} when it must not.';

/** The reason given when a model says no without one. */
export const NO_REASON = "Blocked by prompt hook";

/** What one call needs besides the handler. */
export type PromptCall = {
  /** The hook input, as a handler reads it on stdin. */
  eventJson: string;
  model: ModelConfig;
  /** The event can block (SPEC §8): `ok: false` blocks there, and is a message elsewhere. */
  canBlock: boolean;
  env: (name: string) => string | undefined;
  fetch?: typeof fetch;
};

/** The prompt with Claude Code's `$ARGUMENTS` replaced by the event JSON (appended when absent, as Claude Code does). */
export function promptText(prompt: string, eventJson: string): string {
  return prompt.includes("$ARGUMENTS") ? prompt.replaceAll("$ARGUMENTS", eventJson) : `${prompt}\n\n${eventJson}`;
}

/** The request of one call to the provider's API. */
export function modelRequest(
  model: ModelConfig,
  modelName: string,
  text: string,
  key: string | undefined,
): { url: string; headers: Record<string, string>; body: string } {
  if (model.provider === "anthropic") {
    return {
      url: `${model.baseUrl}/v1/messages`,
      headers: {
        "content-type": "application/json",
        "anthropic-version": "2023-06-01",
        ...(key ? { "x-api-key": key } : {}),
      },
      body: JSON.stringify({
        model: modelName,
        max_tokens: 1024,
        system: SYSTEM_PROMPT,
        messages: [{ role: "user", content: text }],
      }),
    };
  }
  return {
    url: `${model.baseUrl}/chat/completions`,
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({
      model: modelName,
      messages: [{ role: "system", content: SYSTEM_PROMPT }, { role: "user", content: text }],
    }),
  };
}

/** The model's text out of a provider's response body, or null when it holds none. */
export function answerText(provider: ModelConfig["provider"], body: unknown): string | null {
  if (!isObject(body)) return null;
  if (provider === "anthropic") {
    if (!Array.isArray(body.content)) return null;
    const texts = body.content.flatMap((c) =>
      isObject(c) && c.type === "text" && typeof c.text === "string" ? [c.text] : []
    );
    return texts.length > 0 ? texts.join("") : null;
  }
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const content = isObject(choice) && isObject(choice.message) ? choice.message.content : undefined;
  return typeof content === "string" ? content : null;
}

/** The verdict of an answer: `{ok, reason}` read out of the model's text (a fenced or wrapped object too), or null. */
export function verdictOf(answer: string): { ok: boolean; reason: string | null } | null {
  const start = answer.indexOf("{");
  const end = answer.lastIndexOf("}");
  if (start < 0 || end < start) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.slice(start, end + 1));
  } catch {
    return null;
  }
  if (!isObject(parsed) || typeof parsed.ok !== "boolean") return null;
  if (parsed.reason !== undefined && typeof parsed.reason !== "string") return null;
  return { ok: parsed.ok, reason: typeof parsed.reason === "string" && parsed.reason.trim() ? parsed.reason : null };
}

/** Asks the model and returns the hook's completion (never throws). */
export async function runPrompt(h: HandlerOf<"prompt">, call: PromptCall): Promise<RawCompletion> {
  // Its connection holds descriptors as a command does: it waits for a slot of the one queue
  // (src/runner/spawn_queue.ts, SPEC §6 r4), and its timeout counts from then.
  return await (await spawnQueue()).run(() => askOnce(h, call));
}

async function askOnce(h: HandlerOf<"prompt">, call: PromptCall): Promise<RawCompletion> {
  const started = performance.now();
  const key = call.model.apiKeyEnv === null ? undefined : call.env(call.model.apiKeyEnv);
  const name = h.model ?? call.model.model;
  // cannotRun keeps a hook without a model name from getting here; a completion, not a throw, if one does.
  if (name === null) return completion(started, h.timeout, { failure: "no model name for this prompt hook" });
  const req = modelRequest(call.model, name, promptText(h.prompt, call.eventJson), key);
  const post = call.fetch ?? fetch;
  const where = new URL(call.model.baseUrl).host;
  type Got = { kind: "failure"; reason: string } | { kind: "answer"; text: string };
  const result = await withDeadline(h.timeout * 1000, async (signal): Promise<Got> => {
    try {
      const res = await post(req.url, {
        method: "POST",
        headers: req.headers,
        body: req.body,
        redirect: "manual",
        signal,
      });
      const raw = await res.text();
      if (res.status < 200 || res.status >= 300) {
        return { kind: "failure", reason: `model ${where} answered HTTP ${res.status}` };
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return { kind: "failure", reason: `model ${where} answered a body that is not JSON` };
      }
      const text = answerText(call.model.provider, body);
      return text === null ? { kind: "failure", reason: `model ${where} answered no text` } : { kind: "answer", text };
    } catch (e) {
      return { kind: "failure", reason: `model ${where}: ${errorText(e)}` };
    }
  });
  if (!result.ok) return completion(started, h.timeout, { timedOut: true });
  const got = result.value;
  if (got.kind === "failure") return completion(started, h.timeout, { failure: got.reason });
  const answer = got.text;
  const verdict = verdictOf(answer);
  if (verdict === null) {
    return completion(started, h.timeout, {
      answer,
      failure: `invalid model answer: expected {"ok": true} or {"ok": false, "reason": "…"}`,
    });
  }
  if (verdict.ok) return completion(started, h.timeout, { answer, exitCode: 0 });
  const reason = verdict.reason ?? NO_REASON;
  // A no on an event that can block is a block with the reason (exit 2 + stderr in the §8 protocol);
  // elsewhere it cannot stop anything, so the user hears it.
  return call.canBlock
    ? completion(started, h.timeout, { answer, exitCode: 2, stderr: reason })
    : completion(started, h.timeout, { answer, exitCode: 0, stdout: JSON.stringify({ systemMessage: reason }) });
}
