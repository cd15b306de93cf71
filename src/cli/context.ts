/**
 * The engine settings of a command line (SPEC §1): the common options read by the engine's one
 * option spec (src/engine/settings.ts), with this process's environment and cwd.
 * @module
 */
import type { ParsedOptions } from "../util/args.ts";
import { type EngineSettings, fromCliValues, resolveSettings } from "../engine/settings.ts";

/** The settings of a command given its parsed options. */
export function cliSettings(options: ParsedOptions): EngineSettings {
  return resolveSettings(fromCliValues(options), Deno.env.toObject(), Deno.cwd());
}
