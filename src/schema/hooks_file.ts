/**
 * The zod schema of a standalone `hooks.json` (SPEC §2.1, §2.2), for editors
 * (`"$schema"`) and `mind-hooks schema config`. Discovery itself is more
 * forgiving than this schema (it skips bad groups and handlers one by one and
 * warns), so a file can load with warnings while an editor flags it. Its
 * handlers are the field tables of `handler.ts`.
 * @module
 */
import type { Zod } from "../events/types.ts";
import { EVENT_NAMES } from "../events/names.ts";
import { handlerSchema } from "./handler.ts";

/** Builds the zod schema of a hooks.json file. */
export function hooksFileSchema(z: Zod) {
  const group = z.object({
    matcher: z.string().optional(),
    hooks: z.array(handlerSchema(z)),
  });
  const events = Object.fromEntries(
    EVENT_NAMES.map((e) => [e, z.array(group).optional()]),
  );
  return z.strictObject({
    $schema: z.string().optional(),
    description: z.string().optional(),
    hooks: z.strictObject(events),
  });
}
