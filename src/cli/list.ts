/**
 * `mind-hooks list [--json]` (SPEC §14): every hook grouped by layer and file
 * — key, event, matcher, what runs, status, enabled, coverage label — then
 * the project's trust, the coverage note (when a tool hook is listed), and the discovery warnings.
 * `--json` prints the same as one JSON object (see `listData`).
 * @module
 */
import { writeStdout } from "../util/stdio.ts";
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, searchStart } from "../engine/settings.ts";
import { loadCatalog } from "../config/discovery.ts";
import { formatWarning } from "../config/warnings.ts";
import { buildView, type CatalogView, type HookView, listData, unpinnableMark } from "../review/catalog_view.ts";
import { COVERAGE_NOTE, isToolCoverage } from "../review/coverage.ts";
import { terminalLines } from "../util/terminal_text.ts";

/** The text form of the list, safe for a terminal (SPEC §15). */
export function renderList(view: CatalogView): string {
  const out: string[] = [];
  const count = view.hooks.length;
  const trusted = view.hooks.filter((h) => h.status === "trusted").length;
  const managed = view.hooks.filter((h) => h.status === "managed").length;
  const parts = [`${trusted} trusted`];
  if (managed) parts.unshift(`${managed} managed`);
  parts.push(`${view.needReview} need${view.needReview === 1 ? "s" : ""} review`);
  out.push(`${count} hook${count === 1 ? "" : "s"}: ${parts.join(", ")}`);
  // Problems first (SPEC §6, §14): what lost hooks, then the project, then what needs review.
  for (const p of view.problems) out.push(`problem: ${p}`);
  if (view.project) {
    const root = view.project.root;
    out.push(
      view.project.trusted
        ? `project ${root}: trusted`
        : view.project.trustCommand === null
        ? `project ${root}: NOT trusted — its hooks are not loaded`
        : `project ${root}: NOT trusted — its .mind/ hooks are not loaded; to trust it run: ${view.project.trustCommand}`,
    );
  }
  if (!view.hooksEnabled) out.push("hooks are turned off ([features] hooks = false): no hook runs");
  if (view.managedOnly) out.push("managed policy (allow_managed_hooks_only): only managed hooks are loaded");
  if (view.bypassTrust) out.push("--dangerously-bypass-hook-trust: every enabled hook would run, trusted or not");
  if (view.needReview > 0 && view.trustStore === null) {
    out.push("review them with: mind-hooks review (or mind-hooks trust KEY...)");
  }
  for (const g of view.groups) {
    out.push(
      "",
      `${g.layer}  ${g.file ?? g.source}${g.hooks[0].plugin ? `  (plugin ${g.hooks[0].plugin})` : ""}`,
    );
    for (const h of g.hooks) {
      const run = (h.handler.handler.type === "command" ? `command: ${h.summary}` : h.summary) +
        (h.name === null ? "" : `  name: ${JSON.stringify(h.name)}`);
      out.push(`  ${h.key}`);
      out.push(
        `    ${h.event}  matcher: ${h.matcher === null ? "(all)" : JSON.stringify(h.matcher)}  ${run}`,
      );
      const why = h.status === "modified" && h.modifiedReason !== "modified" ? ` (${h.modifiedReason})` : "";
      out.push(
        `    status: ${h.status}${why}  enabled: ${h.enabled ? "yes" : "no"}  coverage: ${h.coverage}${
          h.line !== null ? `  line: ${h.line}` : ""
        }`,
      );
      out.push(...pinLines(h));
    }
  }
  if (count === 0) out.push("", "no hooks configured");
  // The note is about tool hooks: said only where there is one.
  if (view.hooks.some((h) => isToolCoverage(h.coverage))) out.push("", `Note: ${COVERAGE_NOTE}`);
  if (view.warnings.length) {
    out.push("", `Warnings (${view.warnings.length}):`);
    for (const w of view.warnings) out.push(`  ${formatWarning(w)}`);
  }
  // Each entry is one line; every one is sanitised as a whole, so a value holding a line break or an
  // escape sequence shows it escaped and can never forge a line.
  return terminalLines(out) + "\n";
}

/** The lines about a hook's pinned files and network use (SPEC §3.5, §14). */
export function pinLines(h: HookView): string[] {
  const out: string[] = [];
  const p = h.pinned;
  if (p?.error) out.push(`    cannot pin its files (so it cannot be trusted): ${p.error}`);
  else if (p && p.files.length > 0) {
    const label = p.unrecorded
      ? "not pinned yet (trusted before mind-hooks pinned files)"
      : p.files.every((f) => f.state === "unpinned")
      ? "a trust pins"
      : "pinned";
    const shown = p.files.map((f) =>
      f.state === "pinned" || f.state === "unpinned" ? f.path : `${f.path} (${f.state})`
    );
    out.push(`    ${label}: ${shown.join(", ")}`);
  }
  if (p?.unpinnable) out.push(`    ${unpinnableMark(p.unpinnable)}`);
  if (h.fetch !== null) out.push(`    network: it fetches at run time (${h.fetch}); what it fetches is not pinned`);
  return out;
}

/** Runs the command. */
export async function listCommand({ options, positionals }: ParsedArgs): Promise<number> {
  if (positionals.length) throw new UsageError(`list takes no arguments (got ${JSON.stringify(positionals[0])})`);
  const settings = cliSettings(options);
  const catalog = await loadCatalog(configOptionsOf(settings, searchStart(settings)));
  if ("error" in catalog) throw new UsageError(catalog.error);
  const view = await buildView(catalog);
  const text = options.json ? JSON.stringify(listData(view), null, 2) + "\n" : renderList(view);
  await writeStdout(text);
  return 0;
}
