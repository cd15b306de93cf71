/**
 * `mind-hooks trust KEY...|--all [--layer L]`, `untrust`, `enable`,
 * `disable` (SPEC §1, §3.3). Unknown keys and managed hooks are clear errors
 * with nothing written.
 * @module
 */
import { MissingArgument, type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, type HomeSettings, searchStart } from "../engine/settings.ts";
import { join } from "../util/paths.ts";
import { loadCatalog } from "../config/discovery.ts";
import { applyAction, resolveKeys, type TrustAction, type TrustItem } from "../trust/actions.ts";
import { LAYERS } from "../trust/hash.ts";
import { sanitize } from "../util/terminal_text.ts";
import { checkPins } from "../config/pinning.ts";
import { assessTrust } from "../trust/verdict.ts";
import { trustStoreRefusal } from "../config/problems.ts";
import { didYouMean } from "../util/suggest.ts";
import { unpinnableMark } from "../review/catalog_view.ts";

async function stateCommand(action: TrustAction, { options, positionals }: ParsedArgs): Promise<number> {
  const settings = cliSettings(options);
  const loaded = await loadCatalog(configOptionsOf(settings, searchStart(settings)));
  if (!loaded.ok) throw new UsageError(loaded.error);
  const catalog = loaded.value;
  // SPEC §6: with the trust store unreadable nothing can be written; say what to fix, once.
  if (catalog.trustStoreProblem !== null) throw new UsageError(trustStoreRefusal(catalog.trustStoreProblem, catalog));
  const layer = options.layer as string | undefined;
  if (layer !== undefined && !(LAYERS as readonly string[]).includes(layer)) {
    throw new UsageError(`--layer must be one of ${LAYERS.join(", ")}${didYouMean(layer, LAYERS)}`);
  }
  let keys = positionals;
  if (options.all) {
    if (positionals.length) throw new UsageError("give either KEY... or --all, not both");
    // A hook is `trusted` only once its pinned files are checked (SPEC §3.5).
    const verdicts = assessTrust(catalog, catalog.handlers, await checkPins(catalog.handlers));
    keys = catalog.handlers
      .filter((h) => h.layer !== "managed" && (layer === undefined || h.layer === layer))
      .filter((h) => action !== "trust" || verdicts.get(h.key)!.status !== "trusted")
      .map((h) => h.key);
    if (keys.length === 0) {
      console.log(`nothing to ${action}`);
      return 0;
    }
  } else if (keys.length === 0) {
    throw new MissingArgument(`${action} needs KEY... or --all`);
  }
  // A project key names its project: trust it from anywhere, not only from inside the project.
  for (const key of keys) {
    const m = PROJECT_KEY.exec(key);
    if (m && !catalog.handlers.some((h) => h.key === key) && m[1] !== catalog.project?.root) {
      const other = await loadCatalog(configOptionsOf(settings, m[1]));
      if (other.ok) catalog.handlers.push(...other.value.handlers.filter((h) => PROJECT_LAYERS.has(h.layer)));
    }
  }
  const resolved = resolveKeys(catalog, keys);
  if (!resolved.ok) throw new UsageError(resolved.error);
  const res = await applyAction(catalog, action, resolved.value);
  if (!res.ok) throw new UsageError(res.error);
  // A key holds a file path: it is printed escaped (SPEC §15), and given back unescaped to untrust.
  if (action === "trust" && options.all) {
    // SPEC §14 r3: the summary, then one line per hook (key tail and command), not each one's details.
    const { allTrustedLines } = await import("./trust_all.ts");
    console.log((await allTrustedLines(catalog, res)).map(sanitize).join("\n"));
    for (const r of res.refused) console.error(sanitize(`mind-hooks: not trusted: ${r.key}: ${r.reason}`));
    await printResync(settings);
    return res.refused.length > 0 ? 1 : 0;
  }
  if (action === "trust") {
    for (const item of res.items) console.log(trustedLines(item).map(sanitize).join("\n"));
    // The other keys are trusted; each refused one is named, and the command fails (SPEC §3.5).
    for (const r of res.refused) console.error(sanitize(`mind-hooks: not trusted: ${r.key}: ${r.reason}`));
    await printResync(settings);
    return res.refused.length > 0 ? 1 : 0;
  }
  const past = { untrust: "untrusted", enable: "enabled", disable: "disabled" }[action];
  for (const h of resolved.value) console.log(sanitize(`${past} ${h.key}`));
  await printResync(settings);
  return 0;
}

/**
 * Keeps every recorded `install --sync` in step after a change of trust (SPEC §6 r3): one line per
 * install re-synced (src/adapter/resync.ts, loaded only when an install is recorded).
 */
export async function printResync(settings: HomeSettings): Promise<void> {
  try {
    await Deno.stat(join(settings.home, "installs.json"));
  } catch {
    return;
  }
  const { resyncInstalls } = await import("../adapter/resync.ts");
  for (const line of await resyncInstalls(settings)) console.log(sanitize(line));
}

/** A project layer's key (`.mind/`, or a foreign layer's files, SPEC §2.8): group 1 is the project root. */
const PROJECT_KEY =
  /^(?:project|claude-project|codex-project):(.*)[\\/](?:\.mind[\\/](?:hooks\.json|config\.toml)|\.claude[\\/]settings(?:\.local)?\.json|\.codex[\\/](?:hooks\.json|config\.toml)):/;
const PROJECT_LAYERS: ReadonlySet<string> = new Set([
  "project",
  "claude-project",
  "codex-project",
  "gemini-project",
  "copilot-project",
]);

/** What `trust` prints for one hook: its key and hash, then each pinned file, then a network note. */
function trustedLines(item: TrustItem): string[] {
  const lines = [`trusted ${item.handler.key} ${item.hash}`];
  for (const [path, hash] of Object.entries(item.files ?? {})) lines.push(`  pinned ${path} ${hash}`);
  if (item.fetch !== null) {
    lines.push(`  note: it fetches from the network at run time (${item.fetch}); what it fetches is not pinned`);
  }
  if (item.unpinnable !== null) {
    lines.push(`  ${unpinnableMark(item.unpinnable)} (only the files above are pinned)`);
  }
  return lines;
}

/** `trust`. */
export const trustCommand = (args: ParsedArgs) => stateCommand("trust", args);
/** `untrust`. */
export const untrustCommand = (args: ParsedArgs) => stateCommand("untrust", args);
/** `enable`. */
export const enableCommand = (args: ParsedArgs) => stateCommand("enable", args);
/** `disable`. */
export const disableCommand = (args: ParsedArgs) => stateCommand("disable", args);
