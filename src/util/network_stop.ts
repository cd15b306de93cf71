/**
 * The fast path's stop for the network (SPEC §2.2 r4), import-free so that the launcher reads it without
 * loading the engine: a matched http or prompt hook needs the network, which the fast path revoked, or a
 * stranger's does. The launcher then plans the Worker's network: each such hook's host and port only.
 * @module
 */

/** The start of the reason of a run that stopped on the fast path for the network. */
export const NEEDS_NETWORK = "a hook that needs the network matched";

/** Whether a fast-path stop's reason was the network ({@link NEEDS_NETWORK}). */
export function needsNetwork(stop: { readonly sandbox: string }): boolean {
  return stop.sandbox.startsWith(NEEDS_NETWORK);
}
