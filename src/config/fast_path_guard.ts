/**
 * The guard of the dispatch fast path (SECURITY.md): a dispatch may start in the launcher's thread,
 * without the sandbox Worker, while nothing in reach but the user's, the administrator's and a
 * trusted project's files is parsed, and it must go to the Worker before a stranger's hook runs.
 * The launcher decides where a run starts from the user's own configuration, but the configuration
 * or the project tree may change before discovery runs (a `plugins` table added, a `.mind` created);
 * so the run itself checks again, as data: discovery with `strangerFiles: "refuse"` parses no plugin
 * and no `--hooks-file` and reports {@link StrangerRefusal} instead; the dispatch, after matching,
 * reports it for a matched hook a stranger wrote ({@link strangerWrote}), before anything is run,
 * written, logged or taken. Engine, CLI and adapter pass it up as their outcome (`SandboxNeeded`, in
 * src/engine/types.ts, with what the fast path prepared), and the launcher hands it to the Worker.
 * @module
 */
import type { Layer } from "../schema/handler.ts";
import { USER_SIDE_LAYERS } from "./layer_files.ts";

/** Whether a run may parse strangers' files it was not told about (plugins, `--hooks-file`) and run strangers' hooks. */
export type StrangerFiles = "parse" | "refuse";

/** Discovery's failure on the fast path: it parsed nothing of `what` (a failed `Result`, marked). */
export type StrangerRefusal = { readonly ok: false; readonly error: string; readonly sandbox: true };

/** The refusal of parsing `what` (a layer or a file) on the fast path. */
export function strangerRefusal(what: string): StrangerRefusal {
  return {
    ok: false,
    error: `the dispatch fast path does not parse strangers' files (${what}); it runs in the sandbox`,
    sandbox: true,
  };
}

/** Whether a failed load is the fast path's refusal (the run goes to the Worker), not a real failure. */
export function isStrangerRefusal(failure: { readonly ok: false; readonly error: string }): failure is StrangerRefusal {
  return (failure as Partial<StrangerRefusal>).sandbox === true;
}

/**
 * Whether a stranger wrote this hook: any layer but the user's own ones, the administrator's and the
 * user's `-c` overrides (a trusted project's, a plugin's, a `--hooks-file`'s). Such a hook never runs
 * outside the sandbox Worker.
 */
export function strangerWrote(h: { layer: Layer; sourcePath: string }): boolean {
  if (USER_SIDE_LAYERS.has(h.layer) || h.layer === "managed") return false;
  return !(h.layer === "cli" && h.sourcePath === "cli-override");
}
