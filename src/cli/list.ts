/**
 * `mind-hooks list [--json]` (SPEC §14): every hook grouped by layer and file
 * — key, event, matcher, what runs, status, enabled, coverage label, pinned files — after the
 * problems, the project's trust (an untrusted one: what each of its layer folders holds and the
 * command that loads them) and the changes that modified several hooks at once (one line each);
 * then the coverage note (when a hook can meet server-side tools) and the discovery warnings. Paths
 * show relative to the project root or with `~`, keys as their tails (SPEC §14 r3).
 * `--json` prints the same as one JSON object (see `listData`), with absolute paths and full keys.
 * @module
 */
import { writeStdout } from "../util/stdio.ts";
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, homeNamedBy, searchStart } from "../engine/settings.ts";
import { loadCatalog } from "../config/discovery.ts";
import { formatWarning } from "../config/warnings.ts";
import { handlerModule } from "../config/handler_types/registry.ts";
import {
  buildView,
  type CatalogView,
  closureText,
  homeMissingLine,
  type HookView,
  listData,
  unpinnableMark,
} from "../review/catalog_view.ts";
import { COVERAGE_NOTE } from "../review/coverage.ts";
import { capped, terminalLines } from "../util/terminal_text.ts";

/** The longest name `list` shows (in code points, `…` included). */
const NAME_MAX = 60;
import { peoplePath } from "../review/display.ts";
import { duplicateCopies } from "../engine/matching.ts";

/**
 * The text form of the list, safe for a terminal (SPEC §15). `homeNamedBy`: which of `--home` and
 * `MIND_HOME` chose the home (null: the default), for the line of a home that does not exist.
 */
export function renderList(view: CatalogView, homeNamedBy: "--home" | "MIND_HOME" | null = null): string {
  const out: string[] = [];
  const copies = duplicateCopies(view.hooks.map((h) => h.handler));
  const count = view.hooks.length;
  const trusted = view.hooks.filter((h) => h.status === "trusted").length;
  const managed = view.hooks.filter((h) => h.status === "managed").length;
  const parts = [`${trusted} trusted`];
  if (managed) parts.unshift(`${managed} managed`);
  parts.push(`${view.needReview} need${view.needReview === 1 ? "s" : ""} review`);
  out.push(`${count} hook${count === 1 ? "" : "s"}: ${parts.join(", ")}`);
  // Problems first (SPEC §6, §14): what lost hooks, then the project, then what needs review.
  for (const p of view.problems) out.push(`problem: ${p}`);
  if (view.homeMissing) out.push(homeMissingLine(view.home, homeNamedBy));
  out.push(...projectLines(view));
  if (!view.hooksEnabled) out.push("hooks are turned off ([features] hooks = false): no hook runs");
  if (view.managedOnly) out.push("managed policy (allow_managed_hooks_only): only managed hooks are loaded");
  if (view.bypassTrust) out.push("--dangerously-bypass-hook-trust: every enabled hook would run, trusted or not");
  if (view.needReview > 0 && view.trustStoreProblem === null) {
    out.push("review them with: mind-hooks review (or mind-hooks trust KEY...)");
  }
  // One change, one entry (SPEC §14 r3): a file several hooks pin changed.
  if (view.changeGroups.length > 0) {
    out.push("", "changed since trusted (their definitions are unchanged; one review, one trust re-trusts them):");
    for (const g of view.changeGroups) out.push(`  ${g.label}`);
  }
  const inGroup = new Map(view.changeGroups.flatMap((g) => g.keys.map((k) => [k, g] as const)));
  for (const g of view.groups) {
    const file = g.file === null ? g.source : peoplePath(g.file, view.paths);
    out.push("", `${g.layer}  ${file}${g.hooks[0].plugin ? `  (plugin ${g.hooks[0].plugin})` : ""}`);
    const host = g.hooks[0].hostRuns;
    if (host !== null) {
      out.push(`  ${host} runs these itself; each status below applies when mind or another host runs them`);
    }
    for (const h of g.hooks) {
      const run = handlerModule(h.handler.handler).listPrefix + h.summary +
        // A name is a label beside what runs: capped, so a long one never pushes the command out of sight.
        (h.name === null ? "" : `  name: ${JSON.stringify(capped(h.name, NAME_MAX))}`);
      out.push(`  ${h.tail}`);
      out.push(
        `    ${h.event}  matcher: ${h.matcher === null ? "(all)" : JSON.stringify(h.matcher)}  ${run}`,
      );
      const group = inGroup.get(h.key);
      const why = group
        ? ` (${group.label}: see above)`
        : h.status === "modified" && h.modifiedReason !== "modified"
        ? ` (${h.modifiedReason})`
        : "";
      out.push(
        `    status: ${h.status}${why}${
          h.hostRuns !== null ? ` (for mind; ${h.hostRuns} runs it itself)` : ""
        }  enabled: ${h.enabled ? "yes" : "no"}  coverage: ${h.coverage}${h.line !== null ? `  line: ${h.line}` : ""}`,
      );
      const original = copies.get(h.key);
      if (original !== undefined) out.push(`    duplicate of ${original}: an identical Claude hook, run once with it`);
      out.push(...pinLines(h));
    }
  }
  if (count === 0 && (view.project?.waiting ?? 0) === 0) out.push("", "no hooks configured");
  // The note is about hooks that can meet server-side tools: said only where there is one.
  if (view.hooks.some((h) => h.coverage === "server-approval-only")) out.push("", `Note: ${COVERAGE_NOTE}`);
  if (view.warnings.length) {
    out.push("", `Warnings (${view.warnings.length}):`);
    for (const w of view.warnings) out.push(`  ${formatWarning(w)}`);
  }
  // Each entry is one line; every one is sanitised as a whole, so a value holding a line break or an
  // escape sequence shows it escaped and can never forge a line.
  return terminalLines(out) + "\n";
}

