/**
 * `mind-hooks project trust|untrust|status [DIR]` (SPEC §2.3): the trust of a
 * project's `.mind/` layer, stored as `[projects."<real path>"] trust_level`
 * in the user config.toml.
 * @module
 */
import { printResync } from "./state.ts";
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf } from "../engine/settings.ts";
import { findProjectRoot, loadCatalog, projectLayerEscape, projectSearchOf } from "../config/discovery.ts";
import { checkPins, isProjectRooted } from "../config/pinning.ts";
import { assessTrust } from "../trust/verdict.ts";
import { absolute, join } from "../util/paths.ts";
import { writeProjectTrust } from "../state/state_writer.ts";
import { writeErrorLine } from "../trust/actions.ts";
import { problemLine, trustStoreRefusal } from "../config/problems.ts";
import { sanitize } from "../util/terminal_text.ts";

/** Runs the command. */
export async function projectCommand({ options, positionals }: ParsedArgs): Promise<number> {
  const [action, dirArg, ...extra] = positionals;
  // The command table has checked the action (src/cli/commands.ts).
  if (extra.length) throw new UsageError("project takes at most one DIR");
  const settings = cliSettings(options);
  const processCwd = settings.processCwd;
  const dir = absolute(dirArg ?? (options.cwd as string | undefined) ?? processCwd, processCwd);
  try {
    await Deno.stat(dir);
  } catch {
    throw new UsageError(`no such directory: ${dir}`);
  }
  const cfg = configOptionsOf(settings, dir);
  const root = await findProjectRoot(dir, cfg.home, await projectSearchOf(cfg));
  if (!root) {
    throw new UsageError(
      `no project found: neither ${dir} nor any parent holds a .mind/, .claude/ or .codex/ directory`,
    );
  }
  const loaded = await loadCatalog(cfg);
  if (!loaded.ok) throw new UsageError(loaded.error);
  const catalog = loaded.value;
  if (action === "status") {
    const p = catalog.project!;
    // No trust advice while the trust store cannot be read (SPEC §6): only the fix of the file.
    const advice = catalog.trustStoreProblem !== null
      ? ` (${problemLine(catalog.trustStoreProblem, catalog)})`
      : ` (run: mind-hooks project trust ${p.root})`;
    console.log(sanitize(`${p.root}: ${p.trusted ? "trusted" : `not trusted${advice}`}`));
    return 0;
  }
  if (catalog.trustStoreProblem !== null) throw new UsageError(trustStoreRefusal(catalog.trustStoreProblem, catalog));
  // A .mind that leads elsewhere would lend this folder another project's hooks (SPEC §3.6).
  const escape = action === "trust" ? await projectLayerEscape(root) : null;
  if (escape) throw new UsageError(`W_OUTSIDE_ROOT ${escape}; not trusted`);
  const res = await writeProjectTrust(join(cfg.home, "config.toml"), root, action === "trust" ? "trusted" : null);
  if (!res.ok) throw new UsageError(writeErrorLine(res.error));
  console.log(sanitize(`${action === "trust" ? "trusted" : "untrusted"} project ${root}`));
  if (action === "trust") {
    // Said from what now loads, so it agrees with list and review.
    const after = await loadCatalog(cfg);
    // Every layer of the project (its .mind/ and its foreign layers), with their pinned files checked.
    const own = after.ok ? after.value.handlers.filter((h) => isProjectRooted(h.layer)) : [];
    const verdicts = after.ok ? assessTrust(after.value, own, await checkPins(own, { home: after.value.home })) : null;
    const pending = own.filter((h) => {
      const status = verdicts?.get(h.key)?.status;
      return status === "untrusted" || status === "modified";
    }).length;
    console.log(
      own.length === 0
        ? "none of its hooks is loaded (mind-hooks list shows why)"
        : pending === 0
        ? `its ${own.length === 1 ? "hook is" : `${own.length} hooks are`} trusted already`
        : `${pending} of its hooks need${
          pending === 1 ? "s" : ""
        } review: mind-hooks review (or mind-hooks trust KEY...)`,
    );
    await printResync(settings);
  }
  return 0;
}
