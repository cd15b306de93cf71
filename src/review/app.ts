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
import type { Catalog } from "../config/discovery.ts";
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
import { writeProjectTrust } from "../trust/state_writer.ts";
import { COPY_FILE_MAX, readTrusted, type TrustedDefinition } from "../trust/trusted_store.ts";
import { trustStoreRefusal } from "../config/problems.ts";
import { buildView, type CatalogView, type HookView } from "./catalog_view.ts";
import type { Key } from "./keys.ts";
import { lastRuns, type LogRecord } from "../log/observation.ts";

/**
 * A trust waiting for the user's answer (SPEC §14): the keys asked for (one hook, or all needing
 * review) and the plan shown — exactly what `y` writes, if it is still what is on disk then.
 */
export type Confirmation = {
  keys: string[];
  plan: TrustPlan;
  /** First row of the confirmation shown (it scrolls). */
  top: number;
  /** What it shows was re-read because the disk changed after it was first shown. */
  changed: boolean;
};

/** A pinned file's text now (for a diff), or why it cannot be shown. */
export type FileText = { text: string | null; unavailable: string | null };

/** A line for the message bar. */
export type Message = { text: string; kind: "info" | "error" };

/** Loads the catalog again (from disk, with the same options as at start). */
export type CatalogLoader = () => Promise<Catalog | { error: string }>;

/** How many rows one page of the list and of the details pane holds, for the page keys. */
export type PageSizes = { list: number; details: number };

/** The review session. */
export class ReviewApp {
  /** The catalog the screen shows. */
  catalog: Catalog;
  /** Its view model. */
  view: CatalogView;
  /** Index of the selected hook in `view.hooks`. */
  selected = 0;
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
  /** Set when the user quits: the exit code. */
  exitCode: number | null = null;
  #load: CatalogLoader;

  private constructor(catalog: Catalog, view: CatalogView, load: CatalogLoader) {
    this.catalog = catalog;
    this.view = view;
    this.#load = load;
  }

  /** Loads the catalog and builds the first screen's state. */
  static async create(load: CatalogLoader): Promise<ReviewApp | { error: string }> {
    const catalog = await load();
    if ("error" in catalog) return catalog;
    const app = new ReviewApp(catalog, await buildView(catalog), load);
    await app.#loadCopies();
    await app.#loadRuns();
    return app;
  }

  /** The selected hook, if any. */
  get current(): HookView | undefined {
    return this.view.hooks[this.selected];
  }

