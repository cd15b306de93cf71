/**
 * What `trust --all` prints (SPEC §14 r3): the summary the review's confirmation opens with (how many
 * hooks, their events and files, how many pinned files, every hook that fetches from the network or
 * cannot be pinned, by its full command), then one line per trusted hook — its key tail and its
 * command — rather than each hook's hash and pinned files (`trust KEY` prints those).
 * @module
 */
import type { Catalog, HookHandler } from "../config/discovery.ts";
import type { ActionResult } from "../trust/actions.ts";
import { buildView, handlerSummary } from "../review/catalog_view.ts";
import { summaryLines, trustSummary } from "../review/trust_summary.ts";

/** The lines of a `trust --all` that wrote `res`. */
export async function allTrustedLines(
  catalog: Catalog,
  res: ActionResult<HookHandler> & { ok: true },
): Promise<string[]> {
  const view = await buildView(catalog);
  const lines = summaryLines(trustSummary({ items: res.items, refused: res.refused }, view));
  const out = lines.map((l, i) => i === 0 ? `trusted ${l.text}` : l.kind === "item" ? `    ${l.text}` : `  ${l.text}`);
  const tails = new Map(view.hooks.map((h) => [h.key, h.tail]));
  for (const item of res.items) {
    out.push(`  ${tails.get(item.handler.key) ?? item.handler.key}  ${handlerSummary(item.handler)}`);
  }
  return out;
}
