/**
 * The trace of one dispatch, for `dispatch --explain` (issue 16): why each hook of the event ran or
 * not. It is data — the layers and files read, then one record per handler of the event (matched or
 * not) with its matcher result, trust status, run outcome, duration and how its output was read —
 * built by the pipeline as it goes (through a {@link TraceSink}) and rendered by the CLI
 * (src/cli/explain.ts). A dispatch that was not asked for a trace gets none and pays nothing: every
 * call site is `d.trace?.…`, and this module is loaded only for a trace.
 * @module
 */
import type { EventName } from "../events/names.ts";
import type { EventModule, HandlerEffect, HandlerOutcome } from "../events/types.ts";
import type { AnyCatalog, HookHandler } from "../config/discovery.ts";
import type { Layer } from "../schema/handler.ts";
import { definitionStatusOf, type TrustStatus } from "../trust/verdict.ts";
import type { RawCompletion } from "../runner/types.ts";
import { oneLine } from "../util/terminal_text.ts";
import { dirname, isInside, join, realPathOr } from "../util/paths.ts";
import type { EngineSettings } from "./settings.ts";

/** What the matcher said about one handler. */
export type MatchTrace =
  | "no matcher (the event has none)"
  | "matches every call"
  | "matched"
  | "not matched"
  | `counted as matched: ${string}`
  | `${"no matcher (the event has none)" | "matches every call" | "matched"}; its if rule ${string} did not match`;

/** One handler of the event, as the dispatch met it. */
export type HandlerTrace = {
  key: string;
  name: string | null;
  layer: Layer;
  /** The matcher as written, or null. */
  matcher: string | null;
  match: MatchTrace;
  status: TrustStatus;
  enabled: boolean;
  /** Why it did not run although it matched (`untrusted`, `disabled`, …), or null. */
  skipped: string | null;
  /** The run's status (`completed`, `blocked`, `failed`, `started`), or null when it did not run. */
  outcome: string | null;
  durationMs: number | null;
  exitCode: number | null;
  /** How its output was read, in words (`JSON: deny "rm -rf is not allowed"`), or null. */
  reading: string | null;
};

/** One configuration file the dispatch read, looked for, or left unread (an untrusted project's). */
export type FileTrace = { layer: Layer | null; path: string; state: "read" | "absent" | "not read"; hooks: number };

/** The whole trace of one dispatch. */
export type DispatchTrace = {
  event: EventName | null;
  /** The names the matchers were tested against (a tool and its aliases, or a field), null when none. */
  subjects: string[] | null;
  files: FileTrace[];
  project: { root: string; trusted: boolean } | null;
  hooksEnabled: boolean;
  managedOnly: boolean;
  bypassTrust: boolean;
  handlers: HandlerTrace[];
  /** A refusal before any hook could see the event (nesting past the bound), or null. */
  refused: string | null;
};

/** An empty trace, filled in as the dispatch goes. */
export function newTrace(): DispatchTrace {
  return {
    event: null,
    subjects: null,
    files: [],
    project: null,
    hooksEnabled: true,
    managedOnly: false,
    bypassTrust: false,
    handlers: [],
    refused: null,
  };
}

/**
 * What the stages call as they go (`d.trace?.…`). Modules on the dispatch path import this
 * type only, so a dispatch without `--explain` never even loads this module.
 */
export type TraceSink = {
  /** The catalog was loaded: its facts, and one not-yet-matched record per handler of `event`. */
  catalog(catalog: AnyCatalog, event: EventName): void;
  /** The names matchers are tested against. */
  subjects(subjects: string[] | null): void;
  /** What the matcher said about `h`. */
  match(h: HookHandler, match: MatchTrace): void;
  /** `h` matched and did not run: its trust status once its pins were checked, and why. */
  skip(h: HookHandler, status: TrustStatus, reason: string): void;
  /** `h` was started in the background (async). */
  started(h: HookHandler, status: TrustStatus): void;
  /** `h` ran: its raw completion (null when the engine failed on it) and how it was read. */
  run(
    h: HookHandler,
    status: TrustStatus,
    module: EventModule,
    raw: RawCompletion | null,
    outcome: HandlerOutcome,
    ms: number | null,
  ): void;
};

