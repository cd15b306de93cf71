/**
 * The summary a trust of many hooks opens with (SPEC §14 r3): how many hooks, on which events, from
 * which files, how many pinned files, and every hook that fetches code from the network at run time
 * or runs files the pin reader cannot tell — each by its full command — so that what a person must
 * decide fits one screen before the per-hook details. `review`'s confirmation shows it first and
 * `trust --all` prints it, followed by one line per hook (its key tail and command).
 *
 * Pure: lines from a trust plan and the view model.
 * @module
 */
import type { HookHandler } from "../config/discovery.ts";
import type { TrustPlan } from "../trust/actions.ts";
import type { CatalogView, HookView } from "./catalog_view.ts";
import { handlerSummary } from "./catalog_view.ts";
import { peoplePath } from "./display.ts";

/** A hook named in the summary. */
export type NamedHook = { tail: string; command: string; why: string };

/** What a trust will record, in numbers and names. */
export type TrustSummary = {
  hooks: number;
  /** Each event and how many of the hooks are on it, in order of first appearance. */
  events: [string, number][];
  /** Each file (for people) and how many of the hooks it holds. */
  files: [string, number][];
  /** Distinct files pinned across the hooks. */
  pinned: number;
  network: NamedHook[];
  unpinnable: NamedHook[];
  refused: { tail: string; reason: string }[];
};

/** At most this many files are named; the rest are counted. */
const FILES_NAMED = 4;

function counted<T extends string>(values: T[]): [T, number][] {
  const m = new Map<T, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m];
}

/** The summary of `plan`, with the people's forms of `view`. */
export function trustSummary(plan: TrustPlan<HookHandler>, view: CatalogView): TrustSummary {
  const byKey = new Map(view.hooks.map((h) => [h.key, h]));
  const items = plan.items.map((i) => ({ item: i, view: byKey.get(i.handler.key) as HookView | undefined }));
  const pinned = new Set<string>();
  for (const { item } of items) {
    const root = item.handler.pins?.scope.root ?? "";
    for (const path of Object.keys(item.files ?? {})) pinned.add(`${root}\0${path}`);
  }
  const named = (pick: (i: (typeof items)[number]) => string | null): NamedHook[] =>
    items.flatMap((x) => {
      const why = pick(x);
      return why === null
        ? []
        : [{ tail: x.view?.tail ?? x.item.handler.key, command: handlerSummary(x.item.handler), why }];
    });
  return {
    hooks: items.length,
    events: counted(items.map(({ item }) => item.handler.event)),
    files: counted(items.map(({ item }) => {
      const file = item.handler.sourcePath.replace(/#\d+$/, "");
      return file === "cli-override" ? "-c overrides" : peoplePath(file, view.paths);
    })),
    pinned: pinned.size,
    network: named(({ item, view }) => item.fetch ?? view?.fetch ?? null),
    unpinnable: named(({ view }) => view?.unpinnable ?? null),
    refused: plan.refused.map((r) => ({ tail: byKey.get(r.key)?.tail ?? r.key, reason: r.reason })),
  };
}

/** One line of the summary: `warn` lines are what needs a second look, `item` lines name a hook. */
export type SummaryLine = { text: string; kind: "plain" | "warn" | "item" };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The summary as lines (the review paints them, `trust --all` prints them). */
export function summaryLines(s: TrustSummary): SummaryLine[] {
  const lines: SummaryLine[] = [];
  const events = s.events.map(([e, n]) => `${e} ${n}`).join(", ");
  lines.push({ text: `${plural(s.hooks, "hook")} on ${plural(s.events.length, "event")}: ${events}`, kind: "plain" });
  const files = s.files.slice(0, FILES_NAMED).map(([f, n]) => `${f} (${n})`).join(", ");
  const more = s.files.length > FILES_NAMED ? ` and ${plural(s.files.length - FILES_NAMED, "more file")}` : "";
  lines.push({ text: `from ${plural(s.files.length, "file")}: ${files}${more}`, kind: "plain" });
  lines.push({
    text: s.pinned === 0 ? "no file pinned" : `${plural(s.pinned, "pinned file")} (trust also covers their content)`,
    kind: "plain",
  });
  if (s.network.length > 0) {
    lines.push({
      text: `⚠ ${plural(s.network.length, "hook fetches", "hooks fetch")} code from the network when run (not pinned):`,
      kind: "warn",
    });
    for (const h of s.network) lines.push({ text: `${h.command}   (${h.why})`, kind: "item" });
  }
  if (s.unpinnable.length > 0) {
    lines.push({
      text: `⚠ ${plural(s.unpinnable.length, "hook runs", "hooks run")} files mind-hooks cannot tell (not pinned):`,
      kind: "warn",
    });
    for (const h of s.unpinnable) lines.push({ text: `${h.command}   (${h.why})`, kind: "item" });
  }
  if (s.refused.length > 0) {
    lines.push({
      text: `✗ ${plural(s.refused.length, "hook")} cannot be trusted (nothing is written for it):`,
      kind: "warn",
    });
    for (const r of s.refused) lines.push({ text: `${r.tail}: ${r.reason}`, kind: "item" });
  }
  return lines;
}
