/**
 * Compiles the zod schemas (event modules, dispatch result, hooks.json) to
 * JSON Schemas. Used by the generator, the `schema` command's tests and the
 * drift test; never on the dispatch path.
 * @module
 */
import * as z from "zod";
import { EVENT_NAMES, type EventName } from "../events/names.ts";
import { EVENTS } from "../events/registry.ts";
import { dispatchResultSchema } from "./result.ts";
import { hooksFileSchema } from "./hooks_file.ts";

/** Every generated JSON Schema. */
export type SchemaSet = {
  input: Record<EventName, Record<string, unknown>>;
  output: Record<EventName, Record<string, unknown>>;
  /** The Claude-dialect output schemas (SPEC §8.1): what Claude Code reads, other keys ignored. */
  claudeOutput: Record<EventName, Record<string, unknown>>;
  config: Record<string, unknown>;
  result: Record<string, unknown>;
};

function toJson(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
  }) as Record<string, unknown>;
}

/** Builds all JSON Schemas from the zod sources. */
export function buildSchemas(): SchemaSet {
  const input = {} as SchemaSet["input"];
  const output = {} as SchemaSet["output"];
  const claudeOutput = {} as SchemaSet["claudeOutput"];
  for (const name of EVENT_NAMES) {
    const s = EVENTS[name].schemas(z);
    input[name] = toJson(s.input);
    output[name] = toJson(s.output);
    claudeOutput[name] = toJson(s.claudeOutput);
  }
  return {
    input,
    output,
    claudeOutput,
    config: toJson(hooksFileSchema(z)),
    result: toJson(dispatchResultSchema(z)),
  };
}

/** The zod schemas themselves, for tests that cross-check the validator. */
export function zodSchemas(name: EventName) {
  return EVENTS[name].schemas(z);
}
