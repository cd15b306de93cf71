/**
 * The files of one file-based layer (SPEC §2.1, §2.8): reading a layer directory's files with the real
 * path check of SPEC §3.6, and the checks every such file gets (a standalone hooks.json's root, state a
 * layer may not hold).
 * @module
 */
import type { Dialect } from "../events/types.ts";
import type { Layer } from "../schema/handler.ts";
import { loadConfigFile } from "./files.ts";
import { outsideRootWarning, type Warning, warning } from "./warnings.ts";
import { isInside, join, realPathOr } from "../util/paths.ts";
import { isObject, type JsonObject } from "../util/json.ts";
import { collectHandlers, type DiscoveredHandler } from "./handlers.ts";
import { DIALECTS } from "../dialect/registry.ts";

/** Settings keys of the `[hooks]` table in config.toml / requirements.toml that are not events. */
export const HOOKS_SETTINGS: ReadonlySet<string> = new Set([
  "state",
  "stop_block_cap",
  "managed_dir",
  "windows_managed_dir",
  "foreign_layers",
  "require_pins",
  // Settings of r4 (SPEC §2.2): never read as events, whoever reads them.
  "model",
  "allowed_http_hook_urls",
  "record",
  "record_redact",
  "daemon",
]);

/** Recorded events' settings (SPEC §16): the `record_redact` patterns. */
export type RecordSetting = { redact: string[] };

/**
 * `[hooks] record = true` in the user config.toml (SPEC §16), with its `record_redact` patterns, or null: no
 * project, profile or `-c` can switch it on; `-c hooks.record=false` switches it off for one process (test runs).
 */
export function recordSetting(userToml: JsonObject | undefined, cli: JsonObject): RecordSetting | null {
  const user = isObject(userToml?.hooks) ? userToml.hooks : undefined;
  if (user?.record !== true || (isObject(cli.hooks) && cli.hooks.record === false)) return null;
  const redact = Array.isArray(user.record_redact) ? user.record_redact : [];
  return { redact: redact.filter((x): x is string => typeof x === "string") };
}

/** The file layers the user writes: the user, its foreign ones, the profile (src/config/fast_path_guard.ts). */
export const USER_SIDE_LAYERS: ReadonlySet<Layer> = new Set([
  "user",
  "claude-user",
  "codex-user",
  "gemini-user",
  "copilot-user",
  "profile",
]);

/** One loaded file of a layer. */
export type LayerFile = {
  layer: Layer;
  /** Its real path (the key path of its hooks). */
  path: string;
  kind: "toml" | "json";
  data: JsonObject;
  /** How its hooks' output is read (SPEC §8.1). */
  dialect: Dialect;
  /**
   * A foreign host's settings file (`.claude/settings.json`, SPEC §2.8): only its `hooks` is read;
   * everything else in it is that host's business, so nothing else is checked or warned about.
   */
  hooksOnly: boolean;
  /** A Gemini CLI extension's hooks file: the extension folder its commands name (`${extensionPath}`). */
  extensionPath?: string;
};

/** The files a layer directory may hold, in configuration order. */
export type LayerFileNames = readonly (readonly [name: string, kind: "toml" | "json"])[];

/** mind's own layer files: config.toml before hooks.json (SPEC §2.1). */
export const MIND_LAYER_FILES: LayerFileNames = [["config.toml", "toml"], ["hooks.json", "json"]];

/** How a layer directory is read. */
export type LayerDirOptions = {
  /** A real root: a file whose real path leaves it is skipped with W_OUTSIDE_ROOT. */
  within?: string;
  names?: LayerFileNames;
  dialect?: Dialect;
  hooksOnly?: boolean;
};

/**
 * Loads the files of one layer directory. With `within` (a real root), a file whose real path leaves
 * it is skipped with W_OUTSIDE_ROOT. Keys use the real path; the file is read through its own path
 * (the sandbox grants the layer folder, not every link target). A link swapped between the check and
 * the read cannot lend trust: whatever is read is hashed under this root's key.
 */
