/**
 * `mind-hooks validate [FILE...]` (SPEC §1, §2.2): checks configuration files
 * and prints every warning on stderr with file, line and column; one summary
 * line on stdout. Exit 1 when any file has an error — it does not parse or
 * cannot be read, or a group or handler is skipped (W_BAD_*, W_EMPTY_COMMAND,
 * W_UNSUPPORTED_HANDLER); warnings alone exit 0.
 *
 * Without FILE it checks every file the catalog would read, including the
 * files of an untrusted project (validation reads them; nothing runs). With
 * FILEs each is checked by its kind: `.toml` as config.toml /
 * requirements.toml, anything else as a JSONC hooks.json.
 * @module
 */
import { isObject } from "../util/json.ts";
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, searchStart } from "../engine/settings.ts";
import { loadCatalog } from "../config/discovery.ts";
import { loadConfigFile } from "../config/files.ts";
import { collectHandlers } from "../config/handlers.ts";
import { formatWarning, type Warning, warning, type WarningCode } from "../config/warnings.ts";
import { absolute, join, realPathOr } from "../util/paths.ts";
import { PositionIndex } from "../review/positions.ts";
import { sanitize } from "../util/terminal_text.ts";

const HELP = `mind-hooks validate [FILE...] [options]

Checks configuration files and prints every warning (file:line:column) on
stderr and a one-line summary on stdout. Without FILE, checks every file the
catalog would read, including an untrusted project's .mind/ files. A FILE
ending in .toml is read as config.toml / requirements.toml, any other as a
hooks.json (JSON with comments). Exit 1 when any file has an error.

Options: --home DIR, --cwd DIR, --profile NAME, -c KEY=VALUE, --hooks-file FILE,
         --requirements FILE`;

/** Codes that make a file invalid (exit 1): it did not load, or part of it was skipped. */
export const ERROR_CODES: ReadonlySet<WarningCode> = new Set([
  "W_PARSE",
  "W_UNREADABLE",
  "W_BAD_MATCHER",
  "W_BAD_HANDLER",
  "W_BAD_GROUP",
  "W_BAD_FIELD",
  "W_EMPTY_COMMAND",
  "W_UNSUPPORTED_HANDLER",
]);

/** Keys of a TOML `[hooks]` table that are settings, not events (as discovery reads them). */
const TOML_HOOK_SETTINGS = new Set(["state", "stop_block_cap", "managed_dir", "windows_managed_dir"]);

/**
 * Checks one file on its own. `layer` is where it sits when known: state in a
 * profile or project file is reported as not authoritative, like discovery does.
 * Returns null when the file does not exist and `missingOk`.
 */
export async function validateFile(
  path: string,
  kind: "toml" | "json",
  layer: "user" | "profile" | "project" | null,
  missingOk = false,
): Promise<Warning[] | null> {
  const loaded = await loadConfigFile(path, kind);
  if (!loaded.ok) {
    if (loaded.missing) return missingOk ? null : [warning("W_UNREADABLE", "file not found", path)];
    return [loaded.warning];
  }
  const source = await realPathOr(path);
  const data = loaded.data;
  const warnings: Warning[] = loaded.warnings.map((w) => ({ ...w, source }));
  const hooks = data.hooks;
  if (kind === "json") {
    for (const k of Object.keys(data)) {
      if (k !== "description" && k !== "hooks") {
        warnings.push(
          warning(
            "W_UNKNOWN_FIELD",
            `unknown root field ${JSON.stringify(k)} ignored (hooks.json accepts description and hooks)`,
            source,
          ),
        );
      }
    }
    if (data.description !== undefined && typeof data.description !== "string") {
      warnings.push(warning("W_BAD_FIELD", "description must be a string", source));
    }
    if (isObject(hooks) && hooks.state !== undefined) {
      warnings.push(
        warning(
          "W_STATE_NOT_AUTHORITATIVE",
          "hook state belongs in the user config.toml, not hooks.json; ignored",
          source,
        ),
      );
    }
  } else if (layer === "profile" || layer === "project") {
    if (isObject(hooks) && hooks.state !== undefined) {
      warnings.push(
        warning(
          "W_STATE_NOT_AUTHORITATIVE",
          `hook state in the ${layer} layer is ignored: only the user config.toml (or -c) can trust or disable hooks`,
          source,
        ),
      );
    }
    if (data.projects !== undefined) {
      warnings.push(
        warning(
          "W_STATE_NOT_AUTHORITATIVE",
          `project trust in the ${layer} layer is ignored: only the user config.toml (or -c) can trust a project`,
          source,
        ),
      );
    }
  }
  const r = collectHandlers(hooks, {
    layer: layer ?? "user",
    keyPath: source,
    reservedKeys: kind === "toml" ? TOML_HOOK_SETTINGS : new Set(["state"]),
  });
  warnings.push(...r.warnings);
  return warnings;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** Runs the command. */
export async function validateCommand({ options, positionals }: ParsedArgs): Promise<number> {
  if (options.help) {
    console.log(HELP);
    return 0;
  }
  const processCwd = Deno.cwd();
  let warnings: Warning[] = [];
  let checked = 0;
  if (positionals.length) {
    for (const f of positionals) {
      const path = absolute(f, processCwd);
      const w = await validateFile(path, /\.toml$/i.test(path) ? "toml" : "json", null);
      warnings.push(...w!);
      checked++;
    }
  } else {
    const settings = cliSettings(options);
    const catalog = await loadCatalog(configOptionsOf(settings, searchStart(settings)));
    if ("error" in catalog) throw new UsageError(catalog.error);
    warnings = [...catalog.warnings];
    const files = new Set<string>();
    for (const f of catalog.files) if (await isFile(f)) files.add(f);
    // An untrusted project's files are not read by discovery; validation reads them (nothing runs).
    if (catalog.project && !catalog.project.trusted) {
      const dir = join(catalog.project.root, ".mind");
      let jsonLoaded = false;
      for (const [name, kind] of [["config.toml", "toml"], ["hooks.json", "json"]] as const) {
        const path = join(dir, name);
        const w = await validateFile(path, kind, "project", true);
        if (w === null) continue;
        files.add(path);
        warnings.push(...w);
        if (kind === "json") jsonLoaded = w.every((x) => x.code !== "W_PARSE" && x.code !== "W_UNREADABLE");
      }
      if (jsonLoaded && await tomlDefinesHooks(join(dir, "config.toml"))) {
        warnings.push(
          warning(
            "W_BOTH_REPRESENTATIONS",
            "both config.toml [hooks] and hooks.json define hooks here; both are loaded (keep one)",
            dir,
          ),
        );
      }
    }
    checked = files.size;
  }
  warnings = await new PositionIndex().enrich(warnings);
  const errors = warnings.filter((w) => ERROR_CODES.has(w.code)).length;
  for (const w of warnings) console.error(sanitize(formatWarning(w)));
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  console.log(sanitize(
    `${plural(checked, "file")} checked: ${plural(errors, "error")}, ${plural(warnings.length - errors, "warning")}${
      errors ? "" : " — ok"
    }`,
  ));
  return errors ? 1 : 0;
}

/** True when a (parsing) config.toml has event entries under `[hooks]`. */
async function tomlDefinesHooks(path: string): Promise<boolean> {
  const loaded = await loadConfigFile(path, "toml");
  if (!loaded.ok || !isObject(loaded.data.hooks)) return false;
  return Object.keys(loaded.data.hooks).some((k) => !TOML_HOOK_SETTINGS.has(k));
}