  async #loadRuns(): Promise<void> {
    this.lastRuns = await lastRuns(this.catalog.home, new Set(this.view.hooks.map((h) => h.key)));
  }

  async #loadCopies(): Promise<void> {
    this.trustedCopies.clear();
    this.currentFiles.clear();
    for (const h of this.view.hooks) {
      if (h.status !== "modified") continue;
      this.trustedCopies.set(h.key, await readTrusted(this.catalog.home, h.key));
      const root = h.handler.pins?.scope.root;
      const changed = h.pinned?.files.filter((f) => f.state === "changed" || f.state === "added") ?? [];
      if (root === undefined || changed.length === 0) continue;
      const texts = new Map<string, FileText>();
      for (const f of changed) texts.set(f.path, await readText(`${root}/${f.path}`));
      this.currentFiles.set(h.key, texts);
    }
  }

  /** Re-reads everything from disk; the selection follows its hook by key. */
  async reload(): Promise<void> {
    const key = this.current?.key;
    const catalog = await this.#load();
    if ("error" in catalog) {
      this.message = { text: catalog.error, kind: "error" };
      return;
    }
    this.catalog = catalog;
    this.view = await buildView(catalog);
    await this.#loadCopies();
    await this.#loadRuns();
    const idx = key === undefined ? -1 : this.view.hooks.findIndex((h) => h.key === key);
    this.selected = idx >= 0 ? idx : Math.max(0, Math.min(this.selected, this.view.hooks.length - 1));
  }

  #move(to: number): void {
    const max = this.view.hooks.length - 1;
    const next = Math.max(0, Math.min(max, to));
    if (next !== this.selected) this.detailTop = 0;
    this.selected = next;
  }

  /** Handles one key; `pages` says how many rows a page of the list and of the details holds. */
  async handle(key: Key, pages: PageSizes): Promise<void> {
    // The confirmation of a trust takes every key until it is answered (SPEC §14).
    if (this.confirm !== null) return await this.#handleConfirm(key, pages.details);
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
        return this.#move(this.view.hooks.length - 1);
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
      case "A":
        return await this.#trustAll();
      case "p":
        return await this.#projectAction();
      case "r":
        await this.reload();
        this.message = { text: "reloaded from disk", kind: "info" };
        return;
      case "q":
      case "ctrl-d":
        this.exitCode = 0;
        return;
      case "ctrl-c":
        this.exitCode = 130;
        return;
    }
  }

  /** Keys while a confirmation is open: y/Enter trusts, n/Esc cancels, the rest scroll. */
  async #handleConfirm(key: Key, page: number): Promise<void> {
    const c = this.confirm!;
    switch (key) {
      case "y":
      case "Y":
      case "enter":
        return await this.#confirmTrust();
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

  /** The trust store's refusal when it cannot be read (SPEC §6), else null. */
  #storeRefusal(): string | null {
    return this.catalog.trustStore === null ? null : trustStoreRefusal(this.catalog.trustStore, this.catalog);
  }

  /** `t`: ask before trusting the selected hook (SPEC §14). */
  async #askTrust(): Promise<void> {
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
    if ("error" in resolved) {
      this.message = { text: resolved.error, kind: "error" };
      return;
    }
    const plan = await planTrust(resolved.handlers);
    if (plan.items.length === 0) {
      this.message = {
        text: `not trusted: ${plan.refused.map((r) => `${r.key}: ${r.reason}`).join("; ")}`,
        kind: "error",
      };
      return;
    }
    this.confirm = { keys, plan, top: 0, changed: false };
    this.message = null;
  }

  /**
   * `y`: trusts what the confirmation shows — after reading the disk again. If a definition or a
   * pinned file changed since it was shown, nothing is written and the new state is shown instead.
   */
  async #confirmTrust(): Promise<void> {
    const shown = this.confirm!;
    const fresh = await this.#load();
    if ("error" in fresh) {
      this.message = { text: fresh.error, kind: "error" };
      return;
    }
    const resolved = resolveKeys(fresh, shown.keys);
    if ("error" in resolved) {
      // A hook shown is gone from its file: there is nothing left to trust as shown.
      this.confirm = null;
      await this.reload();
      this.message = { text: `changed since it was shown: ${resolved.error}`, kind: "error" };
      return;
    }
    const plan = await planTrust(resolved.handlers);
    if (!samePlan(plan, shown.plan)) {
      this.catalog = fresh;
      this.view = await buildView(fresh);
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
    const what = n === 1 ? `trusted ${res.items[0].handler.key}` : `trusted ${n} hooks`;
    const disabled = res.items.some((i) => !i.handler.enabled) ? " (still disabled: e enables it)" : "";
    const refused = res.refused.length > 0 ? `; not trusted: ${res.refused.map((r) => r.key).join(", ")}` : "";
    this.message = { text: `${what}${disabled}${refused}`, kind: res.refused.length > 0 ? "error" : "info" };
  }

  async #hookAction(action: TrustAction): Promise<void> {
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
    const already = {
      trust: h.status === "trusted",
      untrust: h.status === "untrusted",
      enable: h.enabled,
      disable: !h.enabled,
    }[action];
    if (already) {
      const state = { trust: "trusted", untrust: "not trusted", enable: "enabled", disable: "disabled" }[action];
      this.message = { text: `already ${state}: nothing to change`, kind: "info" };
      return;
    }
    const refusal = this.#storeRefusal();
    if (refusal !== null) {
      this.message = { text: refusal, kind: "error" };
      return;
    }
    const resolved = resolveKeys(this.catalog, [h.key]);
    if ("error" in resolved) {
      this.message = { text: resolved.error, kind: "error" };
      return;
    }
    const res = await applyAction(this.catalog, action, resolved.handlers);
    if (!res.ok) {
      this.message = { text: res.error, kind: "error" };
      return;
    }
    const past = { trust: "trusted", untrust: "untrusted", enable: "enabled", disable: "disabled" }[action];
    await this.reload();
    this.message = { text: `${past} ${h.key}`, kind: "info" };
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
    if (p.trusted) {
      this.message = { text: `untrusted project ${p.root}: its hooks are no longer loaded`, kind: "info" };
      return;
    }
    // Said from what was loaded, so the message and the header count agree.
    const own = this.view.hooks.filter((h) => h.layer === "project");
    const pending = own.filter((h) => h.status === "untrusted" || h.status === "modified").length;
    const broken = this.view.dropped.some((w) => w.source.startsWith(`${p.root}/`));
    const what = own.length === 0
      ? `none of its hooks is loaded${broken ? ": its files have problems (the ✗ lines)" : ""}`
      : pending === 0
      ? `its ${own.length === 1 ? "hook is" : `${own.length} hooks are`} trusted already`
      : `${pending} of its hooks need${pending === 1 ? "s" : ""} review (t trusts one, A all)`;
    this.message = { text: `trusted project ${p.root}: ${what}`, kind: "info" };
  }
}

/** A file's text for a diff: UTF-8 text up to the copy size, else why it is not shown. */
async function readText(path: string): Promise<FileText> {
  try {
    const info = await Deno.stat(path);
    if (info.size > COPY_FILE_MAX) return { text: null, unavailable: `over ${COPY_FILE_MAX / 1024} KiB` };
    const text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(path));
    return text.includes("\0") ? { text: null, unavailable: "a binary file" } : { text, unavailable: null };
  } catch (e) {
    return { text: null, unavailable: e instanceof TypeError ? "a binary file" : "unreadable" };
  }
}
