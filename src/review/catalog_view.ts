/**
 * The view model shared by `list`, `list --json` and `review`: every hook of
 * the catalog with what a person needs to decide about it (what runs, where it
 * is written, its status, enabled flag and coverage label), grouped by layer
 * and file in configuration order, plus the project's trust and the discovery
 * warnings with line and column found from their value paths.
 *
 * `listData` is the stable JSON shape of `list --json` (and a natural answer
 * for `serve`'s `hooks/list`).
 * @module
 */
import { duplicateCopies } from "../engine/matching.ts";
import type { Catalog, HookHandler, ProjectInfo } from "../config/discovery.ts";
import { assessTrust, type TrustStatus, type TrustVerdict } from "../trust/verdict.ts";
import { DROPPING_CODES, type Warning } from "../config/warnings.ts";
import type { ValuePath } from "../util/json.ts";
import type { EventName } from "../events/names.ts";
import { hookHash, type Layer } from "../trust/hash.ts";
import { shellQuote } from "../matching/tool_names.ts";
import { runsAsync } from "../config/handlers.ts";
import { type Coverage, COVERAGE_NOTE, coverageOf } from "./coverage.ts";
import { PositionIndex } from "../config/positions.ts";
import { checkPins } from "../config/pinning.ts";
import { problemLine, problemLines } from "../config/problems.ts";
import { keyTails, type PathContext, peoplePath } from "./display.ts";
import { type ChangeGroup, changeGroups, pinShares } from "./change_groups.ts";
import { type ProjectLayerHooks, projectLayerHooks } from "../config/project_hooks.ts";
import { commandFetch } from "../trust/command_files.ts";
import { handlerModule, handlerSummary as summaryOf } from "../config/handler_types/registry.ts";
import { layerHost } from "../config/foreign_layout.ts";
import { HOST_DISPLAY_NAMES } from "../adapter/host_names.ts";

/** One hook as shown. */
export type HookView = {
  key: string;
  /** The key for people: its shortest tail that names this hook alone (`trust` accepts it). */
  tail: string;
  layer: Layer;
  /** The key's path part: a file, `<manifest>#<n>`, or `cli-override`. */
  source: string;
  /** The file that holds the hook, or null (`-c` overrides). */
  file: string | null;
  /** 1-based line of the handler in `file`, when found. */
  line: number | null;
  /** Where it is written, for people: the file relative to the project root or with `~`, and its line. */
  place: string;
  event: EventName;
  matcher: string | null;
  status: TrustStatus;
  enabled: boolean;
  coverage: Coverage;
  hash: string;
  trustedHash: string | null;
  /** One line saying what runs: the command, or `mcp_tool server/tool`. */
  summary: string;
  /** The handler's display name, shown beside `summary` (never instead of it), or null. */
  name: string | null;
  plugin: string | null;
  /** Why a modified hook is: `modified` (its definition) or `modified: <path> changed|removed|added`. */
  modifiedReason: string | null;
  /** Its pinned files (SPEC §3.5), or null when its layer's root is not a project's or a plugin's. */
  pinned: PinnedView | null;
  /** What makes its command fetch from the network at run time (pinning cannot cover it), or null. */
  fetch: string | null;
  /** The part of its command that cannot be resolved to files (SPEC §3.5 r3: unpinnable), or null. */
  unpinnable: string | null;
  /** How many other hooks pin exactly the same files, and whether this is the first of them. */
  samePins: { others: number; first: boolean } | null;
  handler: HookHandler;
  /** What trust says of it, its pins checked (`status` and `modifiedReason` are from here). */
  verdict: TrustVerdict;
  /** The warnings about this hook: its handler's values, or its group's own fields (its matcher). */
  warnings: Warning[];
  /**
   * The host that runs this hook itself whatever its status here (a `.claude/settings.json` hook: Claude
   * Code), by display name, or null. Its status applies when mind, or another host through mind, runs it.
   */
  hostRuns: string | null;
};

