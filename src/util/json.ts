/**
 * Small helpers for parsed JSON/TOML values whose keys a stranger chose.
 * @module
 */
import type { JsonObject } from "../events/types.ts";

/** A path to a value inside a parsed JSON or TOML document: object keys and array indexes. */
export type ValuePath = (string | number)[];

/** True for a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
