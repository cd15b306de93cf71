/**
 * `mind-hooks dispatch`: one event JSON on stdin → one result JSON on stdout
 * (SPEC §1, §9). Exit 0 whatever the hooks decided; 1 for bad input; 130/143 when ended by SIGINT/SIGTERM,
 * after killing the process groups of the hooks it runs (src/runner/running.ts).
 * @module
 */
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { parseEventText } from "../engine/input.ts";
import { engineDispatch } from "../engine/dispatch.ts";
import { fromCliValues, resolveSettings, withoutMissingHome } from "../engine/settings.ts";
import { writeAll, writeStdout } from "../util/stdio.ts";
import { osUserHome } from "../util/paths.ts";
import type { RunIo } from "../sandbox/launch.ts";
import { HOSTS, isHost } from "../adapter/host_names.ts";
import type { StrangerFiles } from "../config/fast_path_guard.ts";
import { type Warning, warning } from "../config/warnings.ts";
import { type DispatchIo, type Printed, type Ready, type SandboxNeeded, sandboxNeeded } from "../engine/types.ts";

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

async function dispatchOnce(args: ParsedArgs, io: RunIo): Promise<number | SandboxNeeded> {
  const { handoff } = await import("../daemon/client.ts");
  const client = handoff();
  const printed = await dispatchAnswer(args, {
    stdin: io.stdin,
    strangers: io.strangers,
    warnings: client?.warning ? [warning("W_DAEMON_SOCKET", client.warning, client.home ?? "")] : [],
    daemon: false,
    ...(io.prepared ? { prepared: io.prepared } : {}),
  });
  if (sandboxNeeded(printed)) return printed;
  try {
    if (printed.stdout !== "") await writeStdout(printed.stdout);
  } catch (e) {
    // A host that closed our stdout hears nothing more (adapter mode); the mind protocol says why.
    if (!isHost(args.options.protocol)) throw e;
  }
  if (printed.stderr !== "") await writeAll(Deno.stderr, new TextEncoder().encode(printed.stderr));
  // This event ran in-process: a daemon is started for the next one (SPEC §13 r4), never on this event's path.
  const wanted = client && (client.miss === "absent" || client.miss === "mismatch") && !printed.daemonOff;
  if (wanted && client.home !== null) {
    await (await import("./daemon_command.ts")).startInBackground(client.home, args.options);
  }
  return printed.code;
}

/** How one dispatch gets its event and what it says besides the result. */
export type DispatchWith = {
  stdin: () => Promise<Uint8Array>;
  strangers?: StrangerFiles;
  warnings: readonly Warning[];
  /** Whether the daemon answers (`--explain` says so). */
  daemon: boolean;
  /** The daemon's warm catalogs; absent: loaded for this event. */
  catalog?: DispatchIo["catalog"];
  /** In the sandbox Worker: what the launcher's fast path prepared for this event (see DispatchIo). */
  prepared?: Ready;
};

/** What a front end plugs into the engine, when it has it: the daemon's warm catalogs, the fast path's handoff. */
function pluggedIn(w: DispatchWith): Pick<DispatchIo, "catalog" | "prepared"> {
  return { ...(w.catalog ? { catalog: w.catalog } : {}), ...(w.prepared ? { prepared: w.prepared } : {}) };
}

/**
 * What `dispatch` prints and exits with, for the parsed command line and its stdin: the one body of
 * the in-process command and the daemon. Throws the command's usage errors; on the fast path, having
 * written nothing, answers that the run needs the sandbox Worker.
 */
export async function dispatchAnswer(
  { options, positionals }: ParsedArgs,
  w: DispatchWith,
): Promise<Printed | SandboxNeeded> {
  if (positionals.length) throw new UsageError(`dispatch takes no arguments (got ${JSON.stringify(positionals[0])})`);
  if ((options.explain || options.pretty) && options.protocol !== undefined && options.protocol !== "mind") {
    throw new UsageError(
      `--explain and --pretty are for the mind protocol: the host reads --protocol ${options.protocol}'s output itself`,
    );
  }
  if (isHost(options.protocol)) {
    // Adapter mode: the host's own hook stdin/stdout (src/adapter/), loaded only when asked for.
    const { adapterAnswer } = await import("../adapter/run.ts");
    const event = typeof options.event === "string" ? options.event : undefined;
    const plug = { strangers: w.strangers, warnings: w.warnings, ...pluggedIn(w) };
    return await adapterAnswer(options.protocol, w.stdin, fromCliValues(options), event, plug);
  }
  if (options.protocol !== undefined && options.protocol !== "mind") {
    throw new UsageError(
      `--protocol ${options.protocol} is not supported (mind, ${HOSTS.join(", ")})`,
    );
  }
  if (options.event !== undefined) {
    throw new UsageError(`--event names a host's event: it goes with --protocol ${HOSTS.join("|")}`);
  }
  const parsed = parseEventText(new TextDecoder().decode(await w.stdin()));
  if (!parsed.ok) throw new UsageError(parsed.error);
  const engineOptions = fromCliValues(options);
  const settings = await withoutMissingHome(
    resolveSettings(engineOptions, Deno.env.toObject(), Deno.cwd()),
    engineOptions.home,
  );
  // --explain: the engine keeps a trace (and loads its module) only when asked.
  const explain = options.explain === true;
  const io = { explain, strangers: w.strangers, warnings: w.warnings, ...pluggedIn(w) };
  const outcome = await engineDispatch(parsed.value, settings, io);
  if (!outcome.ok && outcome.sandbox) return outcome.sandbox;
  if (!outcome.ok) throw new UsageError(outcome.error);
  const { result, trace, times } = outcome;
  const stdout = (options.pretty ? JSON.stringify(result, null, 2) : JSON.stringify(result)) + "\n";
  const off = outcome.catalog?.daemonOff ? { daemonOff: true as const } : {};
  if (!explain || !trace) return { stdout, stderr: "", code: 0, ...off };
  // On stderr, so stdout stays exactly the result.
  const { renderTrace } = await import("./explain.ts");
  return {
    stdout,
    stderr: renderTrace(trace, result, { times, daemon: w.daemon }, osUserHome(settings.env)),
    code: 0,
    ...off,
  };
}