/** What `list` and `review` say of a hook its own host runs itself (see {@link HookView.hostRuns}). */
export function hostRunsText(host: string): string {
  return `${host} runs it itself (its own settings); the status here applies when mind or another host runs it`;
}

/** One pinned file as shown: `pinned` holds, the three changes, or `unpinned` (would be pinned by a trust). */
export type PinnedFileView = {
  path: string;
  /** Its hash now, else the trusted one. */
  hash: string | null;
  state: "pinned" | "changed" | "removed" | "added" | "unpinned";
  /** Why it is in the hook's closure (`sys.path of .mind/check.py`, SPEC §3.5 r4), when known. */
  why?: string;
};

/** A hook's pinned files as shown. */
export type PinnedView = {
  files: PinnedFileView[];
  /** Why its files cannot be pinned (it cannot be trusted then), or null. */
  error: string | null;
  /** Trusted before pins were recorded: its files are not pinned yet. */
  unrecorded: boolean;
  /** The construct that keeps the reader from telling which files it runs (SPEC §3.5 r3), or null. */
  unpinnable: string | null;
};

/** The mark of an unpinnable hook in `list`, `review`, `trust` and the confirmation (SPEC §3.5 r3). */
export function unpinnableMark(construct: string): string {
  return `⚠ cannot tell which files this runs: ${construct}`;
}

/** Hooks of one layer file, in configuration order. */
export type HookGroup = { layer: Layer; source: string; file: string | null; hooks: HookView[] };

/**
 * The project line (SPEC §2.3): the command that trusts an untrusted project, and for an untrusted
 * one the hooks each of its layer folders holds (SPEC §14 r3: never "no hooks").
 */
export type ProjectView = ProjectInfo & {
  trustCommand: string | null;
  /** The root for people (`~/src/repo`). */
  shown: string;
  /** An untrusted project's layer folders that define hooks (none loaded); empty when trusted. */
  layers: ProjectLayerHooks[];
  /** How many hooks those define. */
  waiting: number;
};

/** Everything `list` and `review` show. */
export type CatalogView = {
  project: ProjectView | null;
  hooksEnabled: boolean;
  managedOnly: boolean;
  bypassTrust: boolean;
  hooks: HookView[];
  groups: HookGroup[];
  /** Discovery warnings, with line and column found from their value paths. */
  warnings: Warning[];
  /** The warnings that dropped something (a file, an event's hooks, a group or a handler), in order. */
  dropped: Warning[];
  /** Non-managed hooks that are untrusted or modified. */
  needReview: number;
  /** The configuration problems that lose hooks (SPEC §6), one line each, trust store first. */
  problems: string[];
  /** The trust store's problem (the user config.toml cannot be read), or null: then no trust advice. */
  trustStoreProblem: string | null;
  /** Hooks whose only change is the same set of pinned files, two or more each (SPEC §14 r3). */
  changeGroups: ChangeGroup[];
  /** Where paths are shown from (the project root, the OS user's home). */
  paths: PathContext;
  /** The home (`--home`, `$MIND_HOME`, else `~/.mind`). */
  home: string;
  /** The home does not exist (a mistyped `--home`): nothing is trusted, no user hook loads. */
  homeMissing: boolean;
};

/** A pinned file's view with why it is in the closure, when the pin set says. */
function withWhy(f: PinnedFileView, why: Readonly<Record<string, string>> | undefined): PinnedFileView {
  return why !== undefined && Object.hasOwn(why, f.path) ? { ...f, why: why[f.path] } : f;
}

/**
 * A hook's closure for people (SPEC §3.5 r4): its files grouped by why each is in it
 * (`.mind/lib/policy.py (sys.path of .mind/check.py)`), or null when no file says why.
 */
