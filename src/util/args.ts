/**
 * A small, strict argument parser: each command declares its options; an
 * unknown option or a missing value is a usage error (exit 1). Written here
 * rather than imported because it costs nothing at start-up and gives the
 * exact one-line errors the CLI promises.
 * @module
 */
import { didYouMean } from "./suggest.ts";

/** One option's declaration; `value` and `about` describe it for help texts and shell completion. */
export type OptionSpec = {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** What a string option's value is: a folder, a file, a protocol name, or other text. */
  value?: "dir" | "file" | "protocol" | "text";
  /** The value's name in help texts (`ID`, `KEY=VALUE`); default from `value` (`DIR`, `FILE`, `VALUE`). */
  arg?: string;
  /** One line on what the option does. */
  about?: string;
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

/**
 * A command called without something it needs (its action, a required option): a usage error
 * after which `main.ts` also prints the command's usage line.
 */
export class MissingArgument extends UsageError {
  override name = "MissingArgument";
}

/** A parsed command line: option values by name, and the positional words in order. */
export type ParsedArgs = { options: ParsedOptions; positionals: string[] };

/**
 * Parses `args` against `spec`; positionals are returned in order. `lenient` skips what does not
 * parse instead of throwing (used only to learn an option of a command line that is a usage error).
 */
export function parseArgs(
  args: readonly string[],
  spec: Record<string, OptionSpec>,
  lenient = false,
): ParsedArgs {
  const options: ParsedOptions = {};
  const positionals: string[] = [];
  const byShort = new Map(Object.entries(spec).filter(([, s]) => s.short).map(([n, s]) => [s.short!, n]));
  const refuse = (message: string) => {
    if (!lenient) throw new UsageError(message);
  };
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
      inline = arg.length > 2 ? arg.slice(2) : undefined;
      if (!name) {
        refuse(`unknown option ${arg}`);
        continue;
      }
    } else {
      positionals.push(arg);
      continue;
    }
    // Own properties only: `--toString` is an unknown option, not Object.prototype's method.
    const s = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (!s) {
      refuse(`unknown option --${name}${didYouMean(name, Object.keys(spec), (n) => `--${n}`)}`);
      continue;
    }
    if (s.type === "boolean") {
      if (inline !== undefined) refuse(`--${name} takes no value`);
      else options[name] = true;
      continue;
    }
    const value = inline ?? args[++i];
    if (value === undefined) {
      refuse(`--${name} needs a value`);
      continue;
    }
    if (s.multiple) options[name] = [...((options[name] as string[] | undefined) ?? []), value];
    else options[name] = value;
  }
  return { options, positionals };
}

/**
 * Moves the options of `spec` written before the command (`mind-hooks --home X list`, as git takes
 * `git -C DIR status`) to just after it: `[command, ...those options, ...the rest]`. Only options of
 * `spec` (with their values) are taken; the first other word is the command. When what precedes the
 * command is not such an option (`--help`, `--version`, an unknown option), `args` is returned as it
 * is, so that those keep their own meaning and errors.
 */
export function hoistLeadingOptions(args: readonly string[], spec: Record<string, OptionSpec>): string[] {
  const byShort = new Map(Object.entries(spec).filter(([, s]) => s.short).map(([n, s]) => [s.short!, n]));
  let i = 0;
  while (i < args.length && args[i].startsWith("-") && args[i] !== "-" && args[i] !== "--") {
    const arg = args[i];
    const long = arg.startsWith("--");
    const name = long ? arg.slice(2).split("=", 1)[0] : byShort.get(arg.slice(1, 2));
    const s = name !== undefined && Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (!s || name === "help") return [...args];
    const inline = long ? arg.includes("=") : arg.length > 2;
    i += s.type === "string" && !inline ? 2 : 1;
  }
  if (i === 0 || i >= args.length) return [...args];
  return [args[i], ...args.slice(0, i), ...args.slice(i + 1)];
}
