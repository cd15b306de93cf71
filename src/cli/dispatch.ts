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
import { HOST_NAMES, type HostName } from "../events/types.ts";

/** Usage text of the command. */
export const DISPATCH_HELP = `mind-hooks dispatch [options] < event.json

Reads one event JSON object on stdin, runs the trusted hooks that match it,
and prints one result JSON object on stdout (SPEC §9).

--protocol claude|codex|gemini|copilot reads the host's own hook input and
answers in that host's own hook output format (README: "Claude Code and
Codex", "Gemini CLI and Copilot CLI"); the default is mind. --event NAME
names the host's event when its payload does not (Copilot CLI's camelCase
events).

Options: --protocol mind|claude|codex|gemini|copilot, --event NAME, --home DIR, --cwd DIR, --profile NAME,
         -c KEY=VALUE, --hooks-file FILE, --requirements FILE, --temp-dir DIR, --dangerously-bypass-hook-trust`;

/** Runs the command; returns the exit code. */
export async function dispatchCommand({ options, positionals }: ParsedArgs, io: RunIo): Promise<number> {
  if (positionals.length) throw new UsageError(`dispatch takes no arguments (got ${JSON.stringify(positionals[0])})`);
  if (options.help) {
    console.log(DISPATCH_HELP);
    return 0;
  }
  if ((HOST_NAMES as readonly unknown[]).includes(options.protocol)) {
    // Adapter mode: the host's own hook stdin/stdout (src/adapter/), loaded only when asked for.
    const { adapterDispatch } = await import("../adapter/run.ts");
    const event = typeof options.event === "string" ? options.event : undefined;
    return await adapterDispatch(options.protocol as HostName, fromCliValues(options), io.stdin, event);
  }
  if (options.protocol !== undefined && options.protocol !== "mind") {
    throw new UsageError(
      `--protocol ${options.protocol} is not supported (mind, ${HOST_NAMES.join(", ")})`,
    );
  }
  if (options.event !== undefined) {
    throw new UsageError(`--event names a host's event: it goes with --protocol ${HOST_NAMES.join("|")}`);
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