export async function loadLayerDir(
  layer: Layer,
  dir: string,
  files: string[],
  warnings: Warning[],
  opts: LayerDirOptions = {},
): Promise<LayerFile[]> {
  const out: LayerFile[] = [];
  for (const [name, kind] of opts.names ?? MIND_LAYER_FILES) {
    const path = join(dir, name);
    files.push(path);
    const real = await realPathOr(path);
    if (opts.within !== undefined && !isInside(opts.within, real)) {
      warnings.push(outsideRootWarning(path, real, "project"));
      continue;
    }
    // The user's config.toml is the trust store, the one file mind writes: a link to a file not there yet
    // (a dotfile manager's) is where its first write lands (SPEC §3.3 r3), so it reads as empty. Every
    // hooks file a person writes keeps the r4 rule: a dangling link is a broken file (SPEC §2.2 r4).
    const danglingIsAbsent = layer === "user" && name === "config.toml";
    const loaded = await loadConfigFile(path, kind, { danglingIsAbsent });
    if (loaded.ok) {
      out.push({
        layer,
        path: real,
        kind,
        data: loaded.value.data,
        dialect: opts.dialect ?? "mind",
        hooksOnly: opts.hooksOnly ?? false,
      });
      warnings.push(...loaded.value.warnings);
    } else if (!loaded.error.missing) warnings.push(loaded.error.warning);
  }
  const toml = out.find((f) => f.kind === "toml");
  if (
    toml && isObject(toml.data.hooks) &&
    Object.keys(toml.data.hooks).some((k) => !HOOKS_SETTINGS.has(k)) &&
    out.some((f) => f.kind === "json")
  ) {
    warnings.push(
      warning(
        "W_BOTH_REPRESENTATIONS",
        "both config.toml [hooks] and hooks.json define hooks here; both are loaded (keep one)",
        dir,
      ),
    );
  }
  return out;
}

/** Checks the root of a standalone hooks.json: only `description` and `hooks`. */
export function checkHooksJsonRoot(f: LayerFile, warnings: Warning[]): void {
  if (f.hooksOnly) return;
  for (const k of Object.keys(f.data)) {
    if (k !== "description" && k !== "hooks") {
      warnings.push(
        warning(
          "W_UNKNOWN_FIELD",
          `unknown root field ${JSON.stringify(k)} ignored (hooks.json accepts description and hooks)`,
          f.path,
          { path: [k] },
        ),
      );
    }
  }
  if (
    f.data.description !== undefined && typeof f.data.description !== "string"
  ) {
    warnings.push(
      warning("W_BAD_FIELD", "description must be a string", f.path, { path: ["description"] }),
    );
  }
}

/** Warns about state a layer is not allowed to hold (it is never read from there). */
export function stripForeignState(f: LayerFile, warnings: Warning[]): void {
  const hooks = isObject(f.data.hooks) ? f.data.hooks : undefined;
  if (hooks && hooks.state !== undefined) {
    warnings.push(
      warning(
        "W_STATE_NOT_AUTHORITATIVE",
        `hook state in the ${f.layer} layer is ignored: only the user config.toml (or -c) can trust or disable hooks`,
        f.path,
        { path: ["hooks", "state"] },
      ),
    );
  }
  if (f.data.projects !== undefined && f.layer !== "user" && !f.hooksOnly) {
    warnings.push(
      warning(
        "W_STATE_NOT_AUTHORITATIVE",
        `project trust in the ${f.layer} layer is ignored: only the user config.toml (or -c) can trust a project`,
        f.path,
        { path: ["projects"] },
      ),
    );
  }
}

/**
 * The checks of one user, profile, project or foreign-layer file on its own, and its handlers: the
 * root of a hooks.json, state a layer may not hold, then every group and handler. Discovery runs them
 * on every file it loads and `validate FILE` on the files it is given, so one problem gets one code
 * and one sentence everywhere.
 */
export function checkLayerFile(f: LayerFile): { handlers: DiscoveredHandler[]; warnings: Warning[] } {
  const warnings: Warning[] = [];
  if (f.layer !== "user") stripForeignState(f, warnings);
  if (f.kind === "json") {
    checkHooksJsonRoot(f, warnings);
    if (f.layer === "user" && isObject(f.data.hooks) && f.data.hooks.state !== undefined) {
      warnings.push(
        warning("W_STATE_NOT_AUTHORITATIVE", "hook state belongs in config.toml, not hooks.json; ignored", f.path, {
          path: ["hooks", "state"],
        }),
      );
    }
  }
  const reserved = f.kind === "toml" ? HOOKS_SETTINGS : new Set(["state"]);
  let hooks = isObject(f.data.hooks) ? f.data.hooks : undefined;
  // A host's own hooks (Gemini CLI, Copilot CLI) in mind's form first; what cannot run is named (SPEC §2.8 r4).
  const translate = DIALECTS[f.dialect].translate;
  const translated = hooks && translate ? translate(hooks, ["hooks"], { extensionPath: f.extensionPath }) : null;
  if (translated) {
    hooks = translated.hooks;
    for (const n of translated.notes) warnings.push(warning(n.code, n.message, f.path, { path: n.path }));
  }
  const r = collectHandlers(hooks, {
    layer: f.layer,
    keyPath: f.path,
    reservedKeys: reserved,
    dialect: f.dialect,
    // A foreign host's own mind-hooks entry would run every hook a second time (SPEC §2.8).
    skipDelegation: f.hooksOnly,
    ...(translated ? { pathOf: translated.pathOf } : {}),
  });
  warnings.push(...r.warnings);
  return { handlers: r.handlers, warnings };
}
