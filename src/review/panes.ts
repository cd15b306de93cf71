/**
 * The review screen's texts beside the hook list: the help overlay (every key), a hook's details
 * (definition, status, hashes, pinned files, last run, warnings), a change group's details (one diff
 * for its hooks, then the hooks), the warnings, the empty state (where hooks go, or what an
 * untrusted project holds and the one key that loads it), and the rows of what a file's warnings
 * dropped. Pure functions of the app state to rows; `render.ts` places them. Paths show relative to
 * the project root or with `~`, keys as their tails, times as local time and age (SPEC §14 r3).
 * @module
 */
import { formatWarning, type Warning } from "../config/warnings.ts";
import type { LogRecord } from "../log/observation.ts";
import type { ReviewApp } from "./app.ts";
import { type HookView, hostRunsText } from "./catalog_view.ts";
import type { ChangeGroup } from "./change_groups.ts";
import { field, type Row, text } from "./rows.ts";
import { join } from "../util/paths.ts";
import { handlerModule } from "../config/handler_types/registry.ts";
import { COVERAGE_TEXT } from "./coverage.ts";
import { changeRows, pinnedRows } from "./pins_view.ts";
import { contentFiles, contentRows } from "./pin_contents.ts";
import { peoplePath, timeAndAge } from "./display.ts";
import { STATUS_STYLE } from "./list_pane.ts";
import type { RowKit } from "./confirm.ts";

/** Every key of the review, for the help overlay: what to press, what it does (`trust`: it writes trust). */
export const KEYS: readonly [string, string, "trust"?][] = [
  ["↑/↓ j/k g/G", "the previous / next entry; g / G the first / last"],
  ["/", "search commands, keys and files; / then Enter: the next match"],
  ["n", "the next hook (or change group) that needs review"],
  ["Enter ← →", "open / close a change group (the hooks a file change modified)"],
  ["PgUp/PgDn", "page the details; Home / End their top / end; [ ] one line"],
  ["t / u", "trust the selected hook or group (it asks first) / untrust it", "trust"],
  ["e / d / z", "enable / disable (trust kept) / undo the last d, e or u", "trust"],
  ["A", "trust every hook that needs review (it asks first)", "trust"],
  ["p", "trust or untrust the project (its .mind/, .claude/, .codex/)", "trust"],
  ["w", "the warnings; w or Esc returns to the hook"],
  ["r / Ctrl-L", "reload everything; replay a hook awaiting trust / repaint"],
  ["? / h / F1", "this help; Esc, q or any other key closes it"],
  ["q / Ctrl-D", "quit (Ctrl-C: quit with status 130)"],
];

/**
 * The help overlay: it fits an 80×24 terminal. With the trust store unreadable (`store` is its
 * problem), the keys that write trust are left out and the fix is said instead (SPEC §6).
 */
export function helpRows(width: number, store: string | null = null): Row[] {
  const rows: Row[] = [[{ text: "Keys", styles: ["bold"] }]];
  const keys = KEYS.filter(([, , kind]) => store === null || kind !== "trust");
  const keyWidth = Math.max(...keys.map(([k]) => k.length)) + 2;
  for (const [k, what] of keys) {
    for (const [i, line] of text(what, Math.max(10, width - keyWidth - 2)).entries()) {
      rows.push([{ text: `  ${(i === 0 ? k : "").padEnd(keyWidth)}`, styles: ["bold"] }, ...line]);
    }
  }
  if (store !== null) rows.push(...text(`No key writes trust until the file is fixed: ${store}`, width, ["red"]));
  rows.push(
    [],
    ...text(
      "In the list: ! a warning is about the hook (its details say which); ✗ something its file defines was dropped",
      width,
    ),
  );
  return rows;
}

