/**
 * The state and actions of `mind-hooks review`, kept apart from the terminal
 * so they can be reasoned about (and driven) without one: which hook is
 * selected, what the last action said, and what each key does. Every action
 * is written at once through `applyAction` / `writeProjectTrust` (one locked,
 * atomic write of the user config.toml, SPEC §3.3) and the catalog is then
 * loaded again from disk, so the screen always shows what is stored — never a
 * status the app merely assumes.
 * @module
 */
import type { Catalog, HookHandler } from "../config/discovery.ts";
import { ok, type Result } from "../util/result.ts";
import {
  applyAction,
  applyTrustPlan,
  planTrust,
  resolveKeys,
  samePlan,
  type TrustAction,
  type TrustPlan,
  writeErrorLine,
} from "../trust/actions.ts";
import { writeProjectTrust } from "../state/state_writer.ts";
import type { TrustedDefinition } from "../trust/trusted_store.ts";
import { changeTexts, type FileText } from "./change_texts.ts";
import { planPaths, readPinnedTexts, reviewPaths, type ShownFile } from "./pin_contents.ts";
import { trustStoreRefusal } from "../config/problems.ts";
import {
  actionDone,
  actionRefusal,
  INVERSE,
  type Message,
  nothingToUndo,
  projectHooksWords,
  type Undo,
  undoneMessage,
} from "./hook_keys.ts";
import { buildView, type CatalogView, type HookView } from "./catalog_view.ts";
import type { Key } from "./keys.ts";
import { lastRuns, type LogRecord } from "../log/observation.ts";
import type { ChangeGroup } from "./change_groups.ts";
import type { HookReplay } from "./replay_pane.ts";
import { buildList, type Entry, entryId, findHook, type ListModel, needsReview, nextEntry } from "./list_model.ts";

/**
 * A trust waiting for the user's answer (SPEC §14): the keys asked for (one hook, or all needing
 * review) and the plan shown — exactly what `y` writes, if it is still what is on disk then.
 */
export type Confirmation = {
  keys: string[];
  plan: TrustPlan<HookHandler>;
  /** First row of the confirmation shown (it scrolls). */
  top: number;
  /** What it shows was re-read because the disk changed after it was first shown. */
  changed: boolean;
};

/** A line for the message bar. */
export type { Message } from "./hook_keys.ts";

/** Loads the catalog again (from disk, with the same options as at start). */
export type CatalogLoader = () => Promise<Result<Catalog>>;

/** How many rows one page of the list and of the details pane holds, for the page keys. */
export type PageSizes = { list: number; details: number };

/** A search being typed (`/`): its text, and the entry selected when it started (Esc goes back). */
export type Search = { query: string; from: number };

/** The review session. */
export class ReviewApp {
  /** The catalog the screen shows. */
  catalog: Catalog;
  /** Its view model. */
  view: CatalogView;
  /** The list: entries (hooks, change groups) and rows, built from the view and the open groups. */
  list: ListModel;
  /** The change groups shown open (their hooks listed under them), by their first key. */
  open = new Set<string>();
  /** Index of the selected entry in `list.entries`. */
  selected = 0;
  /** The search being typed, or null. */
  search: Search | null = null;
  /** The last search, repeated by `/` and Enter. */
  lastQuery = "";
  /** First list row shown (the renderer keeps the selection visible). */
  listTop = 0;
  /** First details line shown. */
  detailTop = 0;
  /** The details pane shows the warnings instead of the selected hook. */
  showWarnings = false;
  /** The help overlay (every key) is shown over the body. */
  showHelp = false;
  /** The last logged run of each hook, by key (from the observation log). */
  lastRuns = new Map<string, LogRecord>();
  /** What the last action did. */
  message: Message | null = null;
  /** Stored trusted copies of the modified hooks, by key (null: no copy kept). */
  trustedCopies = new Map<string, TrustedDefinition | null>();
  /** The texts now of the modified hooks' changed and added pinned files, by key, then path. */
  currentFiles = new Map<string, Map<string, FileText>>();
  /** The trust waiting for `y` or `n`, or null. */
  confirm: Confirmation | null = null;
  /** The content of pinned files shown before a trust, by absolute path (read again on reload). */
  pinnedTexts = new Map<string, ShownFile>();
  /** The last `d`, `e` or `u`, which `z` undoes (a stray key must not silently unguard a tool), or null. */
  undo: Undo | null = null;
  /** Set when the user quits: the exit code. */
  exitCode: number | null = null;
  /** `r` on a hook awaiting trust: its recorded events replayed with it trusted (§16; null: nothing recorded). */
  replayer: ((hook: HookView) => Promise<HookReplay | null>) | null = null;
  /** The last replay, shown first in its hook's details. */
  replayed: HookReplay | null = null;
  #load: CatalogLoader;