/** A sink that fills `trace` (the engine's own: it is returned with the outcome). */
export function traceSink(trace: DispatchTrace): TraceSink {
  // A trace `prepare` began is continued by `execute` through a sink of its own.
  const byKey = new Map<string, HandlerTrace>(trace.handlers.map((t) => [t.key, t]));
  return {
    catalog(catalog, event) {
      trace.event = event;
      trace.project = catalog.project ? { root: catalog.project.root, trusted: catalog.project.trusted } : null;
      trace.hooksEnabled = catalog.hooksEnabled;
      trace.managedOnly = catalog.managedOnly;
      trace.bypassTrust = catalog.bypassTrust;
      trace.handlers = catalog.handlers.filter((h) => h.event === event).map((h) => {
        const t: HandlerTrace = {
          key: h.key,
          name: h.name ?? null,
          layer: h.layer,
          matcher: h.matcher,
          match: "not matched",
          // The definition's trust; a matched hook's pinned files are checked later (skip, run).
          status: definitionStatusOf(h),
          enabled: h.enabled,
          skipped: null,
          outcome: null,
          durationMs: null,
          exitCode: null,
          reading: null,
        };
        byKey.set(h.key, t);
        return t;
      });
    },
    subjects(subjects) {
      trace.subjects = subjects;
    },
    match(h, match) {
      const t = byKey.get(h.key);
      if (t) t.match = match;
    },
    skip(h, status, reason) {
      const t = byKey.get(h.key);
      if (t) [t.status, t.skipped] = [status, reason];
    },
    started(h, status) {
      const t = byKey.get(h.key);
      if (t) t.status = status;
      if (t) [t.outcome, t.reading] = ["started", "async: runs in the background; its output comes with a later event"];
    },
    run(h, status, module, raw, outcome, ms) {
      const t = byKey.get(h.key);
      if (!t) return;
      t.status = status;
      t.outcome = outcome.status;
      t.durationMs = ms;
      t.exitCode = raw?.exitCode ?? null;
      t.reading = raw !== null ? readingOf(module, raw, outcome) : outcome.status === "failed" ? outcome.reason : null;
    },
  };
}

/** Quoted, one line, short: a hook's text inside a trace line. */
function quote(text: string, max = 60): string {
  return JSON.stringify(oneLine(text, max));
}

/** The effect of a completed handler in a few words (a tool call is denied, anything else blocked). */
function effectWords(module: EventModule, effect: HandlerEffect): string {
  const parts: string[] = [];
  const denies = module.control === "tool-permission" || module.control === "permission-request";
  if (effect.blockReason !== undefined) parts.push(`${denies ? "deny" : "block"} ${quote(effect.blockReason)}`);
  if (effect.ask !== undefined) parts.push(`ask ${quote(effect.ask)}`);
  if (effect.allow) parts.push("allow");
  if (effect.updatedInput !== undefined) parts.push("rewrites the input");
  if (effect.stop) parts.push(`stop${effect.stopReason !== undefined ? ` ${quote(effect.stopReason)}` : ""}`);
  if (effect.stopFeedback !== undefined) parts.push(`feedback ${quote(effect.stopFeedback)}`);
  if (effect.additionalContext !== undefined) parts.push(`context (${effect.additionalContext.length} characters)`);
  if (effect.systemMessage !== undefined) parts.push(`message ${quote(effect.systemMessage)}`);
  return parts.length ? parts.join(", ") : "no decision";
}

