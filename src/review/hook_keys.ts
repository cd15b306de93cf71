/**
 * What `review`'s one-hook keys (`d`, `e`, `u`, and `z` undoing them; `p`) say, as pure functions of the
 * view: why a key is refused, what it did — a guard (a hook on an event that can block) that stops
 * guarding said as such, with the key that undoes it, since a stray key must never quietly let the tool
 * calls it stops through — and what a project just trusted holds, counted over every layer of it.
 * @module
 */
import type { TrustAction } from "../trust/actions.ts";
import type { CatalogView, HookView } from "./catalog_view.ts";
import type { ChangeGroup } from "./change_groups.ts";
import { isProjectRooted } from "../config/pinning.ts";
import { EVENTS } from "../events/registry.ts";

/** A line for the message bar. */
export type Message = { text: string; kind: "info" | "error" };

/** What `z` undoes: the last `d`, `e` or `u` of one hook (by key). */
export type Undo = { key: string; tail: string; action: TrustAction };

/** The action that undoes `action`: a re-trust goes through the confirmation like any trust. */
export const INVERSE: Readonly<Record<TrustAction, TrustAction>> = {
  trust: "untrust",
  untrust: "trust",
  enable: "disable",
  disable: "enable",
};

const PAST: Readonly<Record<TrustAction, string>> = {
  trust: "trusted",
  untrust: "untrusted",
  enable: "enabled",
  disable: "disabled",
};

/**
 * Why `action` is not done on the selection (a change group, nothing, a managed hook, nothing to change,
 * the trust store unreadable: `storeRefusal`), or null when it can be.
 */
export function actionRefusal(
  action: TrustAction,
  h: HookView | undefined,
  group: ChangeGroup | undefined,
  storeRefusal: string | null,
): Message | null {
  if (group) {
    return {
      text: `this entry stands for ${group.keys.length} hooks: Enter lists them (then ${
        action[0]
      } acts on one), t re-trusts them all`,
      kind: "info",
    };
  }
  if (!h) return { text: "no hook selected", kind: "error" };
  if (h.layer === "managed") {
    return {
      text: "managed hooks (requirements.toml) are read-only: always trusted and enabled; nothing written",
      kind: "error",
    };
  }
  const already =
    { trust: h.status === "trusted", untrust: h.status === "untrusted", enable: h.enabled, disable: !h.enabled }[
      action
    ];
  if (already) {
    const state = { trust: "trusted", untrust: "not trusted", enable: "enabled", disable: "disabled" }[action];
    return { text: `already ${state}: nothing to change`, kind: "info" };
  }
  return storeRefusal === null ? null : { text: storeRefusal, kind: "error" };
}

/** What `action`, done on `h`, says: a guard that stops guarding in red; always the key that undoes it. */
export function actionDone(action: TrustAction, h: HookView): Message {
  const unguarded = EVENTS[h.event].canBlock && (action === "disable" || action === "untrust");
  return unguarded
    ? {
      text: `${
        PAST[action]
      } ${h.tail}: this ${h.event} guard no longer runs, nothing it would block is stopped — z undoes`,
      kind: "error",
    }
    : { text: `${PAST[action]} ${h.tail} (z undoes)`, kind: "info" };
}

/** What `z` says when it has nothing to undo (`last` null), or when the hook it would undo is gone. */
export function nothingToUndo(last: Undo | null): Message {
  return last === null
    ? { text: "nothing to undo (z undoes the last d, e or u)", kind: "info" }
    : { text: `cannot undo: ${last.tail} is no longer listed`, kind: "error" };
}

/** The message of an action `z` just undid: it says so (and is not itself undone by `z`). */
export function undoneMessage(m: Message | null): Message | null {
  return m !== null && m.text.endsWith(" (z undoes)")
    ? { text: m.text.replace(" (z undoes)", " (undone)"), kind: "info" }
    : m;
}

/** What a project just trusted holds: its hooks of every layer (`.mind/`, `.claude/`, `.codex/`, …), not `.mind/` alone. */
export function projectHooksWords(view: CatalogView, root: string): string {
  const own = view.hooks.filter((h) => isProjectRooted(h.layer));
  const pending = own.filter((h) => h.status === "untrusted" || h.status === "modified").length;
  const broken = view.dropped.some((w) => w.source.startsWith(`${root}/`));
  return own.length === 0
    ? `none of its hooks is loaded${broken ? ": its files have problems (the ✗ lines)" : ""}`
    : pending === 0
    ? `its ${own.length === 1 ? "hook is" : `${own.length} hooks are`} trusted already`
    : `${pending} of its hooks need${pending === 1 ? "s" : ""} review (t trusts one, A all)`;
}
