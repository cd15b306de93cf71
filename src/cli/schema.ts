/**
 * `mind-hooks schema [input|output|config|result] [EVENT]`: prints the JSON Schemas generated from
 * the zod sources (`src/generated/schemas.ts`, so no zod is loaded here). The text is exactly that
 * of the published `schemas/*.json` files. `schema config` is the hooks.json schema, usable as
 * `"$schema"` in editors. The kind is required (the command table checks it, src/cli/commands.ts).
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { CONFIG_SCHEMA, INPUT_SCHEMAS, OUTPUT_SCHEMAS, RESULT_SCHEMA } from "../generated/schemas.ts";
import { EVENT_NAMES, eventFileStem, type EventName, eventSuggestion, isEventName } from "../events/names.ts";
import { writeStdout } from "../util/stdio.ts";

/** The schema kinds. */
export const SCHEMA_KINDS = ["input", "output", "config", "result"] as const;

/** Resolves an event given as its name or its file-name stem (`pre-tool-use`). */
function eventArg(text: string): EventName {
  if (isEventName(text)) return text;
  const byStem = EVENT_NAMES.find((e) => eventFileStem(e) === text);
  if (byStem) return byStem;
  throw new UsageError(
    `unknown event ${JSON.stringify(text)}${eventSuggestion(text)} (events: ${EVENT_NAMES.join(", ")})`,
  );
}

/** The schema text for `kind` and optional `event`; a usage error for anything unknown. */
export function schemaText(kind: string, event?: string): string {
  let value: unknown;
  switch (kind) {
    case "input":
    case "output": {
      const all = kind === "input" ? INPUT_SCHEMAS : OUTPUT_SCHEMAS;
      value = event === undefined ? Object.fromEntries(EVENT_NAMES.map((e) => [e, all[e]])) : all[eventArg(event)];
      break;
    }
    case "config":
    case "result":
      if (event !== undefined) throw new UsageError(`schema ${kind} takes no EVENT`);
      value = kind === "config" ? CONFIG_SCHEMA : RESULT_SCHEMA;
      break;
    default:
      throw new UsageError(`unknown schema kind ${JSON.stringify(kind)} (kinds: ${SCHEMA_KINDS.join(", ")})`);
  }
  return JSON.stringify(value, null, 2) + "\n";
}

/** Runs the command; returns the exit code. */
export async function schemaCommand({ positionals }: ParsedArgs): Promise<number> {
  if (positionals.length > 2) throw new UsageError(`schema takes at most KIND and EVENT (got ${positionals.length})`);
  await writeStdout(schemaText(positionals[0], positionals[1]));
  return 0;
}