/** How one completion was read (SPEC §8), in words: what the engine looked at and what it took from it. */
export function readingOf(module: EventModule, raw: RawCompletion, outcome: HandlerOutcome): string {
  // A prompt hook: the model's answer as it came, then how it was read (SPEC §2.2 r4).
  if (raw.answer !== undefined) {
    return `model answered ${quote(raw.answer, 300)}; ${readingOf(module, { ...raw, answer: undefined }, outcome)}`;
  }
  if (raw.spawnError !== null || raw.failure !== undefined || raw.timedOut || raw.exitCode === null) {
    return outcome.status === "failed" ? outcome.reason : "did not end normally";
  }
  if (raw.exitCode !== 0) {
    if (outcome.status === "blocked") {
      return `exit ${raw.exitCode}: stderr read as the reason ${quote(raw.stderr.trim())}`;
    }
    return outcome.status === "failed" ? outcome.reason : `exit ${raw.exitCode}`;
  }
  const out = raw.stdout.trim();
  if (out === "") return "exit 0, no output: no decision";
  const json = out[0] === "{" || out[0] === "[";
  if (outcome.status === "failed") return `exit 0, ${json ? "JSON" : "plain text"}: ${outcome.reason}`;
  if (json) return `exit 0, JSON: ${effectWords(module, outcome.effect)}`;
  return module.plainStdout === "context"
    ? `exit 0, plain text read as context (${outcome.effect.additionalContext?.length ?? 0} characters)`
    : "exit 0, plain text ignored";
}

/** The layer a file of `catalog.files` belongs to, from where it is. */
function layerOfFile(path: string, catalog: AnyCatalog, settings: EngineSettings): Layer | null {
  if (path === settings.requirements) return "managed";
  if (settings.hooksFiles.includes(path)) return "cli";
  if (catalog.home !== null) {
    if (isInside(join(catalog.home, "profiles"), path)) return "profile";
    if (isInside(join(catalog.home, "plugins"), path)) return "plugin";
    if (dirname(path) === catalog.home) return "user";
  }
  if (catalog.userHome !== null && dirname(path) === join(catalog.userHome, ".claude")) return "claude-user";
  if (catalog.userHome !== null && dirname(path) === join(catalog.userHome, ".codex")) return "codex-user";
  if (catalog.userHome !== null && dirname(path) === join(catalog.userHome, ".gemini")) return "gemini-user";
  if (catalog.userHome !== null && dirname(path) === join(catalog.userHome, ".copilot", "hooks")) return "copilot-user";
  if (catalog.project && isInside(join(catalog.project.root, ".mind"), path)) return "project";
  // The project's foreign folders, the root's and the nested ones below it (SPEC §2.8 r3).
  const folder = dirname(path);
  if (catalog.project && isInside(catalog.project.root, path)) {
    if (folder.endsWith("/.claude")) return "claude-project";
    if (folder.endsWith("/.codex")) return "codex-project";
    if (folder.endsWith("/.gemini")) return "gemini-project";
    if (folder.endsWith("/.github/hooks")) return "copilot-project";
  }
  return null;
}

/** The files the dispatch read or looked for, each with its layer, whether it is there and its hooks. */
export async function traceFiles(catalog: AnyCatalog, settings: EngineSettings): Promise<FileTrace[]> {
  const out: FileTrace[] = [];
  for (const path of new Set(catalog.files)) {
    let present = false;
    try {
      const info = await Deno.stat(path);
      // A watched folder (Copilot's .github/hooks/, Gemini's extensions) is not a file of the trace.
      if (info.isDirectory) continue;
      present = info.isFile;
    } catch {
      // absent, or not readable here: said as absent
    }
    const real = await realPathOr(path);
    const hooks = catalog.handlers.filter((h) => h.sourcePath === real || h.sourcePath.startsWith(`${real}#`));
    const layer = layerOfFile(path, catalog, settings) ?? hooks[0]?.layer ?? null;
    // An untrusted project's files are not read at all (SPEC §2.3); discovery still names them.
    const unread = layer !== null && (layer === "project" || layer.endsWith("-project")) &&
      catalog.project !== null && !catalog.project.trusted;
    out.push({ layer, path, state: !present ? "absent" : unread ? "not read" : "read", hooks: hooks.length });
  }
  if (catalog.handlers.some((h) => h.sourcePath === "cli-override")) {
    out.push({
      layer: "cli",
      path: "-c overrides",
      state: "read",
      hooks: catalog.handlers.filter((h) => h.sourcePath === "cli-override").length,
    });
  }
  return out;
}
