/**
 * The `options` object a `serve` request may carry (SPEC §13: "optional `options` as in §1"), read
 * into the same parsed-option form the CLI uses, over the defaults `serve` was started with. A
 * field given in the request replaces the default of that field (lists included).
 * @module
 */
import type { ParsedOptions } from "../cli/args.ts";
import { INVALID_PARAMS, RpcError } from "./jsonrpc.ts";

/** Request option name → CLI option name, and its type. */
const FIELDS: Record<string, { cli: string; type: "string" | "strings" | "boolean" }> = {
  home: { cli: "home", type: "string" },
  cwd: { cli: "cwd", type: "string" },
  profile: { cli: "profile", type: "string" },
  config: { cli: "config", type: "strings" },
  hooksFile: { cli: "hooks-file", type: "strings" },
  requirements: { cli: "requirements", type: "string" },
  tempDir: { cli: "temp-dir", type: "string" },
  dangerouslyBypassHookTrust: { cli: "dangerously-bypass-hook-trust", type: "boolean" },
};

/** The request option names, for error messages and docs. */
export const REQUEST_OPTION_NAMES: readonly string[] = Object.keys(FIELDS);

/**
 * Merges a request's `options` over the serve defaults; throws an INVALID_PARAMS RpcError naming
 * the first bad field.
 */
export function requestOptions(raw: unknown, defaults: ParsedOptions): ParsedOptions {
  if (raw === undefined || raw === null) return defaults;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    throw new RpcError(INVALID_PARAMS, "options must be an object");
  }
  const out: ParsedOptions = { ...defaults };
  for (const [name, value] of Object.entries(raw)) {
    const field = Object.hasOwn(FIELDS, name) ? FIELDS[name] : undefined;
    if (!field) {
      throw new RpcError(
        INVALID_PARAMS,
        `unknown option ${JSON.stringify(name)} (known: ${REQUEST_OPTION_NAMES.join(", ")})`,
      );
    }
    if (value === undefined || value === null) continue;
    switch (field.type) {
      case "string":
        if (typeof value !== "string" || value === "") {
          throw new RpcError(INVALID_PARAMS, `options.${name} must be a non-empty string`);
        }
        out[field.cli] = value;
        break;
      case "strings": {
        const list = typeof value === "string" ? [value] : value;
        if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
          throw new RpcError(INVALID_PARAMS, `options.${name} must be a list of strings`);
        }
        out[field.cli] = [...list] as string[];
        break;
      }
      case "boolean":
        if (typeof value !== "boolean") throw new RpcError(INVALID_PARAMS, `options.${name} must be a boolean`);
        out[field.cli] = value;
        break;
    }
  }
  return out;
}
