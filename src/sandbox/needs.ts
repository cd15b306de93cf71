/**
 * What a command needs from its sandbox (SPEC §15), declared once by each command in its entry of
 * the command table (src/cli/commands.ts) and read by the plan (src/sandbox/plan.ts) and the launcher
 * (src/sandbox/launch.ts): a new command declares its needs beside its options, and neither of them
 * knows command names. Types only, so that the command table pays nothing for it.
 * @module
 */

/** The grants a command's own arguments add to its plan (each is worked out in src/sandbox/plan.ts). */
export type ArgumentGrants =
  /** the files named on the command line (validate) */
  | "files"
  /** the project named on the command line, and its marker chain (project) */
  | "project-dir"
  /** the host's settings folder, and the launcher's candidate files on PATH (install) */
  | "host-settings"
  /** the hosts' settings files, their commands and launchers, and the chains `--sync` installs load (doctor) */
  | "host-checks"
  /** the test files and folders named, `--junit FILE` (written), `.mind/tests/` of the project (test) */
  | "tests";

/** One command's sandbox needs. Absent fields need nothing. */
export type SandboxNeeds = {
  /** What it reads: nothing at all (schema, completions), only the observation log, or the configuration. */
  reads: "nothing" | "log" | "config";
  /** Runs or ends hooks: the spill folder, the hook shells, this engine (the async runner), its own uid. */
  engine?: boolean;
  /** Writes trust state into the user config.toml (src/state/state_writer.ts), re-syncing recorded installs. */
  state?: boolean;
  /**
   * May use configured MCP servers: their HTTP hosts (`net`), and with `"net-and-programs"` also the
   * stdio servers' programs (serve keeps them running).
   */
  mcp?: "net" | "net-and-programs";
  /**
   * Reads the files hooks pin (SPEC §3.5): of the trusted project in reach, or (`"any-project"`,
   * review, which can trust the project while it runs) of the project in reach whatever its trust.
   */
  pins?: "trusted-project" | "any-project";
  /** Reads anywhere; says why (doctor prints it). */
  readAnywhere?: string;
  /**
   * Reads one event on stdin before the Worker starts (its `cwd` decides what the project search may
   * read), and may take the fast path: run in the launcher's thread while no stranger's hook runs.
   */
  event?: boolean;
  /**
   * Runs in the launcher's thread with the process's permissions, like the dispatch fast path (the
   * warm daemon and its control command): each event it serves takes the fast path's guard
   * (`strangers: "refuse"`), and one a stranger's hook matched runs in a warm sandbox Worker of its
   * plan (src/sandbox/warm.ts), or is handed back to an in-process dispatch.
   */
  resident?: boolean;
  /** What its own arguments add. */
  args?: ArgumentGrants;
  /**
   * Runs hooks in a throw-away copy of the project in reach (`test --untrusted`/`--replay`, review's
   * replay): reads the project's tree, writes `<temp>/mind-hooks-test-<pid>/` (src/testing/throwaway.ts).
   */
  throwaway?: boolean;
};
