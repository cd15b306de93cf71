/**
 * Resolving the common options (SPEC §1) into engine settings: the home, the
 * temp root, and the discovery options.
 * @module
 */
import type { ConfigOptions } from "../config/discovery.ts";
import type { ParsedOptions } from "./args.ts";
import { absolute, join } from "../util/paths.ts";

/** The environment as a plain record (read once). */
export function envRecord(): Record<string, string | undefined> {
  return Deno.env.toObject();
}

/** `--home`, else `$MIND_HOME`, else `~/.mind`. */
export function resolveHome(
  opts: ParsedOptions,
  env: Record<string, string | undefined>,
  cwd: string,
): string {
  const given = (opts.home as string | undefined) ?? env.MIND_HOME;
  if (given) return absolute(given, cwd);
  const userHome = env.HOME ?? env.USERPROFILE ?? cwd;
  return join(userHome, ".mind");
}

/** `--temp-dir`, else `$MIND_TEMP_DIR`, else the OS temp dir. */
export function resolveTempDir(
  opts: ParsedOptions,
  env: Record<string, string | undefined>,
  cwd: string,
): string {
  const given = (opts["temp-dir"] as string | undefined) ?? env.MIND_TEMP_DIR;
  if (given) return absolute(given, cwd);
  return env.TMPDIR ?? env.TEMP ?? env.TMP ??
    (Deno.build.os === "windows" ? "C:\\Windows\\Temp" : "/tmp");
}

/** Discovery options from the common options; `cwd` is where the project is searched from. */
export function configOptions(
  opts: ParsedOptions,
  env: Record<string, string | undefined>,
  processCwd: string,
  cwd: string,
): ConfigOptions {
  return {
    home: resolveHome(opts, env, processCwd),
    cwd,
    profile: opts.profile as string | undefined,
    overrides: (opts.config as string[] | undefined) ?? [],
    hooksFiles: ((opts["hooks-file"] as string[] | undefined) ?? []).map((f) => absolute(f, processCwd)),
    requirements: opts.requirements ? absolute(opts.requirements as string, processCwd) : undefined,
    bypassTrust: opts["dangerously-bypass-hook-trust"] === true,
    env,
  };
}
