/**
 * `mind-hooks dispatch`: one event JSON on stdin → one result JSON on stdout
 * (SPEC §1, §9). Exit 0 whatever the hooks decided; 1 for bad input.
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { parseEventText } from "../dispatch/input.ts";
import { engineDispatch } from "../engine/dispatch.ts";
import { fromCliValues, resolveSettings } from "../engine/settings.ts";
import { writeStdout } from "../util/stdio.ts";
import type { RunIo } from "../sandbox/launch.ts";

/** Runs the command; returns the exit code. */
export async function dispatchCommand({ options, positionals }: ParsedArgs, io: RunIo): Promise<number> {
  if (positionals.length) throw new UsageError(`dispatch takes no arguments (got ${JSON.stringify(positionals[0])})`);
  if (options.protocol === "claude" || options.protocol === "codex") {
    // Adapter mode: the host's own hook stdin/stdout (src/adapter/), loaded only when asked for.
    const { adapterDispatch } = await import("../adapter/run.ts");
    return await adapterDispatch(options.protocol, fromCliValues(options), io.stdin);
  }
  if (options.protocol !== undefined && options.protocol !== "mind") {
    throw new UsageError(
      `--protocol ${options.protocol} is not supported (mind, claude, codex)`,
    );
  }
  const parsed = parseEventText(new TextDecoder().decode(await io.stdin()));
  if (!parsed.ok) throw new UsageError(parsed.error);
  const settings = resolveSettings(fromCliValues(options), Deno.env.toObject(), Deno.cwd());
  const outcome = await engineDispatch(parsed.value, settings);
  if (!outcome.ok) throw new UsageError(outcome.error);
  const { result } = outcome;
  await writeStdout(JSON.stringify(result) + "\n");
  return 0;
}
