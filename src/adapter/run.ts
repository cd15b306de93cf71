/**
 * `mind-hooks dispatch --protocol claude|codex|gemini|copilot`: reads the host's own hook stdin, dispatches it
 * as a mind event, and answers in the host's own hook stdout format, so the command can be registered as an
 * ordinary hook of Claude Code, Codex, Gemini CLI or Copilot CLI.
 *
 * Hooks never take the agent down: when mind-hooks itself fails (unparseable stdin, an input it cannot
 * map, a configuration it cannot load, an internal error) it answers nothing, exits 0 so the host's action
 * proceeds, and says why in one stderr line.
 * @module
 */
import { parseEventText } from "../engine/input.ts";
import { engineDispatch } from "../engine/dispatch.ts";
import { type EngineOptions, resolveSettings, withoutMissingHome } from "../engine/settings.ts";
import { ADAPTERS, type Host, HOST_DISPLAY_NAMES } from "./hosts.ts";
import type { DispatchIo, EventInput, Printed, SandboxNeeded } from "../engine/types.ts";
import type { AnyCatalog } from "../config/discovery.ts";
import type { JsonObject } from "../util/json.ts";
import { messageLine, sanitize, terminalLines } from "../util/terminal_text.ts";
import { EVENTS } from "../events/registry.ts";

/**
 * The outcome of one adapted dispatch, before it is written (exposed for tests and the benchmark):
 * `warning` is text the host shows only from the stderr of a hook that exits 2 (see `warningExit`).
 */
export type AdapterOutcome = {
  stdout: JsonObject | null;
  problem: string | null;
  warning?: string | null;
  /** On the fast path: the run goes to the sandbox Worker, with what was prepared (nothing was answered). */
  sandbox?: SandboxNeeded;
  /** The configuration switched the daemon off (`[hooks] daemon = false`). */
  daemonOff?: true;
};

/** What the command line or the daemon plugs into an adapted dispatch (src/engine/types.ts says each). */
export type AdapterPlugs = Pick<DispatchIo, "strangers" | "warnings" | "catalog" | "prepared">;

/**
 * Runs one adapted dispatch on `text` (the host's stdin); `event` is `dispatch --event` (the host's name of
 * an event whose payload carries none); `strangers` is the run's (src/config/fast_path_guard.ts). Never throws.
 */
export async function adaptText(
  host: Host,
  text: string,
  options: EngineOptions,
  event?: string,
  plug: AdapterPlugs = {},
): Promise<AdapterOutcome> {
  try {
    const adapter = ADAPTERS[host];
    const parsed = parseEventText(text);
    if (!parsed.ok) return { stdout: null, problem: parsed.error };
    // The delegating host runs its own project layer itself (SPEC §2.8: no double runs).
    const settings = {
      ...await withoutMissingHome(resolveSettings(options, Deno.env.toObject(), Deno.cwd()), options.home),
      delegatingHost: host,
    };
    const mapped = adapter.mapInput(parsed.value, settings.processCwd, event);
    if (mapped.kind === "error") return { stdout: null, problem: mapped.message };
    if (mapped.kind === "ignore") return { stdout: null, problem: null };
    const outcome = await engineDispatch(mapped.input, settings, {
      // Async output waits for an event on which this host hands context to the model.
      takeAsync: adapter.contextEvents.has(mapped.event) ? undefined : null,
      // Claude Code's own env file reaches SessionStart hooks untouched (SPEC §7.1).
      envFile: host === "claude" ? settings.env.CLAUDE_ENV_FILE || undefined : undefined,
      // Ordered by the messages stage with the others: before a fail-safe's failure line.
      closing: (ev, catalog) => unannounced(host, settings.home, ev, catalog),
      hostFields: mapped.sent,
      ...plug,
    });
    if (!outcome.ok && outcome.sandbox) return { stdout: null, problem: null, sandbox: outcome.sandbox };
    if (!outcome.ok) return { stdout: null, problem: outcome.error };
    const hints = outcome.hostHints;
    return {
      ...(outcome.catalog?.daemonOff ? { daemonOff: true as const } : {}),
      stdout: adapter.mapOutput(outcome.event.event, outcome.result, parsed.value as JsonObject, hints),
      problem: null,
      warning: adapter.warningExit?.(outcome.event.event, outcome.result) ?? null,
    };
  } catch (e) {
    return { stdout: null, problem: `internal error: ${messageLine(e)}` };
  }
}

/**
 * A session start's line naming the trusted hooks this host was never told to delegate (SPEC §6 r3),
 * as the adapter's closing line; none for other events or without a home.
 */
async function unannounced(host: Host, home: string | null, ev: EventInput, catalog: AnyCatalog): Promise<string[]> {
  if (!EVENTS[ev.event].namesSkippedHooks || home === null) return [];
  const { installsInReach, readInstalls, tellsEveryEvent, unannouncedLine } = await import("./installs.ts");
  const recorded = installsInReach((await readInstalls(home)).installs, host, String(ev.input.cwd));
  // The trust of every hook (their pins checked) only when the line may be said.
  if (!tellsEveryEvent(recorded)) return [];
  const { catalogVerdicts } = await import("../config/pinning.ts");
  const verdicts = await catalogVerdicts(catalog);
  const line = unannouncedLine(host, HOST_DISPLAY_NAMES[host], recorded, catalog.handlers, verdicts);
  return line === null ? [] : [line];
}

/**
 * The `dispatch --protocol <host>` command body: what it prints for the host's stdin and its exit code,
 * 0 — or 2 where the host shows a warning only that way and its event cannot block (Copilot CLI's
 * sessionStart: `warningExit`); on the fast path, having written nothing, that the run needs the
 * sandbox Worker. Never throws.
 */
export async function adapterAnswer(
  host: Host,
  stdin: () => Promise<Uint8Array>,
  options: EngineOptions,
  event?: string,
  plug: AdapterPlugs = {},
): Promise<Printed | SandboxNeeded> {
  let text: string;
  try {
    text = new TextDecoder().decode(await stdin());
  } catch (e) {
    const why = `cannot read stdin: ${e instanceof Error ? e.message : String(e)}`;
    return { stdout: "", stderr: reportLine(host, why) + "\n", code: 0 };
  }
  const outcome = await adaptText(host, text, options, event, plug);
  if (outcome.sandbox !== undefined) return outcome.sandbox;
  const stderr: string[] = [];
  if (outcome.problem !== null) stderr.push(reportLine(host, outcome.problem));
  const stdout = outcome.stdout !== null ? JSON.stringify(outcome.stdout) + "\n" : "";
  if (outcome.warning) stderr.push(terminalLines(outcome.warning.split("\n")));
  const off = outcome.daemonOff ? { daemonOff: true as const } : {};
  return { stdout, stderr: stderr.map((l) => l + "\n").join(""), code: outcome.warning ? 2 : 0, ...off };
}

function reportLine(host: Host, problem: string): string {
  const line = problem.replaceAll(/\s*\n\s*/g, " ");
  return sanitize(`mind-hooks: ${line} — no hooks ran; ${HOST_DISPLAY_NAMES[host]} proceeds`);
}
