/**
 * The `prompt` handler type (SPEC §2.2 r4, Claude Code's form): the user's model (`[hooks.model]`, a
 * handler's own `model` wins) is asked the prompt with `$ARGUMENTS` replaced by the event JSON, and its
 * `{"ok": true}` / `{"ok": false, "reason": …}` answer is read as Claude Code reads it. Without a model
 * configured the hook does not run, and says so.
 * @module
 */
import { DEFAULT_CONTEXT_LIMIT } from "./command.ts";
import type { HandlerModule } from "./types.ts";

/** A prompt hook's timeout when none is written, in seconds (Claude Code's). */
export const PROMPT_DEFAULT_TIMEOUT = 30;

/** Why a prompt hook does not run without a model. */
export const NO_MODEL = "no model: set [hooks.model] in the user config";
/** Why a prompt hook does not run when neither it nor `[hooks.model]` names the model. */
export const NO_MODEL_NAME = "no model name: set [hooks.model] model, or the hook's own model";

/** The `host:port` of a model API root. */
function reachOf(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.hostname}:${u.port !== "" ? u.port : u.protocol === "https:" ? "443" : "80"}`;
}

/** The `prompt` handler type. */
export const promptHandler: HandlerModule<"prompt"> = {
  type: "prompt",
  defaultTimeout: PROMPT_DEFAULT_TIMEOUT,
  refusedOn: () => null,
  normalize(raw, c) {
    if (typeof raw.prompt !== "string" || raw.prompt.trim() === "") {
      return c.bad("prompt needs a non-empty prompt", "prompt");
    }
    if (raw.model !== undefined && (typeof raw.model !== "string" || raw.model === "")) {
      return c.bad("model must be a non-empty string", "model");
    }
    if (raw.async === true) c.warn("W_ASYNC_IGNORED", `${c.where}: prompt hooks always run synchronously`, "async");
    const { timeout, statusMessage, once, failClosed, ...claude } = c.common;
    return {
      type: "prompt",
      prompt: raw.prompt,
      ...(raw.model !== undefined ? { model: raw.model as string } : {}),
      timeout,
      ...(statusMessage !== undefined ? { statusMessage } : {}),
      ...claude,
      ...(failClosed ? { failClosed } : {}),
      ...(once ? { once } : {}),
    };
  },
  summary: (h) => `prompt ${JSON.stringify(h.prompt)}`,
  listPrefix: "",
  details: (h) => [
    ["Prompt", h.prompt, true],
    ["Model", h.model ?? "(the user's [hooks.model])"],
    ["Timeout", `${h.timeout} s`],
  ],
  json: (h) => ({ prompt: h.prompt, model: h.model ?? null }),
  reviewWarnings: () => ["sends each event to the model of [hooks.model]"],
  commandText: () => null,
  runsProcess: false,
  contextLimit: () => DEFAULT_CONTEXT_LIMIT,
  async: () => false,
  netReach: (_h, model) => model === null ? [] : [reachOf(model.baseUrl)],
  cannotRun: (h, model) =>
    model === null ? NO_MODEL : h.model === undefined && model.model === null ? NO_MODEL_NAME : null,
  mcpServer: () => null,
};
