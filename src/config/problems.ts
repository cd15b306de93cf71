/**
 * Configuration problems that lose hooks (SPEC §6, "never silent"): a loaded file that does not
 * parse or cannot be read, a group dropped for its matcher, a handler dropped for a bad field or an
 * empty command — and, above all, a trust store (the user config.toml) that cannot be read, which
 * leaves only managed hooks runnable. Each becomes one line for the user, naming the file, line and
 * column and the fix; `dispatch` puts them in every result's `systemMessages` (at most
 * {@link MAX_PROBLEM_LINES}, then one line with the count), `list` at the top.
 *
 * Informational warnings (an unknown field, an unsupported handler type, …) are not problems: they
 * stay in `warnings` — unless the unknown event or field is a misspelling of a known one (SPEC §2.2 r4,
 * src/config/misspellings.ts). A warning that carries only a value path is placed with the position index,
 * loaded only then: a healthy configuration never loads it.
 * @module
 */
import type { Warning, WarningCode } from "./warnings.ts";
import { TOO_DEEP } from "../util/nesting.ts";
import { NOT_UTF8 } from "../util/utf8.ts";
import { misspelledName, misspellingLine } from "./misspellings.ts";

/** The codes whose warning means a hook was lost (SPEC §6). */
export const PROBLEM_CODES: ReadonlySet<WarningCode> = new Set<WarningCode>([
  "W_PARSE",
  "W_UNREADABLE",
  "W_BAD_MATCHER",
  "W_BAD_GROUP",
  "W_BAD_HANDLER",
  "W_BAD_FIELD",
  "W_EMPTY_COMMAND",
  "W_HTTP_URL_NOT_ALLOWED",
]);

/** At most this many problem lines, then one with the count (SPEC §6). */
export const MAX_PROBLEM_LINES = 5;

/** What the lines are made for. */
export type ProblemContext = {
  /** The user config.toml: its problem is the trust store's. */
  userConfigPath: string | null;
  /** The OS user's home: paths under it are shown as `~/…`. */
  userHome: string | null;
};

/** `path` with the user's home shown as `~`. */
export function displayPath(path: string, home: string | null): string {
  if (home === null || home === "" || home === "/") return path;
  const base = home.replace(/[\\/]+$/, "");
  return path === base ? "~" : path.startsWith(base + "/") ? `~${path.slice(base.length)}` : path;
}

/** The file a warning's source names (an inline plugin manifest entry `<manifest>#<n>` is its manifest). */
function fileOf(source: string): string {
  return source.replace(/#\d+$/, "");
}

/** What a dropped group's or handler's message says, without the "skipped" tail. */
function detail(message: string): string {
  return message.replace(/;\s*(?:group |handler )?skipped$/, "");
}

/** True when a warning's value path is inside a handler (`hooks.<Event>[g].hooks[h]…`), not a setting's. */
function aboutHandler(w: Warning): boolean {
  return w.path !== undefined && w.path.length >= 5;
}

/** True when `w` loses a hook (SPEC §6): a problem code, or a misspelled event or field (SPEC §2.2 r4). */
export function isProblem(w: Warning): boolean {
  return PROBLEM_CODES.has(w.code) || misspelledName(w) !== null;
}

/** The one line of one problem (SPEC §6). */
export function problemLine(w: Warning, ctx: ProblemContext): string {
  const file = displayPath(fileOf(w.source), ctx.userHome);
  const at = w.line !== undefined ? `${w.line}:${w.column ?? 1}` : null;
  const trustStore = w.source === ctx.userConfigPath;
  const meant = misspelledName(w);
  if (meant !== null) return misspellingLine(w, meant, `${file}${at === null ? "" : `:${at}`}`);
  switch (w.code) {
    case "W_PARSE": {
      // A file nested too deep, or not UTF-8, may be valid syntax: its reason says why it is refused.
      const reason = w.message.replace(/^(?:TOML|JSON) does not parse: /, "").replace(/; the file is not loaded$/, "");
      const why = at === null || w.message.includes(TOO_DEEP) || w.message.includes(NOT_UTF8) ? ` (${reason})` : "";
      const where = `does not parse${at === null ? "" : ` at ${at}`}${why}`;
      return trustStore
        ? `${file} ${where}: trust state unreadable, only managed hooks can run — fix the file`
        : `${file} ${where}: its hooks are not loaded — fix the file`;
    }
    case "W_UNREADABLE":
      return trustStore
        ? `${file} cannot be read (${w.message}): trust state unreadable, only managed hooks can run — fix the file`
        : `${file} cannot be read (${w.message}): its hooks are not loaded — fix the file`;
    case "W_BAD_MATCHER":
    case "W_BAD_GROUP":
      return `${file}${at === null ? "" : `:${at}`}: ${detail(w.message)}: its hooks do not run — fix the ${
        w.code === "W_BAD_MATCHER" ? "matcher" : "group"
      }`;
    case "W_BAD_FIELD":
      // A setting, not a hook (`-c features.hooks=maybe`, `[hooks] foreign_layers`): no hook is lost.
      if (!aboutHandler(w)) {
        return w.source === "cli-override"
          ? `-c: ${w.message} — fix the -c value`
          : `${file}${at === null ? "" : `:${at}`}: ${w.message} — fix the setting`;
      }
      return `${file}${at === null ? "" : `:${at}`}: ${detail(w.message)}: the hook does not run — fix the hook`;
    default:
      return `${file}${at === null ? "" : `:${at}`}: ${detail(w.message)}: the hook does not run — fix the hook`;
  }
}

/** The problems among `warnings`, trust store first, each once. */
export function problemsOf(warnings: readonly Warning[], ctx: ProblemContext): Warning[] {
  const problems = warnings.filter(isProblem);
  return [
    ...problems.filter((w) => w.source === ctx.userConfigPath),
    ...problems.filter((w) => w.source !== ctx.userConfigPath),
  ];
}

/**
 * The problem lines of `warnings` (SPEC §6): at most {@link MAX_PROBLEM_LINES}, then one line with
 * the count of the others. Warnings with a value path and no position are placed first (this is
 * the only place a dispatch loads the position index, and only when a file has a problem).
 */
export async function problemLines(warnings: readonly Warning[], ctx: ProblemContext): Promise<string[]> {
  let problems = problemsOf(warnings, ctx);
  if (problems.length === 0) return [];
  if (problems.some((w) => w.line === undefined && w.path !== undefined)) {
    const { PositionIndex } = await import("./positions.ts");
    problems = await new PositionIndex().enrich(problems);
  }
  const lines = [...new Set(problems.map((w) => problemLine(w, ctx)))];
  if (lines.length <= MAX_PROBLEM_LINES) return lines;
  const more = lines.length - MAX_PROBLEM_LINES;
  return [
    ...lines.slice(0, MAX_PROBLEM_LINES),
    `${more} more configuration problem${more === 1 ? "" : "s"}: run mind-hooks list to see them all`,
  ];
}

/** The refusal of a command that would write trust state while the trust store cannot be read (SPEC §6). */
export function trustStoreRefusal(w: Warning, ctx: ProblemContext): string {
  return `${problemLine(w, ctx)}; nothing written`;
}