/** The details pane when no hook is loaded: what an untrusted project holds, else where hooks go. */
export function emptyRows(app: ReviewApp, width: number): Row[] {
  const home = app.catalog.home;
  const p = app.view.project;
  const canTrust = app.view.trustStoreProblem === null;
  if (p && !p.trusted && p.waiting > 0) {
    // SPEC §14 r3: an untrusted project with hooks never reads as "no hooks".
    const rows: Row[] = [
      ...text(`No hook is loaded: the project ${p.shown} is not trusted.`, width, ["bold"]),
      ...text(`It holds ${p.waiting} hook${p.waiting === 1 ? "" : "s"}, none of them loaded or run:`, width),
    ];
    for (const l of p.layers) {
      const files = l.files.map((f) => peoplePath(f, app.view.paths)).join(", ");
      rows.push(
        ...text(
          `  ${`${l.folder}/`.padEnd(9)}${String(l.hooks).padStart(4)} hook${l.hooks === 1 ? "" : "s"}  (${files})`,
          width,
          [],
          "      ",
        ),
      );
    }
    rows.push([]);
    rows.push(
      ...(canTrust
        ? text(
          "Press p to trust the project: its hooks then show here, each untrusted until you trust it (t, or A for all) — nothing runs before that.",
          width,
        )
        : text("The trust store cannot be read (above): fix that file first.", width, ["red"])),
    );
    return rows;
  }
  const repo = p ? join(p.root, ".mind", "hooks.json") : "<repository>/.mind/hooks.json";
  const shown = (path: string) => peoplePath(path, app.view.paths);
  const rows: Row[] = [
    ...text("No hooks are configured.", width, ["bold"]),
    [],
    ...text("Hooks go in a hooks.json (or under [hooks] in a config.toml):", width),
    ...text(`  ${shown(join(home, "hooks.json"))}  yours, in every project`, width, [], "    "),
    ...text(
      `  ${p ? shown(repo) : repo}  a repository's${canTrust ? " (p trusts the project)" : ""}`,
      width,
      [],
      "    ",
    ),
    [],
    ...text(`For example, ${shown(join(home, "hooks.json"))}:`, width),
    ...[
      '  {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [',
      '    {"type": "command", "command": "python3 ~/.mind/check_tool.py"}]}]}}',
    ].map((line): Row => [{ text: line, styles: ["cyan"] }]),
    [],
    ...text(canTrust ? "Then press r to reload, and t to trust it." : "Then press r to reload.", width),
  ];
  // No trust advice while the trust store cannot be read (SPEC §6): only the fix of the file.
  if (p && !p.trusted && canTrust) {
    rows.push(
      [],
      ...text(`The project ${p.shown} is not trusted, so its hooks are not loaded: press p to trust it.`, width),
    );
  }
  return rows;
}