  private constructor(catalog: Catalog, view: CatalogView, load: CatalogLoader) {
    this.catalog = catalog;
    this.view = view;
    this.list = buildList(view, this.open);
    this.#load = load;
  }

  /** Loads the catalog and builds the first screen's state. */
  static async create(load: CatalogLoader): Promise<Result<ReviewApp>> {
    const loaded = await load();
    if (!loaded.ok) return loaded;
    const catalog = loaded.value;
    const app = new ReviewApp(catalog, await buildView(catalog), load);
    await app.#loadCopies();
    await app.#loadRuns();
    return ok(app);
  }

  /** The selected entry, if any. */
  get entry(): Entry | undefined {
    return this.list.entries[this.selected];
  }

  /** The selected hook, if the selected entry is one. */
  get current(): HookView | undefined {
    const e = this.entry;
    return e?.kind === "hook" ? e.hook : undefined;
  }

  /** The selected change group, if the selected entry is one. */
  get currentGroup(): ChangeGroup | undefined {
    const e = this.entry;
    return e?.kind === "change" ? e.group : undefined;
  }

  /** The trust keys are offered: not while the trust store cannot be read (SPEC §6). */
  get canWriteTrust(): boolean {
    return this.catalog.trustStoreProblem === null;
  }

  /** Rebuilds the list (after the view or the open groups changed); the selection follows its entry. */
  #relist(keep: string | undefined): void {
    this.list = buildList(this.view, this.open);
    const idx = keep === undefined ? -1 : this.list.entries.findIndex((e) => entryId(e) === keep);
    this.selected = idx >= 0 ? idx : Math.max(0, Math.min(this.selected, this.list.entries.length - 1));
  }

  async #loadRuns(): Promise<void> {
    this.lastRuns = await lastRuns(this.catalog.home, new Set(this.view.hooks.map((h) => h.key)));
  }

  async #loadCopies(): Promise<void> {
    const texts = await changeTexts(this.catalog.home, this.view.hooks);
    this.trustedCopies = texts.trustedCopies;
    this.currentFiles = texts.currentFiles;
    // The pinned files of the hooks that need review, shown before they are trusted (each read once).
    this.pinnedTexts = new Map();
    await readPinnedTexts(reviewPaths(this.view.hooks), this.pinnedTexts);
  }

  /** Re-reads everything from disk; the selection follows its entry. */
  async reload(): Promise<void> {
    const e = this.entry;
    // A hook of a group that is gone (re-trusted) is still found by its key.
    const keep = e === undefined ? undefined : entryId(e);
    const loaded = await this.#load();
    if (!loaded.ok) {
      this.message = { text: loaded.error, kind: "error" };
      return;
    }
    const catalog = loaded.value;
    this.catalog = catalog;
    this.view = await buildView(catalog);
    await this.#loadCopies();
    await this.#loadRuns();
    const groups = new Set(this.view.changeGroups.map((g) => g.keys[0]));
    for (const k of this.open) if (!groups.has(k)) this.open.delete(k);
    this.#relist(keep);
  }

  #move(to: number): void {
    const max = this.list.entries.length - 1;
    const next = Math.max(0, Math.min(max, to));
    if (next !== this.selected) this.detailTop = 0;
    this.selected = next;
  }

  /** Handles one key; `pages` says how many rows a page of the list and of the details holds. */
  async handle(key: Key, pages: PageSizes): Promise<void> {
    // The confirmation of a trust takes every key until it is answered (SPEC §14).
    if (this.confirm !== null) return await this.#handleConfirm(key, pages.details);
    if (this.search !== null) return this.#handleSearch(key);
    if (this.showHelp) {
      // The overlay closes on its own keys (q included: it leaves the help, not the review); any other
      // key closes it and does what it does.
      this.showHelp = false;
      if (key === "?" || key === "h" || key === "f1" || key === "escape" || key === "q") return;
    }
    switch (key) {
      case "up":
      case "k":
        return this.#move(this.selected - 1);
      case "down":
      case "j":
        return this.#move(this.selected + 1);
      case "pageup":
        this.detailTop = Math.max(0, this.detailTop - Math.max(1, pages.details - 1));
        return;
      case "pagedown":
        // The renderer keeps it within the details (so End is simply "as far as it goes").
        this.detailTop += Math.max(1, pages.details - 1);
        return;
      case "home":
        this.detailTop = 0;
        return;
      case "end":
        this.detailTop = Number.MAX_SAFE_INTEGER;
        return;
      case "g":
        return this.#move(0);
      case "G":
        return this.#move(this.list.entries.length - 1);
      case "n":
        return this.#nextNeedingReview();
      case "/":
        this.search = { query: "", from: this.selected };
        this.message = null;
        return;
      case "enter":
      case "right":
      case "left":
        return this.#toggleGroup(key);
      case "?":
      case "h":
      case "f1":
        this.showHelp = true;
        return;
      case "escape":
        if (this.showWarnings) {
          this.showWarnings = false;
          this.detailTop = 0;
        }
        return;
      case "]":
        this.detailTop++;
        return;
      case "[":
        this.detailTop = Math.max(0, this.detailTop - 1);
        return;
      case "w":
        this.showWarnings = !this.showWarnings;
        this.detailTop = 0;
        return;
      case "t":
        return await this.#askTrust();
      case "u":
        return await this.#hookAction("untrust");
      case "e":
        return await this.#hookAction("enable");
      case "d":
        return await this.#hookAction("disable");
      case "z":
        return await this.#undo();
      case "A":
        return await this.#trustAll();
      case "p":
        return await this.#projectAction();
      case "r":
        await this.reload();
        this.message = { text: "reloaded from disk", kind: "info" };
        return await this.#replay();
      case "q":
      case "ctrl-d":
        this.exitCode = 0;
        return;
      case "ctrl-c":
        this.exitCode = 130;
        return;
    }
  }

  /** On a hook awaiting trust: its replay, first in its details (SPEC §16). */
  async #replay(): Promise<void> {
    const e = this.entry;
    if (this.replayer === null || e === undefined || e.kind !== "hook" || !needsReview(e)) return;
    const replayed = await this.replayer(e.hook);
    if (replayed === null) return; // nothing recorded: `r` only reloaded
    [this.replayed, this.detailTop] = [replayed, 0];
    this.message = { text: "reloaded from disk; replayed its recorded events with it trusted", kind: "info" };
  }

  /** Keys while a confirmation is open: y/Enter trusts, n/Esc cancels, the rest scroll. */
  async #handleConfirm(key: Key, page: number): Promise<void> {
    const c = this.confirm!;
    switch (key) {
      case "y":
      case "Y":
      case "enter":
        return await this.#confirmTrust();
      case "home":
        c.top = 0;
        return;
      case "end":
        // The renderer keeps it within the rows: the end of the details.
        c.top = Number.MAX_SAFE_INTEGER;
        return;
      case "n":
      case "N":
      case "escape":
      case "q":
        this.confirm = null;
        this.message = { text: "cancelled: nothing was trusted", kind: "info" };
        return;
      case "ctrl-c":
        this.exitCode = 130;
        return;
      case "down":
      case "j":
      case "]":
        c.top++;
        return;
      case "up":
      case "k":
      case "[":
        c.top = Math.max(0, c.top - 1);
        return;
      case "pagedown":
        c.top += Math.max(1, page - 1);
        return;
      case "pageup":
        c.top = Math.max(0, c.top - Math.max(1, page - 1));
        return;
    }
  }

  /** Keys while a search is typed: text, Backspace, Enter keeps the match, Esc goes back. */
  #handleSearch(key: Key): void {
    const s = this.search!;
    if (key === "escape" || key === "ctrl-c") {
      this.search = null;
      this.#move(s.from);
      this.message = null;
      return;
    }
    if (key === "enter") {
      this.search = null;
      const query = s.query === "" ? this.lastQuery : s.query;
      if (query === "") return;
      this.lastQuery = query;
      // Enter on an empty search repeats the last one, from the entry after the selected one.
      const found = this.#find(query, s.query === "" ? this.selected + 1 : s.from);
      this.message = found
        ? { text: `/${query}: ${found} (/ and Enter: the next)`, kind: "info" }
        : { text: `/${query}: no hook matches (commands, keys and files are searched)`, kind: "error" };
      return;
    }
    if (key === "backspace") s.query = s.query.slice(0, -1);
    else if (key.length === 1) s.query += key;
    else return;
    // As it is typed, the first match from where the search started is selected.
    if (s.query !== "") this.#find(s.query, s.from);
  }

  /**
   * Selects the first hook matching `query` from entry `from` on (wrapping), opening the change
   * group it is in; returns its position among the matches (`2 of 5`), or null when none matches.
   */
  #find(query: string, from: number): string | null {
    const found = findHook(this.view, this.list, query, from);
    if (found === null) return null;
    const group = this.view.changeGroups.find((g) => g.keys.includes(found.hook.key));
    if (group) this.open.add(group.keys[0]);
    this.#relist(`hook:${found.hook.key}`);
    this.detailTop = 0;
    return `${found.position} of ${found.matches}`;
  }

  /** `n`: the next entry that needs review (wrapping around). */
  #nextNeedingReview(): void {
    const i = nextEntry(this.list.entries, this.selected, needsReview);
    if (i === null) {
      this.message = { text: "no hook needs review", kind: "info" };
      return;
    }
    this.#move(i);
    this.message = null;
  }

  /** Enter / → opens a change group (its hooks show under it) or closes it; ← closes the group of a hook in it. */
  #toggleGroup(key: Key): void {
    const e = this.entry;
    if (e?.kind === "change") {
      const id = e.group.keys[0];
      if (key === "left" || (key === "enter" && e.open)) this.open.delete(id);
      else this.open.add(id);
      this.#relist(entryId(e));
      return;
    }
    if (e?.kind === "hook" && e.member && key === "left") {
      const group = this.view.changeGroups.find((g) => g.keys.includes(e.hook.key));
      if (!group) return;
      this.open.delete(group.keys[0]);
      this.#relist(`change:${group.keys[0]}`);
    }
  }

  /** The trust store's refusal when it cannot be read (SPEC §6), else null. */
  #storeRefusal(): string | null {
    return this.catalog.trustStoreProblem === null
      ? null
      : trustStoreRefusal(this.catalog.trustStoreProblem, this.catalog);
  }

  /** `t`: ask before trusting the selected hook, or the hooks of the selected change group (SPEC §14). */
  async #askTrust(): Promise<void> {
    const group = this.currentGroup;
    if (group) return await this.#openConfirm(group.keys);
    const h = this.current;
    if (!h) {
      this.message = { text: "no hook selected", kind: "error" };
      return;
    }
    if (h.layer === "managed") {
      this.message = {
        text: "managed hooks (requirements.toml) are read-only: always trusted and enabled; nothing written",
        kind: "error",
      };
      return;
    }
    if (h.status === "trusted") {
      this.message = { text: "already trusted: nothing to change", kind: "info" };
      return;
    }
    await this.#openConfirm([h.key]);
  }

  /** Opens the confirmation of a trust of `keys`, planned from the catalog on screen. */
  async #openConfirm(keys: string[]): Promise<void> {
    const refusal = this.#storeRefusal();
    if (refusal !== null) {
      this.message = { text: refusal, kind: "error" };
      return;
    }
    const resolved = resolveKeys(this.catalog, keys);
    if (!resolved.ok) {
      this.message = { text: resolved.error, kind: "error" };
      return;
    }
    const plan = await planTrust(resolved.value);
    if (plan.items.length === 0) {
      this.message = {
        text: `not trusted: ${plan.refused.map((r) => `${r.key}: ${r.reason}`).join("; ")}`,
        kind: "error",
      };
      return;
    }
    await readPinnedTexts(planPaths(plan), this.pinnedTexts);
    this.confirm = { keys, plan, top: 0, changed: false };
    this.message = null;
  }

  /**
   * `y`: trusts what the confirmation shows — after reading the disk again. If a definition or a
   * pinned file changed since it was shown, nothing is written and the new state is shown instead.
   */
  async #confirmTrust(): Promise<void> {
    const shown = this.confirm!;
    const loaded = await this.#load();
    if (!loaded.ok) {
      this.message = { text: loaded.error, kind: "error" };
      return;
    }
    const fresh = loaded.value;
    const resolved = resolveKeys(fresh, shown.keys);
    if (!resolved.ok) {
      // A hook shown is gone from its file: there is nothing left to trust as shown.
      this.confirm = null;
      await this.reload();
      this.message = { text: `changed since it was shown: ${resolved.error}`, kind: "error" };
      return;
    }
    const plan = await planTrust(resolved.value);
    if (!samePlan(plan, shown.plan)) {
      this.catalog = fresh;
      this.view = await buildView(fresh);
      this.#relist(this.entry === undefined ? undefined : entryId(this.entry));
      this.pinnedTexts = new Map();
      await readPinnedTexts(planPaths(plan), this.pinnedTexts);
      this.confirm = { keys: shown.keys, plan, top: 0, changed: true };
      this.message = { text: "changed on disk since it was shown: nothing written; read it again", kind: "error" };
      return;
    }
    const res = await applyTrustPlan(fresh, plan);
    if (!res.ok) {
      this.message = { text: res.error, kind: "error" };
      return;
    }
    this.confirm = null;
    await this.reload();
    const n = res.items.length;
    const tail = (key: string) => this.view.hooks.find((h) => h.key === key)?.tail ?? key;
    const what = n === 1 ? `trusted ${tail(res.items[0].handler.key)}` : `trusted ${n} hooks`;
    const disabled = res.items.some((i) => !i.handler.enabled) ? " (still disabled: e enables it)" : "";
    const refused = res.refused.length > 0 ? `; not trusted: ${res.refused.map((r) => tail(r.key)).join(", ")}` : "";
    this.message = { text: `${what}${disabled}${refused}`, kind: res.refused.length > 0 ? "error" : "info" };
  }

  async #hookAction(action: TrustAction): Promise<void> {
    const h = this.current;
    const refused = actionRefusal(action, h, this.currentGroup, this.#storeRefusal());
    if (refused !== null || h === undefined) {
      this.message = refused;
      return;
    }
    const resolved = resolveKeys(this.catalog, [h.key]);
    if (!resolved.ok) {
      this.message = { text: resolved.error, kind: "error" };
      return;
    }
    const res = await applyAction(this.catalog, action, resolved.value);
    if (!res.ok) {
      this.message = { text: res.error, kind: "error" };
      return;
    }
    await this.reload();
    this.undo = { key: h.key, tail: h.tail, action };
    this.message = actionDone(action, h);
  }

  /** `z`: undoes the last `d`, `e` or `u` (a re-trust asks first, as every trust does). */
  async #undo(): Promise<void> {
    const last = this.undo;
    this.undo = null;
    const idx = last === null ? -1 : this.list.entries.findIndex((e) => e.kind === "hook" && e.hook.key === last.key);
    if (last === null || idx < 0) {
      this.message = nothingToUndo(last);
      return;
    }
    this.#move(idx);
    const inverse = INVERSE[last.action];
    if (inverse === "trust") return await this.#openConfirm([last.key]);
    await this.#hookAction(inverse);
    // Undoing is not itself undone by z (it would toggle forever): the message says what happened.
    this.undo = null;
    this.message = undoneMessage(this.message);
  }

  /** `A`: ask before trusting every hook that needs review. */
  async #trustAll(): Promise<void> {
    const pending = this.view.hooks.filter((h) =>
      h.layer !== "managed" && (h.status === "untrusted" || h.status === "modified")
    );
    if (pending.length === 0) {
      this.message = { text: "no hook needs review", kind: "info" };
      return;
    }
    await this.#openConfirm(pending.map((h) => h.key));
  }

  async #projectAction(): Promise<void> {
    const p = this.catalog.project;
    if (!p) {
      this.message = { text: "no project here: no .mind/ directory in this directory or above", kind: "error" };
      return;
    }
    const refusal = this.#storeRefusal();
    if (refusal !== null) {
      this.message = { text: refusal, kind: "error" };
      return;
    }
    const res = await writeProjectTrust(this.catalog.userConfigPath, p.root, p.trusted ? null : "trusted");
    if (!res.ok) {
      this.message = { text: writeErrorLine(res.error), kind: "error" };
      return;
    }
    await this.reload();
    const shown = this.view.project?.shown ?? p.root;
    if (p.trusted) {
      this.message = { text: `untrusted project ${shown}: its hooks are no longer loaded`, kind: "info" };
      return;
    }
    // Said from what was loaded, so the message and the header count agree.
    this.message = { text: `trusted project ${shown}: ${projectHooksWords(this.view, p.root)}`, kind: "info" };
  }
}
