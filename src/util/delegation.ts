/**
 * Recognising a command that hands a host's events to mind-hooks (`… dispatch --protocol <host>`), whatever
 * launcher runs it, bare or inside the fail-closed guard `install` writes around it (SPEC §6 r4,
 * src/adapter/guard.ts): `install` replaces and removes its own entries by it, `doctor` finds them, and
 * discovery skips a foreign layer's (src/config/handlers.ts), which would run every hook a second time.
 * @module
 */

/** The end of a host name: what follows it is no name character (a space, `;`, a quote, the end). */
const END = String.raw`(?![\w-])`;

/**
 * True when `command` delegates the events of `host` to mind-hooks; with no `host`, of any host but mind's
 * own protocol.
 */
export function isDelegation(command: unknown, host?: string): boolean {
  if (typeof command !== "string") return false;
  const name = host === undefined ? `(?!mind${END})[A-Za-z]+` : host;
  return new RegExp(String.raw`(^|[\s;'"])dispatch\s+(.*\s)?--protocol(\s+|=)${name}${END}`).test(command);
}