/** A run record in one line: `failed in 12 ms, 2026-12-01 18:38 (3 min ago): exit 1`. */
export function runText(r: LogRecord & { kind: "run" }, now: number): string {
  const ms = r.duration_ms === null ? "" : ` in ${r.duration_ms} ms`;
  return `${r.status}${ms}, ${timeAndAge(r.timestamp, now)}${r.reason !== null ? `: ${r.reason}` : ""}`;
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

const STATUS_TEXT: Record<string, string> = {
  managed: "from the managed requirements.toml: always trusted and enabled; read-only here",
  trusted: "the stored trusted hash equals the current hash, and its pinned files are unchanged",
  modified: "changed since it was trusted: it does not run until you trust it again",
  untrusted: "never trusted: it does not run until you trust it",
};

/** The details pane for one hook: what changed first (a modified one), then its definition and state. */
export function hookDetails(app: ReviewApp, h: HookView, width: number, kit: RowKit = { field, text }): Row[] {
  const d = h.handler.handler;
  const rows: Row[] = [];
  rows.push(...field("Key", h.tail, width));
  rows.push(...field("File", h.place, width));
  rows.push(...field("Layer", h.plugin ? `${h.layer} (plugin ${h.plugin})` : h.layer, width));
  // Its own host runs it whatever its status here (SPEC §2.8): said at the top, before the status.
  if (h.hostRuns !== null) rows.push(...field("Runs", hostRunsText(h.hostRuns), width, ["yellow", "bold"]));
  rows.push(...field("Event", h.event, width));
  rows.push(...field("Matcher", h.matcher === null ? "(none: matches everything)" : JSON.stringify(h.matcher), width));
  if (h.name !== null) rows.push(...field("Name", `${h.name}  (its own label; what runs is the command)`, width));
  rows.push(...field("Type", d.type, width));
  for (const [label, value, bold] of handlerModule(d).details(d)) {
    rows.push(...field(label, value, width, bold ? ["bold"] : []));
  }
  // What review warns about for this type (SPEC §2.2 r4: where an http hook sends each event).
  for (const w of handlerModule(d).reviewWarnings(d)) rows.push(...field("Warning", `⚠ ${w}`, width, ["bold"]));
  if (d.statusMessage !== undefined) rows.push(...field("Message", d.statusMessage, width));
  rows.push([]);
  // The key that fixes it is named only when it can be pressed (SPEC §6).
  const advice = app.canWriteTrust && (h.status === "modified" || h.status === "untrusted") ? " (t)" : "";
  rows.push(
    ...field("Status", `${h.status} — ${STATUS_TEXT[h.status]}${advice}`, width, [STATUS_STYLE[h.status], "bold"]),
  );
  const off = app.canWriteTrust ? "no — disabled: it does not run (e enables it)" : "no — disabled: it does not run";
  rows.push(
    ...field(
      "Enabled",
      h.layer === "managed" ? "yes (managed)" : h.enabled ? "yes" : off,
      width,
      h.enabled ? [] : ["yellow"],
    ),
  );
  rows.push(...field("Coverage", `${h.coverage} — ${COVERAGE_TEXT[h.coverage]}`, width));
  rows.push(...field("Hash", h.hash, width));
  rows.push(...field("Trusted", h.layer === "managed" ? "(managed: no state)" : h.trustedHash ?? "(none)", width));
  rows.push(...pinnedRows(h, width, kit));
  rows.push(...hookExtraRows(app, h, width));
  // Before it is trusted: what its pinned files say, not only their names (SPEC §14); last, as the
  // longest part (PgDn / End reach it).
  const shown = contentFiles(h);
  if (shown.length > 0) {
    rows.push([], ...kit.text("What its pinned files hold (PgDn pages):", width, ["bold"]));
    rows.push(...contentRows(app.pinnedTexts, h.handler.pins!.scope.root, shown, width, kit));
  }
  // A modified hook's details open at the change (SPEC §14): what changed first, then the rest.
  const change = changeRows(app, h, width, kit);
  return change.length > 0 ? [...change, [], ...rows] : rows;
}

/** The details pane for a change group: the change once (one diff), then the hooks it modified. */
export function groupDetails(app: ReviewApp, g: ChangeGroup, width: number, kit: RowKit = { field, text }): Row[] {
  const hooks = g.keys.map((k) => app.view.hooks.find((h) => h.key === k)).filter((h) => h !== undefined);
  const rows: Row[] = [
    ...text(g.label, width, ["red", "bold"]),
    ...text(
      `These ${hooks.length} hooks are the ones you trusted; the only change is in the file${
        g.files.length === 1 ? "" : "s"
      } they pin. ${app.canWriteTrust ? `t re-trusts all ${hooks.length} (it asks first); ` : ""}Enter lists them.`,
      width,
    ),
  ];
  // The change is the same for every hook of the group: the first one's diff is everybody's.
  if (hooks.length > 0) rows.push(...changeRows(app, hooks[0], width, kit, false));
  rows.push([], [{ text: `The ${hooks.length} hooks:`, styles: ["bold"] }]);
  const eventWidth = Math.max(...hooks.map((h) => h.event.length));
  const matcherWidth = Math.min(16, Math.max(...hooks.map((h) => (h.matcher ?? "*").length)));
  for (const h of hooks) {
    const matcher = (h.matcher ?? "*").padEnd(matcherWidth);
    rows.push(...text(`  ${h.event.padEnd(eventWidth)}  ${matcher}  ${h.summary}`, width, [], "      "));
  }
  return rows;
}

/** The warnings view (w). */
export function warningDetails(app: ReviewApp, width: number): Row[] {
  const rows: Row[] = [[{ text: `Warnings (${app.view.warnings.length})`, styles: ["bold"] }]];
  if (app.view.warnings.length === 0) rows.push(...text("No discovery warnings.", width));
  for (const w of app.view.warnings) rows.push(...text(formatWarning(w), width, [], "    "));
  rows.push([], ...text("w or Esc returns to the selected hook.", width, ["dim"]));
  return rows;
}