export function closureText(p: PinnedView): string | null {
  const groups = new Map<string, string[]>();
  for (const f of p.files) if (f.why !== undefined) groups.set(f.why, [...(groups.get(f.why) ?? []), f.path]);
  if (groups.size === 0) return null;
  return [...groups].map(([why, paths]) => `${paths.join(", ")} (${why})`).join("; ");
}

/** The pinned view of a checked hook. */
function pinnedView(h: HookHandler, v: TrustVerdict): PinnedView | null {
  const pins = h.pins;
  if (pins === null) return null;
  const current = v.pins?.current;
  const unpinnable = current?.unpinnable ?? null;
  if (current === undefined || !current.ok) {
    return { files: [], error: current?.error ?? "not checked", unrecorded: false, unpinnable };
  }
  const check = v.pins?.check;
  const stored = pins.stored;
  const definitionTrusted = v.definitionStatus === "trusted";
  if (!definitionTrusted || stored === null || check === undefined) {
    const files = Object.entries(current.files).map(([path, hash]) =>
      withWhy({ path, hash, state: "unpinned" as const }, current.why)
    );
    return { files, error: null, unrecorded: definitionTrusted && files.length > 0, unpinnable };
  }
  const changed = new Map(check.changes.map((c) => [c.path, c.change]));
  const paths = [...new Set([...Object.keys(stored), ...Object.keys(current.files)])].sort();
  const files = paths.map((path): PinnedFileView => {
    const now = Object.hasOwn(current.files, path) ? current.files[path] : undefined;
    const was = Object.hasOwn(stored, path) && typeof stored[path] === "string" ? stored[path] as string : null;
    return withWhy({ path, hash: now ?? was, state: changed.get(path) ?? "pinned" }, current.why);
  });
  return { files, error: null, unrecorded: false, unpinnable };
}

/** The display name of the host that runs a layer's hooks itself, or null. */
function hostRunsOf(layer: Layer): string | null {
  const host = layerHost(layer);
  return host === null ? null : HOST_DISPLAY_NAMES[host];
}

/** What makes a command hook fetch from the network at run time (SPEC §3.5), or null. */
function fetchOf(h: HookHandler): string | null {
  const command = handlerModule(h.handler).commandText(h.handler, "linux");
  return command === null ? null : commandFetch(command);
}

/** What runs, in one line. */
export function handlerSummary(h: HookHandler): string {
  return summaryOf(h.handler);
}

/** True when `prefix` is where `path` starts. */
function startsWithPath(path: ValuePath, prefix: ValuePath): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => path[i] === p);
}

/**
 * True when `w` is about handler `h`: the same file, and a value of the handler (`…hooks[1].timeout`)
 * or a field of its group other than its handlers (`…[0].matcher`).
 */
export function concernsHook(w: Warning, h: HookHandler): boolean {
  if (w.path === undefined || h.path === undefined || w.source !== h.sourcePath) return false;
  if (startsWithPath(w.path, h.path)) return true;
  const group = h.path.slice(0, -2);
  return w.path.length === group.length + 1 && startsWithPath(w.path, group) && w.path[group.length] !== "hooks";
}

/** True for a warning that dropped hooks: its file, its event's, its group's, or one handler. */
export function dropsHooks(w: Warning): boolean {
  if (w.code === "W_UNKNOWN_EVENT") return true;
  // A wrong field of the file itself (hooks.json `description`) drops nothing.
  if (w.code === "W_BAD_FIELD") return w.path !== undefined && w.path.length >= 5;
  return DROPPING_CODES.has(w.code);
}