/** The project's line: its trust and, for an untrusted one, what it holds and the command that loads it. */
function projectLines(view: CatalogView): string[] {
  const p = view.project;
  if (!p) return [];
  if (p.trusted) return [`project ${p.shown}: trusted`];
  if (p.waiting === 0) {
    return [
      p.trustCommand === null
        ? `project ${p.shown}: NOT trusted — its hooks are not loaded`
        : `project ${p.shown}: NOT trusted — its hooks are not loaded; to trust it run: ${p.trustCommand}`,
    ];
  }
  // SPEC §14 r3: an untrusted project with hooks never reads as "no hooks".
  const folders = p.layers.map((l) =>
    `${l.folder}/ ${l.hooks} hook${l.hooks === 1 ? "" : "s"} (${
      l.files.map((f) => peoplePath(f, view.paths)).join(", ")
    })`
  );
  const lines = [
    `project ${p.shown}: NOT trusted — ${p.waiting} hook${p.waiting === 1 ? "" : "s"} not loaded: ${
      folders.join(", ")
    }`,
  ];
  if (p.trustCommand !== null) lines.push(`  to load them (each still needs your trust to run): ${p.trustCommand}`);
  return lines;
}

/** The lines about a hook's pinned files and network use (SPEC §3.5, §14). */
export function pinLines(h: HookView): string[] {
  const out: string[] = [];
  const p = h.pinned;
  if (p?.error) out.push(`    cannot pin its files (so it cannot be trusted): ${p.error}`);
  else if (p && p.files.length > 0) {
    const unpinned = p.files.every((f) => f.state === "unpinned");
    const label = p.unrecorded
      ? "not pinned yet (trusted before mind-hooks pinned files)"
      : unpinned
      ? "a trust pins"
      : "pinned";
    const changes = p.files.filter((f) => f.state !== "pinned" && f.state !== "unpinned");
    const shared = h.samePins !== null && h.samePins.others > 0 ? h.samePins : null;
    const others = (n: number) => `${n} other${n === 1 ? "" : "s"}`;
    if (shared !== null && !shared.first) {
      // The same set as an earlier hook: counted, not repeated (SPEC §14 r3).
      const what = unpinned ? "files a trust pins" : p.unrecorded ? "files not pinned yet" : "pinned files";
      const changed = changes.length > 0 ? `; ${changes.map((f) => `${f.path} ${f.state}`).join(", ")}` : "";
      out.push(`    ${p.files.length} ${what} (same as ${others(shared.others)})${changed}`);
    } else {
      const shown = p.files.map((f) =>
        f.state === "pinned" || f.state === "unpinned" ? f.path : `${f.path} (${f.state})`
      );
      const count = shared !== null ? ` (${p.files.length} files, the same for ${others(shared.others)})` : "";
      out.push(`    ${label}${count}: ${shown.join(", ")}`);
    }
  }
  const closure = p && !p.error && (h.samePins === null || h.samePins.first) ? closureText(p) : null;
  if (closure !== null) out.push(`    closure: ${closure}`);
  if (p?.unpinnable) out.push(`    ${unpinnableMark(p.unpinnable)}`);
  if (h.fetch !== null) out.push(`    network: it fetches at run time (${h.fetch}); what it fetches is not pinned`);
  // What review warns about for this type (SPEC §2.2 r4: where an http hook sends each event).
  for (const w of handlerModule(h.handler.handler).reviewWarnings(h.handler.handler)) out.push(`    ⚠ ${w}`);
  return out;
}

/** Runs the command. */
export async function listCommand({ options, positionals }: ParsedArgs): Promise<number> {
  if (positionals.length) throw new UsageError(`list takes no arguments (got ${JSON.stringify(positionals[0])})`);
  const settings = cliSettings(options);
  const loaded = await loadCatalog(configOptionsOf(settings, searchStart(settings)));
  if (!loaded.ok) throw new UsageError(loaded.error);
  const catalog = loaded.value;
  const view = await buildView(catalog);
  const text = options.json
    ? JSON.stringify(listData(view), null, 2) + "\n"
    : renderList(view, homeNamedBy(options.home as string | undefined, settings.env));
  await writeStdout(text);
  return 0;
}
