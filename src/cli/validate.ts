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
import { type ParsedArgs, UsageError } from "../util/args.ts";
import { cliSettings } from "./context.ts";
import { configOptionsOf, searchStart } from "../engine/settings.ts";
import { loadCatalog, projectLayerEscape } from "../config/discovery.ts";
import { checkLayerFile, type LayerFile, loadLayerDir } from "../config/layer_files.ts";
import { loadConfigFile } from "../config/files.ts";
import { DROPPING_CODES, formatWarning, type Warning, warning, type WarningCode } from "../config/warnings.ts";
import { absolute, join, realPathOr } from "../util/paths.ts";
import { PositionIndex } from "../config/positions.ts";
import { sanitize } from "../util/terminal_text.ts";
import { misspelledName } from "../config/misspellings.ts";

/** Codes that make a file invalid (exit 1): it did not load, or part of it was skipped. */
export const ERROR_CODES: ReadonlySet<WarningCode> = DROPPING_CODES;

/**
 * Checks one file on its own, with discovery's own per-file checks (so a problem gets the same
 * code and sentence as in `list` and the dispatch result). `layer` is where it sits when known:
 * state in a profile or project file is reported as not authoritative, like discovery does; a
 * file given on the command line is checked as a user file. Returns null when the file does not
 * exist and `missingOk`.
 */
export async function validateFile(
  path: string,
  kind: "toml" | "json",
  layer: "user" | "profile" | "project" | null,
  missingOk = false,
): Promise<Warning[] | null> {
  const loaded = await loadConfigFile(path, kind);
  if (!loaded.ok) {
    if (loaded.error.missing) return missingOk ? null : [warning("W_UNREADABLE", "file not found", path)];
    return [loaded.error.warning];
  }
  const source = await realPathOr(path);
  const file: LayerFile = {
    layer: layer ?? "user",
    path: source,
    kind,
    data: loaded.value.data,
    dialect: "mind",
    hooksOnly: false,
  };
  return [...loaded.value.warnings.map((w) => ({ ...w, source })), ...checkLayerFile(file).warnings];
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
    const loaded = await loadCatalog(configOptionsOf(settings, searchStart(settings)));
    if (!loaded.ok) throw new UsageError(loaded.error);
    const catalog = loaded.value;
    warnings = [...catalog.warnings];
    const files = new Set<string>();
    for (const f of catalog.files) if (await isFile(f)) files.add(f);
    // An untrusted project's files are not read by discovery; validation reads them the way
    // discovery reads a trusted project's (nothing runs), and not at all when its `.mind` leads
    // outside the project (discovery has said so: W_OUTSIDE_ROOT).
    if (catalog.project && !catalog.project.trusted && (await projectLayerEscape(catalog.project.root)) === null) {
      const root = catalog.project.root;
      const seen: string[] = [];
      for (const f of await loadLayerDir("project", join(root, ".mind"), seen, warnings, { within: root })) {
        warnings.push(...checkLayerFile(f).warnings);
      }
      for (const f of seen) if (await isFile(f)) files.add(f);
    }
    checked = files.size;
  }
  warnings = await new PositionIndex().enrich(warnings);
  // A misspelled event or field loses a guard as surely as a dropped handler (SPEC §2.2 r4).
  const errors = warnings.filter((w) => ERROR_CODES.has(w.code) || misspelledName(w) !== null).length;
  for (const w of warnings) console.error(sanitize(formatWarning(w)));
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  console.log(sanitize(
    `${plural(checked, "file")} checked: ${plural(errors, "error")}, ${plural(warnings.length - errors, "warning")}${
      errors ? "" : " — ok"
    }`,
  ));
  return errors ? 1 : 0;
}
