/**
 * The thin shell every release script shares: it parses the arguments with the CLI's own parser, resolves
 * relative paths from the directory the user typed the task in, and turns any failure into one
 * `<task>: <reason>` line on stderr with exit 1 (never a stack trace).
 * @module
 */
import { type OptionSpec, parseArgs, type ParsedOptions, UsageError } from "../src/util/args.ts";
import { absolute } from "../src/util/paths.ts";

export { UsageError };

/**
 * The directory a relative path on the command line means: `deno task` runs scripts in the folder of
 * deno.json and says where it was started in `INIT_CWD`.
 */
export function invokedFrom(env: Record<string, string | undefined> = Deno.env.toObject()): string {
  return env.INIT_CWD || Deno.cwd();
}

/** `path` made absolute against the directory the task was started in. */
export function fromInvocation(path: string): string {
  return absolute(path, invokedFrom());
}

/** Runs `main` with the parsed arguments of this process and exits with its code; errors become one line. */
export async function runScript(
  task: string,
  spec: Record<string, OptionSpec>,
  help: string,
  main: (options: ParsedOptions, positionals: string[]) => Promise<number>,
): Promise<never> {
  let code: number;
  try {
    const { options, positionals } = parseArgs(Deno.args, { ...spec, help: { type: "boolean", short: "h" } });
    if (options.help) {
      console.log(help);
      code = 0;
    } else code = await main(options, positionals);
  } catch (e) {
    console.error(`${task}: ${e instanceof Error ? e.message.split("\n", 1)[0] : String(e)}`);
    code = 1;
  }
  Deno.exit(code);
}

/** A required string option, or a usage error naming it (`metavar` is what the help calls its value). */
export function required(options: ParsedOptions, name: string, metavar: string): string {
  const v = options[name];
  if (typeof v !== "string" || v === "") throw new UsageError(`--${name} ${metavar} is required (see --help)`);
  return v;
}