/** The file part of a hook source (`cli-override` has none; an inline manifest entry is its manifest). */
export function sourceFile(source: string): string | null {
  if (source === "cli-override") return null;
  return source.replace(/#\d+$/, "");
}

/** Builds the view of `catalog`; reads the config files again only to find lines. */
export async function buildView(catalog: Catalog, positions = new PositionIndex()): Promise<CatalogView> {
  // Every hook's pinned files, as they are now (SPEC §3.5): what a trust would pin, what changed.
  const verdicts = assessTrust(
    catalog,
    catalog.handlers,
    await checkPins(catalog.handlers, { all: true, cache: catalog.pinCache }),
  );
  // Only user-side definitions count as local: a stranger's file must not make a label claim more control.
  const localServers = new Set(catalog.mcpServers.userSide.keys());
  const paths: PathContext = { projectRoot: catalog.project?.root ?? null, userHome: catalog.userHome };
  const tails = keyTails(catalog.handlers.map((h) => h.key), paths);
  const hooks = await Promise.all(catalog.handlers.map(async (h): Promise<HookView> => {
    const pos = await positions.handler(h);
    const file = sourceFile(h.sourcePath);
    const line = pos?.line ?? null;
    const verdict = verdicts.get(h.key)!;
    const pinned = pinnedView(h, verdict);
    return {
      key: h.key,
      tail: tails.get(h.key) ?? h.key,
      layer: h.layer,
      source: h.sourcePath,
      file,
      line,
      place: file === null ? "(-c override of this process)" : `${peoplePath(file, paths)}${line ? `:${line}` : ""}`,
      event: h.event,
      matcher: h.matcher,
      status: verdict.status,
      enabled: h.enabled,
      coverage: coverageOf(h.event, h.matcher, localServers),
      hash: hookHash(h),
      trustedHash: h.trustedHash,
      summary: handlerSummary(h),
      name: h.name ?? null,
      plugin: h.plugin ?? null,
      modifiedReason: verdict.modifiedReason,
      pinned,
      fetch: fetchOf(h),
      unpinnable: pinned?.unpinnable ?? null,
      samePins: null,
      handler: h,
      verdict,
      warnings: [],
      hostRuns: hostRunsOf(h.layer),
    };
  }));
  const shares = pinShares(hooks);
  for (const v of hooks) v.samePins = shares.get(v.key) ?? null;
  const warnings = await positions.enrich(catalog.warnings);
  for (const v of hooks) v.warnings = warnings.filter((w) => concernsHook(w, v.handler));
  const groups: HookGroup[] = [];
  for (const v of hooks) {
    const last = groups[groups.length - 1];
    if (last && last.layer === v.layer && last.source === v.source) last.hooks.push(v);
    else groups.push({ layer: v.layer, source: v.source, file: v.file, hooks: [v] });
  }
  const p = catalog.project;
  // An untrusted project's hooks are counted, never loaded: what `project trust` would load.
  const layers = p && !p.trusted && p.hasHookFiles ? await projectLayerHooks(p.root, p.foreignDirs) : [];
  const project = p
    ? {
      ...p,
      // No trust advice while the trust store cannot be read (SPEC §6).
      trustCommand: p.trusted || catalog.trustStoreProblem !== null
        ? null
        : `mind-hooks project trust ${shellQuote(p.root)}`,
      shown: peoplePath(p.root, paths),
      layers,
      waiting: layers.reduce((n, l) => n + l.hooks, 0),
    }
    : null;
  const problemCtx = { userConfigPath: catalog.userConfigPath, userHome: catalog.userHome };
  const homeMissing = !(await isDirectory(catalog.home));
  const problems = await problemLines(warnings, problemCtx);
  return {
    project,
    hooksEnabled: catalog.hooksEnabled,
    managedOnly: catalog.managedOnly,
    bypassTrust: catalog.bypassTrust,
    hooks,
    groups,
    warnings,
    problems,
    trustStoreProblem: catalog.trustStoreProblem === null ? null : problemLine(catalog.trustStoreProblem, problemCtx),
    dropped: warnings.filter(dropsHooks),
    needReview: hooks.filter((h) => h.layer !== "managed" && (h.status === "untrusted" || h.status === "modified"))
      .length,
    changeGroups: changeGroups(hooks),
    paths,
    home: catalog.home,
    homeMissing,
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * The line of a home that does not exist: a mistyped `--home` or `MIND_HOME` (`namedBy`, the one that
 * chose it), or a new user's default `~/.mind` (null), which a first trust creates.
 */
export function homeMissingLine(home: string, namedBy: "--home" | "MIND_HOME" | null): string {
  const base = `the home ${home} does not exist: nothing is trusted and no user hook is loaded from it`;
  return namedBy === null ? `${base} (the first trust creates it)` : `${base} (a typo in ${namedBy}?)`;
}

/** One hook as data (`list --json`). */
export function hookData(v: HookView): Record<string, unknown> {
  const h = v.handler.handler;
  const base: Record<string, unknown> = {
    key: v.key,
    layer: v.layer,
    source: v.source,
    line: v.line,
    event: v.event,
    matcher: v.matcher,
    type: h.type,
    name: v.name,
  };
  Object.assign(base, handlerModule(h).json(h));
  // Which file's [mcp_servers.<name>] an mcp_tool hook calls (SPEC §2.7), or null when none resolves.
  if (v.handler.server !== undefined) base.serverSource = v.handler.server?.source ?? null;
  return {
    ...base,
    status: v.status,
    enabled: v.enabled,
    coverage: v.coverage,
    modifiedReason: v.modifiedReason,
    hash: v.hash,
    trustedHash: v.trustedHash,
    // SPEC §14: each hook's pinned files (null when its layer pins none).
    pinnedFiles: v.pinned === null ? null : v.pinned.files,
    pinError: v.pinned?.error ?? null,
    unpinnable: v.pinned?.unpinnable ?? null,
    fetch: v.fetch,
    // The host that runs it itself whatever its status here (its `--protocol` name), or null.
    hostRuns: layerHost(v.layer),
    statusMessage: h.statusMessage ?? null,
    timeout: h.timeout,
    // Whether it runs in the background (SessionEnd never does, whatever is written).
    async: runsAsync(v.handler),
    additionalContextLimit: handlerModule(h).contextLimit(h),
    // How its output is read (SPEC §8.1), Claude Code's `if` filter, and whether a failure blocks (SPEC §2.2).
    dialect: v.handler.dialect,
    if: h.if ?? null,
    once: h.once === true,
    failClosed: h.failClosed === true,
    plugin: v.plugin,
  };
}

/**
 * The stable JSON of `list --json`:
 * `{project, hooksEnabled, managedOnly, problems: [...], hooks: [...], warnings: [...], note}`.
 */
export function listData(view: CatalogView): Record<string, unknown> {
  return {
    project: view.project
      ? {
        root: view.project.root,
        trusted: view.project.trusted,
        trustLevel: view.project.trustLevel,
        trustCommand: view.project.trustCommand,
        // An untrusted project's layer folders and the hooks each defines (none of them loaded).
        layers: view.project.layers.map((l) => ({ folder: l.folder, layer: l.layer, hooks: l.hooks, files: l.files })),
      }
      : null,
    hooksEnabled: view.hooksEnabled,
    managedOnly: view.managedOnly,
    homeExists: !view.homeMissing,
    problems: view.problems,
    // (r3) Each hook's `duplicateOf`: the key it is an identical Claude copy of (SPEC §8.1), or null.
    hooks: withDuplicateOf(view.hooks),
    // Hooks whose only change is the same set of pinned files: one entry, one re-trust (SPEC §14 r3).
    changeGroups: view.changeGroups.map((g) => ({ root: g.root, files: g.files, keys: g.keys, label: g.label })),
    warnings: view.warnings,
    note: COVERAGE_NOTE,
  };
}

/** The hooks as data, each with `duplicateOf` (an identical Claude-dialect copy's original key, or null). */
function withDuplicateOf(hooks: readonly HookView[]): Record<string, unknown>[] {
  const copies = duplicateCopies(hooks.map((h) => h.handler));
  return hooks.map((h) => ({ ...hookData(h), duplicateOf: copies.get(h.key) ?? null }));
}
