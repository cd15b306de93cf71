/**
 * How each handler type runs (SPEC §7; §2.2 r4): the runner half of the handler-type contract
 * (src/config/handler_types/ holds the rest), a `Record` over every type so that a type without a runner
 * is a type error. Each runner turns one handler and the dispatch's context into a raw completion that
 * the §8 protocol reads alike (src/output/protocol.ts).
 * @module
 */
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import type { HandlerOf } from "../config/handler_types/types.ts";
import { EVENTS } from "../events/registry.ts";
import type { EventName } from "../events/names.ts";
import type { HandlerType } from "../schema/handler.ts";
import type { JsonObject } from "../util/json.ts";
import type { CommandSpec, RawCompletion } from "../runner/types.ts";
import { rawCompletion } from "../runner/types.ts";
import type { DispatchIo } from "./io.ts";

/** What a runner gets of the dispatch. */
export type RunnerContext = {
  readonly event: EventName;
  readonly hookInput: JsonObject;
  /** The hook input JSON, as a command reads it on stdin. */
  readonly stdin: string;
  readonly catalog: AnyCatalog;
  readonly io: DispatchIo;
  /** What a command handler runs (its command, cwd, environment, timeout, shell). */
  commandSpec(h: HookHandler): CommandSpec;
  /** Starts a command (the lazily loaded runner). */
  runCommand(spec: CommandSpec): Promise<RawCompletion>;
};

/** Reads a variable of the engine's environment, or undefined (also without the permission to). */
function envOf(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

/** The handler of `h` as its type's runner takes it. */
function typed<T extends HandlerType>(h: HookHandler): HandlerOf<T> {
  return h.handler as HandlerOf<T>;
}

/** Every handler type's runner. */
export const RUNNERS: { readonly [T in HandlerType]: (h: HookHandler, c: RunnerContext) => Promise<RawCompletion> } = {
  async command(h, c) {
    if (h.plugin) await Deno.mkdir(h.env.PLUGIN_DATA, { recursive: true }).catch(() => {});
    return await c.runCommand(c.commandSpec(h));
  },
  async mcp_tool(h, c) {
    const run = c.io.runMcp ?? (await import("../runner/mcp.ts")).runMcpOneShot;
    return await run(h, c.hookInput, c.catalog);
  },
  async http(h, c) {
    const { runHttp } = await import("../runner/http.ts");
    return await runHttp(typed<"http">(h), { body: c.stdin, env: envOf });
  },
  async prompt(h, c) {
    const model = c.catalog.model;
    // cannotRun keeps a prompt hook without a model from getting here; a completion, not a throw, if one does.
    if (model === null) return rawCompletion({ failure: "no model: set [hooks.model] in the user config" });
    const { runPrompt } = await import("../runner/prompt.ts");
    return await runPrompt(typed<"prompt">(h), {
      eventJson: c.stdin,
      model,
      canBlock: EVENTS[c.event].canBlock,
      env: envOf,
    });
  },
};
