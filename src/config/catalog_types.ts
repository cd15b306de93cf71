/**
 * The shapes of configuration discovery (SPEC §2, §3): a catalog handler with its stored trust facts, the
 * options discovery takes, the project found and the catalog itself. Kept apart from the loader
 * (src/config/discovery.ts, which re-exports them) so the loader stays one reading of the layers.
 * @module
 */
import type { DiscoveredHandler } from "./handlers.ts";
import type { Warning } from "./warnings.ts";
import type { RecordSetting } from "./layer_files.ts";
import type { ForeignDir } from "./project_root.ts";
import type { McpServers } from "./mcp_servers.ts";
import type { StrangerFiles } from "./fast_path_guard.ts";
import type { PluginInfo } from "./plugins.ts";
import type { HookPins } from "./pinning.ts";
import type { FileHashCache, PinnedFiles } from "../trust/pins.ts";
import type { ModelConfig } from "./hooks_model.ts";

/**
 * A handler with the facts its trust is decided from (a plain record: `trust/verdict.ts` decides its
 * status, `trust/hash.ts` keeps its hash).
 */
export type HookHandler = DiscoveredHandler & {
  readonly enabled: boolean;
  /** The stored trusted hash, if any. */
  readonly trustedHash: string | null;
  /** Whether the definition trusted was `failClosed` (`trusted_fail_closed`, SPEC §3.5 r4). */
  readonly trustedFailClosed?: boolean;
  /** Its pinned files (SPEC §3.5), or null when its layer's root is not a project's or a plugin's. */
  readonly pins: HookPins | null;
};

/** Stored state of one hook (SPEC §3.3, §3.5). */
export type HookState = {
  enabled?: boolean;
  trusted_hash?: string;
  trusted_files?: PinnedFiles;
  unpinnable?: string;
  /** The definition trusted was `failClosed` (SPEC §3.5 r4). */
  trusted_fail_closed?: boolean;
};

/** What discovery needs to know about this invocation. */
export type ConfigOptions = {
  /** The application home (absolute). Dispatch may run without one: see {@link HomelessConfigOptions}. */
  home: string;
  /** Where the project layer is searched from. */
  cwd: string;
  profile?: string;
  /** `-c KEY=VALUE` items. */
  overrides?: readonly string[];
  hooksFiles?: readonly string[];
  /** The managed requirements file; undefined = `$MIND_REQUIREMENTS`, else `/etc/mind/requirements.toml`. */
  requirements?: string;
  bypassTrust?: boolean;
  env?: Record<string, string | undefined>;
  /**
   * Adapter mode (`dispatch --protocol claude|codex`): the host that delegates to mind-hooks runs its
   * own project layer itself, so that foreign layer is not loaded (SPEC §2.8: no double runs).
   */
  delegatingHost?: string;
  /**
   * `"refuse"` on the dispatch fast path (src/config/fast_path_guard.ts): a configured plugin or a
   * `--hooks-file` is not parsed, the catalog is a {@link StrangerRefusal}. Default `"parse"`.
   */
  strangerFiles?: StrangerFiles;
};

/**
 * Discovery options of a dispatch, whose home may be missing (SPEC §1 r3: no home is never the cwd):
 * then only the managed and CLI layers load, and nothing is written.
 */
export type HomelessConfigOptions = Omit<ConfigOptions, "home"> & {
  home: string | null;
  /** The home `--home`/`$MIND_HOME` named, which does not exist (then `home` is null): said, never created. */
  missingHome?: MissingHome;
};

/** A home that was named (`--home`, `$MIND_HOME`) but does not exist. */
export type MissingHome = { path: string; namedBy: "--home" | "MIND_HOME" };

/** The project found from cwd. */
export type ProjectInfo = {
  root: string;
  trusted: boolean;
  trustLevel: string | null;
  /** The project holds hook files (`.mind/`, or a foreign layer's with hooks), so an untrusted one is worth a word. */
  hasHookFiles: boolean;
  /** The project's foreign folders that load with it (SPEC §2.8 r3: root down to the cwd, outermost first). */
  foreignDirs: readonly ForeignDir[];
  /**
   * An untrusted project's own folders that exist (`.mind`, `.claude`, `.codex`, as foreign layers are
   * on), named by what a session start says of it (SPEC §6 r3); empty for a trusted one.
   */
  folders?: string[];
};

/** Everything discovery found, for a home of type `H` (see {@link Catalog}, {@link AnyCatalog}). */
export type CatalogOf<H extends string | null> = {
  handlers: HookHandler[];
  warnings: Warning[];
  /** The feature switch (SPEC §2.4). */
  hooksEnabled: boolean;
  project: ProjectInfo | null;
  /** The application home; null for a dispatch without one (nothing is written then). */
  home: H;
  /** The trust store, `<home>/config.toml` (null without a home). */
  userConfigPath: H;
  profile: string | null;
  /** Every MCP server definition by scope (SPEC §2.7); each mcp_tool handler holds the one it resolves. */
  mcpServers: McpServers;
  stopBlockCap: number;
  /** `[hooks] daemon = false` in the user or managed config (SPEC §13 r4): never use or start the daemon. */
  daemonOff?: true;
  managedOnly: boolean;
  /** The model prompt hooks ask (the user's `[hooks.model]`, SPEC §2.2 r4), or null when none is set. */
  model: ModelConfig | null;
  plugins: PluginInfo[];
  /** Every file path that was (or would be) read: `serve` re-reads when one changes. */
  files: string[];
  bypassTrust: boolean;
  /** The OS user's home (`$HOME`), for `~` in commands and in paths shown; null when unknown. */
  userHome: string | null;
  /** Why the trust store (the user config.toml) cannot be read (SPEC §6), or null when it can. */
  trustStoreProblem: Warning | null;
  /** File hashes kept across dispatches (`serve`); absent in a one-shot run. */
  pinCache?: FileHashCache;
  /** Recorded events (SPEC §16): on by the user config.toml alone (`recordSetting`); null when off. */
  record?: RecordSetting | null;
};

/** What discovery found for a home (every command but a homeless dispatch). */
export type Catalog = CatalogOf<string>;

/** What discovery found for a dispatch, with or without a home (SPEC §1 r3). */
export type AnyCatalog = CatalogOf<string | null>;
