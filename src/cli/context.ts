/**
 * The engine settings of a command line (SPEC §1): the common options read by the engine's one
 * option spec (src/engine/settings.ts), with this process's environment and cwd.
 * @module
 */
import { type ParsedOptions, UsageError } from "../util/args.ts";
import { fromCliValues, type HomeSettings, NO_HOME, resolveSettings } from "../engine/settings.ts";

/**
 * The settings of a command given its parsed options. Every command but `dispatch` needs a home
 * (SPEC §1 r3): without one it is a usage error (`mind-hooks: no home: …`, exit 1).
 */
export function cliSettings(options: ParsedOptions): HomeSettings {
  const settings = resolveSettings(fromCliValues(options), Deno.env.toObject(), Deno.cwd());
  if (settings.home === null) throw new UsageError(NO_HOME);
  return settings as HomeSettings;
}
