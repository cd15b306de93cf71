/**
 * The handler-type registry: type → module (SPEC §2.2). A `Record` over every type, so a type without a
 * module, or a module missing a fact, is a type error.
 * @module
 */
import type { HandlerType, NormalizedHandler } from "../../schema/handler.ts";
import { commandHandler } from "./command.ts";
import { httpHandler } from "./http.ts";
import { mcpToolHandler } from "./mcp_tool.ts";
import { promptHandler } from "./prompt.ts";
import type { HandlerModule } from "./types.ts";

/** Every handler type's module. */
export const HANDLER_MODULES: { readonly [T in HandlerType]: HandlerModule<T> } = {
  command: commandHandler,
  mcp_tool: mcpToolHandler,
  http: httpHandler,
  prompt: promptHandler,
};

/**
 * The module of `h`'s type, taking any normalized handler: the registry is keyed by the type `h` names,
 * so each fact meets the handler of its own type.
 */
export function handlerModule(h: NormalizedHandler): HandlerModule<HandlerType> {
  return moduleOfType(h.type);
}

/** The module of `type`, taking any normalized handler (see {@link handlerModule}). */
export function moduleOfType(type: HandlerType): HandlerModule<HandlerType> {
  return HANDLER_MODULES[type] as unknown as HandlerModule<HandlerType>;
}

/** What runs, in one line (`list`, `review`, the trust confirmation, the session-start notice). */
export function handlerSummary(h: NormalizedHandler): string {
  return handlerModule(h).summary(h);
}
