/**
 * A small, strict argument parser: each command declares its options; an
 * unknown option or a missing value is a usage error (exit 1). Written here
 * rather than imported because it costs nothing at start-up and gives the
 * exact one-line errors the CLI promises.
 * @module
 */

/** One option's declaration. */
export type OptionSpec = {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
};

/** Parsed values: strings, booleans, or string lists for `multiple`. */
export type ParsedOptions = Record<
  string,
  string | boolean | string[] | undefined
>;

/** A usage error: printed as one line, exit 1. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The options every configuration-reading command accepts (SPEC §1). */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  home: { type: "string" },
  cwd: { type: "string" },
  profile: { type: "string" },
  config: { type: "string", short: "c", multiple: true },
  "hooks-file": { type: "string", multiple: true },
  requirements: { type: "string" },
  "dangerously-bypass-hook-trust": { type: "boolean" },
  "temp-dir": { type: "string" },
  help: { type: "boolean", short: "h" },
};

/** Parses `args` against `spec`; positionals are returned in order. */
export function parseArgs(
  args: readonly string[],
  spec: Record<string, OptionSpec>,
): { options: ParsedOptions; positionals: string[] } {
  const options: ParsedOptions = {};
  const positionals: string[] = [];
  const byShort = new Map(
    Object.entries(spec).filter(([, s]) => s.short).map((
      [n, s],
    ) => [s.short!, n]),
  );
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    } else if (arg.startsWith("-") && arg.length > 1) {
      name = byShort.get(arg.slice(1, 2));
      if (!name) throw new UsageError(`unknown option ${arg}`);
      inline = arg.length > 2 ? arg.slice(2) : undefined;
    } else {
      positionals.push(arg);
      continue;
    }
    // Own properties only: `--toString` is an unknown option, not Object.prototype's method.
    const s = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (!s) throw new UsageError(`unknown option --${name}`);
    if (s.type === "boolean") {
      if (inline !== undefined) {
        throw new UsageError(`--${name} takes no value`);
      }
      options[name] = true;
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (s.multiple) {
      options[name] = [
        ...((options[name] as string[] | undefined) ?? []),
        value,
      ];
    } else options[name] = value;
  }
  return { options, positionals };
}
