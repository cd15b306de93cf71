/**
 * The guard of the dispatch fast path (SECURITY.md): the launcher decides, from the user's own
 * configuration, that a dispatch will parse no stranger's file and so may skip the sandbox Worker.
 * Between that decision and discovery the configuration or the project tree may change (a
 * `project trust` running at the same time, a `.mind` created or removed). So the decision is not
 * trusted alone: while the fast path runs, discovery calls {@link assertMayParseStrangerFile}
 * before it parses any file a stranger wrote (a project layer, a plugin, a `--hooks-file`), which
 * throws {@link FastPathRefused}; the launcher catches it and runs the command in the Worker instead.
 *
 * Tiny and import-free on purpose: discovery imports it on every run.
 * @module
 */

/** Thrown by discovery when the fast path is about to parse a stranger's file. */
export class FastPathRefused extends Error {
  override name = "FastPathRefused";
  /** @param what the layer or file that would have been parsed */
  constructor(readonly what: string) {
    super(`the dispatch fast path does not parse strangers' files (${what}); it runs in the sandbox`);
  }
}

let onFastPath = false;

/** Runs `run` as the fast path: every stranger's file discovery reaches throws {@link FastPathRefused}. */
export async function asFastPath<T>(run: () => Promise<T>): Promise<T> {
  onFastPath = true;
  try {
    return await run();
  } finally {
    onFastPath = false;
  }
}

/** Called by discovery before it parses a file a stranger wrote; throws on the fast path. */
export function assertMayParseStrangerFile(what: string): void {
  if (onFastPath) throw new FastPathRefused(what);
}
