/**
 * `mind-hooks dispatch`: one event JSON on stdin → one result JSON on stdout
 * (SPEC §1, §9). Exit 0 whatever the hooks decided; 1 for bad input.
 * @module
 */
import { COMMON_OPTIONS, parseArgs, UsageError } from "./args.ts";
import { configOptions, envRecord, resolveTempDir } from "./context.ts";
import { parseEventText, transcriptFiller, validateEvent } from "../dispatch/input.ts";
import { loadCatalog } from "../config/discovery.ts";
import { dispatchEvent } from "../dispatch/dispatch.ts";
import { absolute } from "../util/paths.ts";
import { readStdin, writeStdout } from "../util/stdio.ts";

/** Usage text of the command. */
export const DISPATCH_HELP = `mind-hooks dispatch [options] < event.json

Reads one event JSON object on stdin, runs the trusted hooks that match it,
and prints one result JSON object on stdout (SPEC §9).

--protocol claude|codex reads the host's own hook input and answers in that
host's own hook output format (README: "Claude Code and Codex"); the default is mind.

Options: --protocol mind|claude|codex, --home DIR, --cwd DIR, --profile NAME, -c KEY=VALUE, --hooks-file FILE,
         --requirements FILE, --temp-dir DIR, --dangerously-bypass-hook-trust`;

/** Runs the command; returns the exit code. */
export async function dispatchCommand(args: string[]): Promise<number> {
  const { options, positionals } = parseArgs(args, {
    ...COMMON_OPTIONS,
    protocol: { type: "string" },
  });
  if (positionals.length) throw new UsageError(`dispatch takes no arguments (got ${JSON.stringify(positionals[0])})`);
  if (options.help) {
    console.log(DISPATCH_HELP);
    return 0;
  }
  if (options.protocol === "claude" || options.protocol === "codex") {
    // Adapter mode: the host's own hook stdin/stdout (src/adapter/), loaded only when asked for.
    const { adapterDispatch } = await import("../adapter/run.ts");
    return await adapterDispatch(options.protocol, options);
  }
  if (options.protocol !== undefined && options.protocol !== "mind") {
    throw new UsageError(
      `--protocol ${options.protocol} is not supported (mind, claude, codex)`,
    );
  }
  const env = envRecord();
  const processCwd = Deno.cwd();
  const text = await readStdin();
  const parsed = parseEventText(text);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const cfgBase = configOptions(options, env, processCwd, processCwd);
  const validated = await validateEvent(parsed.value, transcriptFiller(cfgBase.home));
  if (!validated.ok) throw new UsageError(validated.error);
  const ev = validated.value;
  const cwd = options.cwd ? absolute(options.cwd as string, processCwd) : String(ev.input.cwd);
  const catalog = await loadCatalog({ ...cfgBase, cwd });
  if ("error" in catalog) throw new UsageError(catalog.error);
  const { takeAsyncResults } = await import("../session/async.ts");
  const result = await dispatchEvent(ev, catalog, {
    tempDir: resolveTempDir(options, env, processCwd),
    takeAsync: (sid) => takeAsyncResults(catalog.home, sid),
  });
  await writeStdout(JSON.stringify(result) + "\n");
  return 0;
}
