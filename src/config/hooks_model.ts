/**
 * The model prompt hooks ask (SPEC §2.2 r4): the user's `[hooks.model]` — `provider` (`anthropic` or
 * `openai`, an OpenAI-compatible chat endpoint), `base_url` (the API root as the provider's SDK takes it),
 * `model`, `api_key_env` (the variable holding the key; the key itself is never written or logged). Read
 * only from the user config and this process's `-c`: never from a project, plugin or managed file, so a
 * stranger can neither pick the model nor learn where the key goes.
 * @module
 */
import { isObject, type JsonObject } from "../util/json.ts";
import { type Warning, warning } from "./warnings.ts";

/** The model prompt hooks ask. */
export type ModelConfig = {
  provider: "anthropic" | "openai";
  /** The API root: `https://api.anthropic.com`, `https://api.openai.com/v1`. */
  baseUrl: string;
  /** The model asked, unless a hook names its own; null: each prompt hook must name one. */
  model: string | null;
  /** The environment variable holding the API key (absent: no key sent, as a local server may need none). */
  apiKeyEnv: string | null;
};

/** Each provider's API root when `base_url` is not written. */
const DEFAULT_BASE: Readonly<Record<ModelConfig["provider"], string>> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
};

/**
 * The `[hooks.model]` of the user side (`-c` over the user config.toml), or null when none is set; a
 * malformed one is null with a `W_BAD_FIELD` warning naming what is wrong.
 */
export function hooksModel(
  userToml: JsonObject | undefined,
  cli: JsonObject,
  source: string,
  warnings: Warning[],
): ModelConfig | null {
  const pick = (data: JsonObject | undefined) => {
    const hooks = data?.hooks;
    return isObject(hooks) && isObject(hooks.model) ? hooks.model : undefined;
  };
  const user = pick(userToml);
  const over = pick(cli);
  if (user === undefined && over === undefined) return null;
  const t: JsonObject = { ...(user ?? {}), ...(over ?? {}) };
  const bad = (why: string) => {
    warnings.push(warning("W_BAD_FIELD", `[hooks.model]: ${why}; prompt hooks will not run`, source, {
      path: ["hooks", "model"],
    }));
    return null;
  };
  if (t.provider !== "anthropic" && t.provider !== "openai") return bad(`provider must be "anthropic" or "openai"`);
  if (t.model !== undefined && (typeof t.model !== "string" || t.model === "")) {
    return bad("model must be a non-empty string");
  }
  if (t.base_url !== undefined && typeof t.base_url !== "string") return bad("base_url must be a string");
  if (t.api_key_env !== undefined && typeof t.api_key_env !== "string") return bad("api_key_env must be a string");
  const baseUrl = (t.base_url as string | undefined) ?? DEFAULT_BASE[t.provider];
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== "https:" && u.protocol !== "http:") return bad("base_url must be an http(s) URL");
  } catch {
    return bad("base_url must be an http(s) URL");
  }
  return {
    provider: t.provider,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    model: (t.model as string | undefined) ?? null,
    apiKeyEnv: (t.api_key_env as string | undefined) || null,
  };
}
