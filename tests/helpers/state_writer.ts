/**
 * Shared by the trust-state writer's tests (tests/state_writer_test.ts, tests/state_writer_files_test.ts).
 * @module
 */

/** A `sha256:` hash made of one repeated hex digit. */
export const h = (d: string) => `sha256:${d.repeat(64)}`;

/** The TOML path of a hook's state table, or of one field of it. */
export const S = (k: string, f?: string) => f === undefined ? ["hooks", "state", k] : ["hooks", "state", k, f];

/** The value at `path` of a parsed TOML document, or undefined. */
export function lookup(root: unknown, path: string[]): unknown {
  let cur = root;
  for (const k of path) {
    if (typeof cur !== "object" || cur === null || !Object.hasOwn(cur, k)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** A fresh folder holding `config.toml` with `content` (absent when undefined). */
export async function tempConfig(content?: string | Uint8Array): Promise<{ dir: string; path: string }> {
  const dir = await Deno.makeTempDir({ prefix: "state_writer_" });
  const path = `${dir}/config.toml`;
  if (typeof content === "string") await Deno.writeTextFile(path, content);
  else if (content !== undefined) await Deno.writeFile(path, content);
  return { dir, path };
}
