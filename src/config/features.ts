/**
 * The feature switch (SPEC §2.4): `[features] hooks` (or the deprecated `codex_hooks`).
 *
 * Only config.toml files switch: a standalone hooks.json has no `features`. The user-side layers
 * (user, profile, -c) decide for everyone, the highest that sets it winning; a managed value pins
 * it over every layer. A project is a stranger's file: its `hooks = false` turns off its own hooks
 * only, and its `hooks = true` never turns on what a user-side or the managed layer turned off.
 * @module
 */
import { isObject, type JsonObject } from "../util/json.ts";
import { type Warning, warning } from "./warnings.ts";

/** Reads `[features] hooks` (or the deprecated `codex_hooks`) from one config. */
export function featureSwitch(
  data: JsonObject | undefined,
  source: string,
  warnings: Warning[],
): boolean | undefined {
  const features = data?.features;
  if (!isObject(features)) return undefined;
  if (typeof features.codex_hooks === "boolean") {
    warnings.push(
      warning("W_DEPRECATED_ALIAS", "features.codex_hooks is deprecated; use features.hooks", source, {
        path: ["features", "codex_hooks"],
      }),
    );
    if (typeof features.hooks !== "boolean") return features.codex_hooks;
  }
  if (features.hooks !== undefined && typeof features.hooks !== "boolean") {
    warnings.push(
      warning(
        "W_BAD_FIELD",
        `features.hooks must be true or false (got ${JSON.stringify(features.hooks)}); ignored`,
        source,
      ),
    );
  }
  return typeof features.hooks === "boolean" ? features.hooks : undefined;
}

/** The outcome of the switch: for everyone, and for the project's own hooks. */
export type FeatureState = { hooksEnabled: boolean; projectHooksOff: boolean };

/**
 * Decides the switch from the user-side config.toml data (lowest first: user, profile, -c), the
 * managed data and the project's config.toml (if loaded).
 */
export function decideFeatures(
  userSide: readonly [JsonObject | undefined, string][],
  managed: [JsonObject | undefined, string],
  project: [JsonObject, string] | null,
  warnings: Warning[],
): FeatureState {
  let chosen: boolean | undefined;
  for (const [data, source] of userSide) chosen = featureSwitch(data, source, warnings) ?? chosen;
  const pinned = featureSwitch(managed[0], managed[1], warnings);
  const hooksEnabled = pinned ?? chosen ?? true;
  const own = project ? featureSwitch(project[0], project[1], warnings) : undefined;
  if (own === false && pinned === undefined && hooksEnabled) {
    warnings.push(
      warning(
        "W_FEATURE_SCOPED",
        "[features] hooks = false in a project turns off this project's own hooks only; user, profile, managed, plugin and CLI hooks still run",
        project![1],
      ),
    );
    return { hooksEnabled, projectHooksOff: true };
  }
  if (own === true && !hooksEnabled) {
    warnings.push(
      warning(
        "W_FEATURE_SCOPED",
        "[features] hooks = true in a project cannot turn on hooks that the user, a profile, -c or the managed layer turned off",
        project![1],
      ),
    );
  }
  return { hooksEnabled, projectHooksOff: false };
}
