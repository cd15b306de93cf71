/**
 * The `http` handler type (SPEC §2.2 r4): the event JSON is POSTed to `url` and a 2xx JSON body is read
 * like a command's stdout. `https://`, or `http://` to a loopback address only; the headers are hashed
 * as written, and only the variables named in `allowedEnvVars` are interpolated into them at run time
 * ({@link interpolateHeaders}), so a secret never enters the hash, the log, `list` or `review`.
 * @module
 */
import { isObject, type JsonObject } from "../../util/json.ts";
import type { NormalizedHandler } from "../../schema/handler.ts";
import type { DiscoveredHandler } from "../handlers.ts";
import { type Warning, warning } from "../warnings.ts";
import { DEFAULT_CONTEXT_LIMIT } from "./command.ts";
import type { HandlerModule } from "./types.ts";

/** An http hook's timeout when none is written, in seconds (Claude Code's, for its http hooks). */
export const HTTP_DEFAULT_TIMEOUT = 30;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True for a loopback host name (`localhost`, `127.x.x.x`, `::1`), where plain http stays on the machine. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Why `url` cannot be an http hook's URL, or null (SPEC §2.2 r4). */
export function urlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `url ${JSON.stringify(url)} is not a URL`;
  }
  if (u.username !== "" || u.password !== "") return "url must not hold credentials (put them in headers)";
  if (u.protocol === "https:") return null;
  if (u.protocol === "http:") {
    return isLoopback(u.hostname) ? null : "url must be https://, or http:// to a loopback address";
  }
  return "url must be https://, or http:// to a loopback address";
}

/** The `host:port` an http hook reaches (the scheme's port when none is written). */
export function urlReach(url: string): string {
  const u = new URL(url);
  const port = u.port !== "" ? u.port : u.protocol === "https:" ? "443" : "80";
  return `${u.hostname}:${port}`;
}

/**
 * True when `url` matches one of the managed `allowed_http_hook_urls` patterns (`*` matches any run of
 * characters, everything else itself, the whole URL), as Claude Code's `allowedHttpHookUrls` does.
 */
export function urlAllowed(url: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => {
    const re = new RegExp(`^${p.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\/]/g, "\\$&")).join(".*")}$`);
    return re.test(url);
  });
}

/**
 * The headers with `$NAME` and `${NAME}` of `allowed` replaced by `env`'s values (a missing one by ""),
 * every other `$…` left literal (SPEC §2.2 r4). Run time only: the result is never hashed, logged or shown.
 */
export function interpolateHeaders(
  headers: Readonly<Record<string, string>>,
  allowed: readonly string[],
  env: (name: string) => string | undefined,
): Record<string, string> {
  const names = new Set(allowed);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k] = v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced, bare) => {
      const name = braced ?? bare;
      return names.has(name) ? env(name) ?? "" : whole;
    });
  }
  return out;
}

/**
 * The managed `[hooks] allowed_http_hook_urls` (SPEC §2.2 r4), or null when it is not set (every URL is
 * allowed); a value that is not a list of strings allows none, with `W_BAD_FIELD`, so a broken policy
 * never opens what it meant to close.
 */
export function allowedHttpUrls(managed: JsonObject | undefined, source: string, warnings: Warning[]): string[] | null {
  const hooks = managed?.hooks;
  if (!isObject(hooks) || hooks.allowed_http_hook_urls === undefined) return null;
  const list = hooks.allowed_http_hook_urls;
  if (Array.isArray(list) && list.every((p) => typeof p === "string")) return list as string[];
  warnings.push(warning(
    "W_BAD_FIELD",
    "[hooks] allowed_http_hook_urls must be a list of URL patterns; no http hook is allowed",
    source,
    { path: ["hooks", "allowed_http_hook_urls"] },
  ));
  return [];
}

/**
 * Drops from `discovered` (in place) each http hook whose URL matches none of the managed `allowed` patterns
 * (null: no allow-list), with `W_HTTP_URL_NOT_ALLOWED` naming it (a problem line, SPEC §6).
 */
export function dropDisallowedHttp(
  discovered: DiscoveredHandler[],
  allowed: readonly string[] | null,
  warnings: Warning[],
): void {
  if (allowed === null) return;
  for (let i = discovered.length - 1; i >= 0; i--) {
    const d = discovered[i];
    const url = httpUrlOf(d.handler);
    if (url === null || urlAllowed(url, allowed)) continue;
    warnings.push(warning(
      "W_HTTP_URL_NOT_ALLOWED",
      `${d.event}: http hook to ${url} is not in the managed allowed_http_hook_urls; skipped`,
      d.sourcePath,
      d.path ? { path: d.path } : undefined,
    ));
    discovered.splice(i, 1);
  }
}

/** The URL an http handler posts to, or null for a handler of another type. */
export function httpUrlOf(h: NormalizedHandler): string | null {
  return h.type === "http" ? h.url : null;
}

/** The `http` handler type. */
export const httpHandler: HandlerModule<"http"> = {
  type: "http",
  defaultTimeout: HTTP_DEFAULT_TIMEOUT,
  refusedOn: () => null,
  normalize(raw, c) {
    if (typeof raw.url !== "string" || raw.url.trim() === "") return c.bad("http needs a non-empty url", "url");
    const problem = urlProblem(raw.url);
    if (problem !== null) return c.bad(problem, "url");
    const headers = raw.headers ?? {};
    if (!isObject(headers) || Object.values(headers).some((v) => typeof v !== "string")) {
      return c.bad("headers must be an object of strings", "headers");
    }
    const allowed = raw.allowedEnvVars ?? [];
    if (!Array.isArray(allowed) || allowed.some((v) => typeof v !== "string" || !ENV_NAME.test(v))) {
      return c.bad("allowedEnvVars must be a list of variable names", "allowedEnvVars");
    }
    if (raw.async === true) c.warn("W_ASYNC_IGNORED", `${c.where}: http hooks always run synchronously`, "async");
    const { timeout, statusMessage, once, failClosed, ...claude } = c.common;
    return {
      type: "http",
      url: raw.url,
      headers: headers as Record<string, string>,
      allowedEnvVars: allowed as string[],
      timeout,
      ...(statusMessage !== undefined ? { statusMessage } : {}),
      ...claude,
      ...(failClosed ? { failClosed } : {}),
      ...(once ? { once } : {}),
    };
  },
  summary: (h) => `http POST ${h.url}`,
  listPrefix: "",
  details: (h) => [
    ["URL", h.url, true],
    // As written: `$TOKEN` stays `$TOKEN` here, its value is read only when the hook runs.
    ...Object.entries(h.headers).map(([k, v]) => ["Header", `${k}: ${v}`] as const),
    ...(h.allowedEnvVars.length > 0 ? [["Env vars", h.allowedEnvVars.join(", ")] as const] : []),
    ["Timeout", `${h.timeout} s`],
  ],
  json: (h) => ({ url: h.url, headers: h.headers, allowedEnvVars: h.allowedEnvVars }),
  reviewWarnings: (h) => [`sends each event to ${new URL(h.url).host}`],
  commandText: () => null,
  runsProcess: false,
  contextLimit: () => DEFAULT_CONTEXT_LIMIT,
  async: () => false,
  netReach: (h) => [urlReach(h.url)],
  cannotRun: () => null,
  mcpServer: () => null,
};
