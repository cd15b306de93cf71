/**
 * `mind-hooks trust KEY...|--all [--layer L]`, `untrust`, `enable`,
 * `disable` (SPEC §1, §3.3). Unknown keys and managed hooks are clear errors
 * with nothing written.
 * @module
 */
import { MissingArgument, type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, searchStart } from "../engine/settings.ts";
import { loadCatalog } from "../config/discovery.ts";
import { applyAction, resolveKeys, type TrustAction } from "../trust/actions.ts";
import { LAYERS } from "../trust/hash.ts";
import { sanitize } from "../util/terminal_text.ts";
import { didYouMean } from "../util/suggest.ts";

async function stateCommand(action: TrustAction, { options, positionals }: ParsedArgs): Promise<number> {
  const settings = cliSettings(options);
  const catalog = await loadCatalog(configOptionsOf(settings, searchStart(settings)));
  if ("error" in catalog) throw new UsageError(catalog.error);
  const layer = options.layer as string | undefined;
  if (layer !== undefined && !(LAYERS as readonly string[]).includes(layer)) {
    throw new UsageError(`--layer must be one of ${LAYERS.join(", ")}${didYouMean(layer, LAYERS)}`);
  }
  let keys = positionals;
  if (options.all) {
    if (positionals.length) throw new UsageError("give either KEY... or --all, not both");
    keys = catalog.handlers
      .filter((h) => h.layer !== "managed" && (layer === undefined || h.layer === layer))
      .filter((h) => action !== "trust" || h.status !== "trusted")
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
    const m = /^project:(.*)[\\/]\.mind[\\/](?:hooks\.json|config\.toml):/.exec(key);
    if (m && !catalog.handlers.some((h) => h.key === key) && m[1] !== catalog.project?.root) {
      const other = await loadCatalog(configOptionsOf(settings, m[1]));
      if (!("error" in other)) catalog.handlers.push(...other.handlers.filter((h) => h.layer === "project"));
    }
  }
  const resolved = resolveKeys(catalog, keys);
  if ("error" in resolved) throw new UsageError(resolved.error);
  const res = await applyAction(catalog, action, resolved.handlers);
  if (!res.ok) throw new UsageError(res.error);
  const past = { trust: "trusted", untrust: "untrusted", enable: "enabled", disable: "disabled" }[action];
  // A key holds a file path: it is printed escaped (SPEC §15), and given back unescaped to untrust.
  for (const h of resolved.handlers) console.log(sanitize(`${past} ${h.key}${action === "trust" ? ` ${h.hash}` : ""}`));
  return 0;
}

/** `trust`. */
export const trustCommand = (args: ParsedArgs) => stateCommand("trust", args);
/** `untrust`. */
export const untrustCommand = (args: ParsedArgs) => stateCommand("untrust", args);
/** `enable`. */
export const enableCommand = (args: ParsedArgs) => stateCommand("enable", args);
/** `disable`. */
export const disableCommand = (args: ParsedArgs) => stateCommand("disable", args);
