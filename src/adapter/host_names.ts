/**
 * The host registry: the agent hosts whose own hook protocol mind-hooks speaks (adapter mode), as
 * `--protocol` and `install` spell them, and their display names. Import-free, so that the command
 * line and the sandbox plan can name the hosts without loading an adapter. Adding a host is its own
 * `src/adapter/<host>.ts`, a line here and one in `hosts.ts`' `ADAPTERS`, and the help.
 * @module
 */

/** The hosts, as `--protocol` and `install` spell them. */
export const HOSTS = ["claude", "codex", "gemini", "copilot"] as const;

/** A host whose hook protocol mind-hooks speaks. */
export type Host = typeof HOSTS[number];

/** A host's display name, for messages. */
export const HOST_DISPLAY_NAMES: Readonly<Record<Host, string>> = Object.freeze({
  claude: "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  copilot: "Copilot CLI",
});

/** True when `name` is a host's `--protocol` name. */
export function isHost(name: unknown): name is Host {
  return (HOSTS as readonly unknown[]).includes(name);
}
