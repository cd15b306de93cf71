/**
 * The review screen's texts beside the hook list and the definition: the help overlay (every key),
 * the empty state (where hooks go and how to add one), a hook's warnings and last run (from the
 * observation log), and the rows of what a file's warnings dropped. Pure functions of the app
 * state to rows; `render.ts` places them.
 * @module
 */
import type { Warning } from "../config/warnings.ts";
import type { LogRecord } from "../log/observation.ts";
import type { ReviewApp } from "./app.ts";
import type { HookView } from "./catalog_view.ts";
import { field, type Row, text } from "./rows.ts";
import { join } from "../util/paths.ts";

/** Every key of the review, for the help overlay: what to press, what it does. */
export const KEYS: readonly [string, string][] = [
  ["up/down, j/k", "select the previous / next hook"],
  ["g / G", "the first / last hook"],
  ["PgUp / PgDn", "page through the details"],
  ["Home / End", "the top / end of the details"],
  ["[ / ]", "scroll the details one line"],
  ["t / u", "trust the selected hook (its current content runs from now on) / untrust it"],
  ["e / d", "enable / disable it (a disabled hook keeps its trust)"],
  ["A", "trust every hook that needs review"],
  ["p", "trust or untrust the project (its .mind/ hooks)"],
  ["w", "the warnings; w or Esc returns to the hook"],
  ["r / Ctrl-L", "reload everything from disk / repaint the screen"],
  ["? / h / F1", "this help; Esc, q or any other key closes it"],
  ["q / Ctrl-D", "quit (Ctrl-C: quit with status 130)"],
];

/** The help overlay: it fits an 80×24 terminal. */
export function helpRows(width: number): Row[] {
  const rows: Row[] = [[{ text: "Keys", styles: ["bold"] }]];
  const keyWidth = Math.max(...KEYS.map(([k]) => k.length)) + 2;
  for (const [k, what] of KEYS) {
    for (const [i, line] of text(what, Math.max(10, width - keyWidth - 2)).entries()) {
      rows.push([{ text: `  ${(i === 0 ? k : "").padEnd(keyWidth)}`, styles: ["bold"] }, ...line]);
    }
  }
  rows.push(
    [],
    ...text(
      "In the list: ! a warning is about the hook (its details say which); ✗ something its file defines was dropped",
      width,
    ),
  );
  return rows;
}

/** The details pane when no hook is configured: where hooks go, and how to add one. */
export function emptyRows(app: ReviewApp, width: number): Row[] {
  const home = app.catalog.home;
  const p = app.view.project;
  const repo = p ? join(p.root, ".mind", "hooks.json") : "<repository>/.mind/hooks.json";
  const rows: Row[] = [
    ...text("No hooks are configured.", width, ["bold"]),
    [],
    ...text("Hooks go in a hooks.json (or under [hooks] in a config.toml):", width),
    ...text(`  ${join(home, "hooks.json")}  yours, in every project`, width, [], "    "),
    ...text(`  ${repo}  a repository's (p trusts the project)`, width, [], "    "),
    [],
    ...text(`For example, ${join(home, "hooks.json")}:`, width),
    ...[
      '  {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [',
      '    {"type": "command", "command": "python3 ~/.mind/check_tool.py"}]}]}}',
    ].map((line): Row => [{ text: line, styles: ["cyan"] }]),
    [],
    ...text("Then press r to reload, and t to trust it.", width),
  ];
  // No trust advice while the trust store cannot be read (SPEC §6): only the fix of the file.
  if (p && !p.trusted && app.view.trustStore === null) {
    rows.push(
      [],
      ...text(`The project ${p.root} is not trusted, so its .mind/ hooks are not loaded: press p to trust it.`, width),
    );
  }
  return rows;
}

/** `5 s ago`, `3 min ago`, `2 h ago`, `4 d ago`. */
export function ago(timestamp: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(timestamp)) / 1000));
  if (Number.isNaN(s)) return "at an unknown time";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

/** A run record in one line: `failed in 12 ms, 3 min ago (2026-…Z): exit 1`. */
export function runText(r: LogRecord & { kind: "run" }, now: number): string {
  const ms = r.duration_ms === null ? "" : ` in ${r.duration_ms} ms`;
  return `${r.status}${ms}, ${ago(r.timestamp, now)} (${r.timestamp})${r.reason !== null ? `: ${r.reason}` : ""}`;
}

/** A hook's warnings and last run, for its details. */
export function hookExtraRows(app: ReviewApp, h: HookView, width: number, now = Date.now()): Row[] {
  const rows: Row[] = [];
  const last = app.lastRuns.get(h.key);
  rows.push(
    ...field(
      "Last run",
      last?.kind === "run" ? runText(last, now) : "none logged (logs/hooks.jsonl; mind-hooks logs)",
      width,
      last?.kind === "run" && last.status === "failed" ? ["red"] : [],
    ),
  );
  for (const [i, w] of h.warnings.entries()) {
    const at = w.line !== undefined ? `line ${w.line}: ` : "";
    rows.push(...field(i === 0 ? "Warnings" : "", `! ${w.code} ${at}${w.message}`, width, ["yellow"]));
  }
  return rows;
}

/** The list row of something a file's warning dropped. */
export function droppedRow(w: Warning): Row {
  const at = w.line !== undefined ? `line ${w.line}: ` : "";
  return [{ text: `  ✗ dropped  ${at}${w.message}`, styles: ["red"] }];
}
