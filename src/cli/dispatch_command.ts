/**
 * `mind-hooks dispatch`: one event JSON on stdin → one result JSON on stdout
 * (SPEC §1, §9). Exit 0 whatever the hooks decided; 1 for bad input; 130/143 when ended by SIGINT/SIGTERM,
 * after killing the process groups of the hooks it runs (src/runner/running.ts).
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { parseEventText } from "../engine/input.ts";
import { engineDispatch } from "../engine/dispatch.ts";
import { fromCliValues, resolveSettings } from "../engine/settings.ts";
import { writeAll, writeStdout } from "../util/stdio.ts";
import type { RunIo } from "../sandbox/launch.ts";
import { HOSTS, isHost } from "../adapter/host_names.ts";
import type { SandboxNeeded } from "../config/fast_path_guard.ts";

/**
 * Ends the process on SIGTERM/SIGINT, after killing the process groups of the hooks it runs: they
 * run in sessions of their own, so the signal does not reach them, and a hung hook would outlive
 * the engine. The host that sent the signal gets no result (exit 128 + the signal's number).
 */
async function exitOnSignal(io: RunIo): Promise<() => void> {
  const { killRunning, onTermination, signalExitCode } = await import("../runner/running.ts");
  return onTermination((signal) => {
    killRunning({ ending: true }).finally(() => io.exit(signalExitCode(signal)));
  });
}

/** Runs the command; returns the exit code, or on the fast path that the run needs the sandbox Worker. */
export async function dispatchCommand(args: ParsedArgs, io: RunIo): Promise<number | SandboxNeeded> {
  const stopListening = await exitOnSignal(io);
  try {
    return await dispatchOnce(args, io);
  } finally {
    stopListening();
  }
}

async function dispatchOnce({ options, positionals }: ParsedArgs, io: RunIo): Promise<number | SandboxNeeded> {
  if (positionals.length) throw new UsageError(`dispatch takes no arguments (got ${JSON.stringify(positionals[0])})`);
  if ((options.explain || options.pretty) && options.protocol !== undefined && options.protocol !== "mind") {
    throw new UsageError(
      `--explain and --pretty are for the mind protocol: the host reads --protocol ${options.protocol}'s output itself`,
    );
  }
  if (isHost(options.protocol)) {
    // Adapter mode: the host's own hook stdin/stdout (src/adapter/), loaded only when asked for.
    const { adapterDispatch } = await import("../adapter/run.ts");
    const event = typeof options.event === "string" ? options.event : undefined;
    return await adapterDispatch(options.protocol, fromCliValues(options), io.stdin, event, io.strangers);
  }
  if (options.protocol !== undefined && options.protocol !== "mind") {
    throw new UsageError(
      `--protocol ${options.protocol} is not supported (mind, ${HOSTS.join(", ")})`,
    );
  }
  if (options.event !== undefined) {
    throw new UsageError(`--event names a host's event: it goes with --protocol ${HOSTS.join("|")}`);
  }
  const parsed = parseEventText(new TextDecoder().decode(await io.stdin()));
  if (!parsed.ok) throw new UsageError(parsed.error);
  const settings = resolveSettings(fromCliValues(options), Deno.env.toObject(), Deno.cwd());
  // --explain: the engine keeps a trace (and loads its module) only when asked.
  const explain = options.explain === true;
  const outcome = await engineDispatch(parsed.value, settings, { explain, strangers: io.strangers });
  if (!outcome.ok && outcome.sandbox) return { sandbox: outcome.error };
  if (!outcome.ok) throw new UsageError(outcome.error);
  const { result, trace } = outcome;
  await writeStdout((options.pretty ? JSON.stringify(result, null, 2) : JSON.stringify(result)) + "\n");
  if (explain && trace) {
    // On stderr, so stdout stays exactly the result.
    const { renderTrace } = await import("./explain.ts");
    await writeAll(Deno.stderr, new TextEncoder().encode(renderTrace(trace, result)));
  }
  return 0;
}
