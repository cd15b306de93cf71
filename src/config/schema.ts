/**
 * The zod schema of a standalone `hooks.json` (SPEC §2.1, §2.2), for editors
 * (`"$schema"`) and `mind-hooks schema config`. Discovery itself is more
 * forgiving than this schema (it skips bad groups and handlers one by one and
 * warns), so a file can load with warnings while an editor flags it.
 * @module
 */
import type { Zod } from "../events/types.ts";
import { EVENT_NAMES } from "../events/names.ts";

/** Builds the zod schema of a hooks.json file. */
export function hooksFileSchema(z: Zod) {
  const command = z.object({
    type: z.literal("command"),
    command: z.string().min(1),
    name: z.string().optional().describe("a name shown beside the command (display only, not hashed)"),
    commandWindows: z.string().optional(),
    command_windows: z.string().optional(),
    statusMessage: z.string().optional(),
    timeout: z.int().min(1).optional(),
    async: z.boolean().optional(),
    additionalContextLimit: z.int().min(0).optional(),
  });
  const mcp = z.object({
    type: z.literal("mcp_tool"),
    server: z.string().min(1),
    tool: z.string().min(1),
    name: z.string().optional().describe("a name shown beside the tool (display only, not hashed)"),
    input: z.record(z.string(), z.unknown()).optional(),
    statusMessage: z.string().optional(),
    timeout: z.int().min(1).optional(),
  });
  const group = z.object({
    matcher: z.string().optional(),
    hooks: z.array(z.discriminatedUnion("type", [command, mcp])),
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
