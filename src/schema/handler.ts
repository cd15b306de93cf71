/**
 * The handler shape, described once (SPEC §2.2, §3.2): every field a handler may carry, how the
 * hooks-file schema checks it, and where it lands in the normalized handler that is hashed (or why
 * it never does). The hooks-file zod schema (`schema/hooks_file.ts`, and from it
 * `schemas/hooks.schema.json`), the normalizer's field lists (`config/handlers.ts`) and the hash
 * subject ({@link NormalizedHandler}) are derived from these tables; `tests/handler_shape_test.ts`
 * fails when they drift. Plain data, so the dispatch path reads it without loading zod.
 *
 * Also here, as the lowest folder that needs them: the layers and the hook key (SPEC §2.1, §3.1).
 * @module
 */
import type { EventName } from "../events/names.ts";
import type * as zod from "zod";
import type { Zod } from "../events/types.ts";

/** The layers, lowest to highest in configuration order (SPEC §2.1, §2.8; the foreign user layers r3; Gemini and Copilot r4). */
export const LAYERS = [
  "managed",
  "user",
  "claude-user",
  "codex-user",
  "gemini-user",
  "copilot-user",
  "profile",
  "project",
  "claude-project",
  "codex-project",
  "gemini-project",
  "copilot-project",
  "plugin",
  "cli",
] as const;
/** One configuration layer. */
export type Layer = typeof LAYERS[number];

/** A hook key: `<layer>:<path>:<Event>:<group index>:<handler index>`. */
export type HookKey = string;

/** Builds a hook key. */
export function hookKey(
  layer: Layer,
  path: string,
  event: EventName,
  group: number,
  handler: number,
): HookKey {
  return `${layer}:${path}:${event}:${group}:${handler}`;
}

/**
 * How the hooks-file schema checks a written field: `type` is the handler's own type literal,
 * `nonEmpty` a string of one character at least, `seconds` an integer ≥ 1, `count` an integer ≥ 0,
 * `headers` an object of strings, `names` a list of strings.
 */
export type FieldKind =
  | "type"
  | "text"
  | "nonEmpty"
  | "seconds"
  | "count"
  | "flag"
  | "object"
  | "headers"
  | "names";

/** One field a handler may carry. */
export type FieldSpec = {
  kind: FieldKind;
  /** The key the field's value lands under in the normalized handler, so in the hash; null: never hashed. */
  hashedAs: string | null;
  /** Why a field that is accepted never enters the hash (only when `hashedAs` is null). */
  notHashed?: string;
  required?: true;
  /** Shown by editors (the JSON Schema's `description`). */
  describe?: string;
};

/** A handler's `name`, shown beside `what` runs. */
function nameField<const W extends string>(what: W) {
  return {
    kind: "text",
    hashedAs: null,
    notHashed: "display only: naming a hook never changes its trust",
    describe: `a name shown beside the ${what} (display only, not hashed)`,
  } as const;
}

/** Fields both handler types carry alike (spread where the hooks-file schema lists them). */
const STATUS_AND_TIMEOUT = {
  statusMessage: { kind: "text", hashedAs: "statusMessage" },
  timeout: { kind: "seconds", hashedAs: "timeout" },
} as const satisfies Record<string, FieldSpec>;
const FAIL_CLOSED = {
  failClosed: { kind: "flag", hashedAs: "failClosed" },
  fail_closed: { kind: "flag", hashedAs: "failClosed" },
} as const satisfies Record<string, FieldSpec>;

/** The fields of a `command` handler, in the order the hooks-file schema lists them. */
export const COMMAND_FIELDS = {
  type: { kind: "type", hashedAs: "type", required: true },
  command: { kind: "nonEmpty", hashedAs: "command", required: true },
  name: nameField("command"),
  commandWindows: { kind: "text", hashedAs: "commandWindows" },
  command_windows: { kind: "text", hashedAs: "commandWindows" },
  ...STATUS_AND_TIMEOUT,
  async: { kind: "flag", hashedAs: "async" },
  additionalContextLimit: { kind: "count", hashedAs: "additionalContextLimit" },
  ...FAIL_CLOSED,
} as const satisfies Record<string, FieldSpec>;

/** The fields of an `mcp_tool` handler, in the order the hooks-file schema lists them. */
export const MCP_FIELDS = {
  type: { kind: "type", hashedAs: "type", required: true },
  server: { kind: "nonEmpty", hashedAs: "server", required: true },
  tool: { kind: "nonEmpty", hashedAs: "tool", required: true },
  name: nameField("tool"),
  input: { kind: "object", hashedAs: "input" },
  ...STATUS_AND_TIMEOUT,
  async: { kind: "flag", hashedAs: null, notHashed: "mcp_tool hooks always run synchronously (a warning says so)" },
  ...FAIL_CLOSED,
} as const satisfies Record<string, FieldSpec>;

/** The handler types mind runs (SPEC §2.2; r4 `http` and `prompt`), in the order the schema lists them. */
export const HANDLER_TYPES = ["command", "mcp_tool", "http", "prompt"] as const;
/** One handler type. */
export type HandlerType = typeof HANDLER_TYPES[number];

/** The fields of an `http` handler (SPEC §2.2 r4): the event is POSTed to `url`. */
export const HTTP_FIELDS = {
  type: { kind: "type", hashedAs: "type", required: true },
  url: {
    kind: "nonEmpty",
    hashedAs: "url",
    required: true,
    describe: "https://…, or http:// to a loopback address; the event JSON is POSTed to it",
  },
  name: nameField("url"),
  headers: {
    kind: "headers",
    hashedAs: "headers",
    describe: "request headers, as written ($VAR / ${VAR} of allowedEnvVars interpolated at run time, never hashed)",
  },
  allowedEnvVars: {
    kind: "names",
    hashedAs: "allowedEnvVars",
    describe: "the only environment variables interpolated into headers",
  },
  ...STATUS_AND_TIMEOUT,
  ...FAIL_CLOSED,
} as const satisfies Record<string, FieldSpec>;

/** The fields of a `prompt` handler (SPEC §2.2 r4, Claude Code's form): a model judges the event. */
export const PROMPT_FIELDS = {
  type: { kind: "type", hashedAs: "type", required: true },
  prompt: {
    kind: "nonEmpty",
    hashedAs: "prompt",
    required: true,
    describe: "what the model is asked; $ARGUMENTS is replaced by the event JSON",
  },
  model: { kind: "text", hashedAs: "model", describe: "the model to ask (default: [hooks.model] model)" },
  name: nameField("prompt"),
  ...STATUS_AND_TIMEOUT,
  ...FAIL_CLOSED,
} as const satisfies Record<string, FieldSpec>;

/** Claude Code's `if`, `once` and `shell`, alike on every handler type (`shell` on command and mcp_tool). */
const CLAUDE_IF = {
  if: { kind: "text", hashedAs: "if" },
  once: { kind: "flag", hashedAs: "once" },
} as const satisfies Record<string, FieldSpec>;
const CLAUDE_SHELL = {
  shell: { kind: "text", hashedAs: null, notHashed: "only bash is accepted, and bash is what runs anyway" },
} as const satisfies Record<string, FieldSpec>;

/**
 * The fields only the Claude dialect knows (SPEC §2.2 `if`; Claude Code's `asyncRewake` implies
 * `async`; `shell` other than bash skips the handler), on a command handler. Not in the hooks-file
 * schema: a hooks.json is of the mind dialect.
 */
export const CLAUDE_COMMAND_FIELDS = {
  ...CLAUDE_IF,
  asyncRewake: { kind: "flag", hashedAs: "async" },
  ...CLAUDE_SHELL,
} as const satisfies Record<string, FieldSpec>;

/** As {@link CLAUDE_COMMAND_FIELDS}, on an mcp_tool handler (the same names: an mcp_tool never runs async). */
export const CLAUDE_MCP_FIELDS = {
  ...CLAUDE_IF,
  asyncRewake: { kind: "flag", hashedAs: null, notHashed: "mcp_tool hooks always run synchronously" },
  ...CLAUDE_SHELL,
} as const satisfies Record<string, FieldSpec>;

/** The Claude-dialect fields of an http or a prompt handler: `if` and `once`. */
export const CLAUDE_HTTP_FIELDS = { ...CLAUDE_IF } as const satisfies Record<string, FieldSpec>;
/** As {@link CLAUDE_HTTP_FIELDS}. */
export const CLAUDE_PROMPT_FIELDS = { ...CLAUDE_IF } as const satisfies Record<string, FieldSpec>;

/** Each handler type's fields: the mind dialect's, and what the Claude dialect adds (SPEC §8.1). */
export const HANDLER_FIELDS: Readonly<
  Record<HandlerType, { readonly fields: Record<string, FieldSpec>; readonly claude: Record<string, FieldSpec> }>
> = {
  command: { fields: COMMAND_FIELDS, claude: CLAUDE_COMMAND_FIELDS },
  mcp_tool: { fields: MCP_FIELDS, claude: CLAUDE_MCP_FIELDS },
  http: { fields: HTTP_FIELDS, claude: CLAUDE_HTTP_FIELDS },
  prompt: { fields: PROMPT_FIELDS, claude: CLAUDE_PROMPT_FIELDS },
};

/** True when `type` names a handler type mind runs. */
export function isHandlerType(type: unknown): type is HandlerType {
  return typeof type === "string" && (HANDLER_TYPES as readonly string[]).includes(type);
}

/** Keys of the normalized mcp_tool handler that no written field gives: discovery resolves them. */
export const MCP_DERIVED = {
  serverSpec: "the [mcp_servers.<name>] table the hook calls (SPEC §2.7, §3.2), resolved by discovery",
} as const;

/** The normalized keys a field table gives. */
type HashedKeys<T extends Record<string, FieldSpec>> = Exclude<T[keyof T]["hashedAs"], null>;

/**
 * The normalized handler that enters the hash: exactly SPEC §3.2's keys, the `hashedAs` of the
 * tables above (a type error below when they differ). A handler's `name` is display only and is
 * deliberately not here (discovery keeps it beside the handler), so naming a hook never changes
 * its trust.
 */
export type NormalizedHandler =
  | {
    type: "command";
    command: string;
    timeout: number;
    async: boolean;
    additionalContextLimit: number;
    commandWindows?: string;
    statusMessage?: string;
    /** Claude Code's permission-rule filter (SPEC §2.2), only on hooks of the Claude dialect. */
    if?: string;
    /** SPEC §2.2: a failure blocks instead of letting the operation proceed; present only when true. */
    failClosed?: true;
    /** Claude Code's `once` (SPEC §2.2 r4): at most one run per session; present only when true. */
    once?: true;
  }
  | {
    type: "mcp_tool";
    server: string;
    tool: string;
    input: Record<string, unknown>;
    timeout: number;
    statusMessage?: string;
    /** As for command handlers. */
    if?: string;
    /** As for command handlers. */
    failClosed?: true;
    /**
     * The `[mcp_servers.<name>]` table the hook calls, as written in the file it resolves from
     * (SPEC §2.7, §3.2), or null when none resolves: redefining the server changes the hash.
     */
    serverSpec: Record<string, unknown> | null;
    /** As for command handlers. */
    once?: true;
  }
  | {
    type: "http";
    /** As written: `https://…`, or `http://` to a loopback address (SPEC §2.2 r4). */
    url: string;
    /** As written (default `{}`): the interpolated values never enter the hash. */
    headers: Record<string, string>;
    /** The variables interpolated into `headers` (default `[]`). */
    allowedEnvVars: string[];
    timeout: number;
    statusMessage?: string;
    if?: string;
    failClosed?: true;
    once?: true;
  }
  | {
    type: "prompt";
    /** The prompt text as written; `$ARGUMENTS` is replaced at run time. */
    prompt: string;
    /** The handler's own model, which wins over `[hooks.model]` (SPEC §2.2 r4). */
    model?: string;
    timeout: number;
    statusMessage?: string;
    if?: string;
    failClosed?: true;
    once?: true;
  };

// The normalized handler has exactly the keys the tables send to the hash: a field added to one
// and not the other is a type error here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type CommandKeys = keyof Extract<NormalizedHandler, { type: "command" }>;
type McpKeys = keyof Extract<NormalizedHandler, { type: "mcp_tool" }>;
type HttpKeys = keyof Extract<NormalizedHandler, { type: "http" }>;
type PromptKeys = keyof Extract<NormalizedHandler, { type: "prompt" }>;
const _sameCommand: Same<
  CommandKeys,
  HashedKeys<typeof COMMAND_FIELDS> | HashedKeys<typeof CLAUDE_COMMAND_FIELDS>
> = true;
const _sameMcp: Same<
  McpKeys,
  HashedKeys<typeof MCP_FIELDS> | HashedKeys<typeof CLAUDE_MCP_FIELDS> | keyof typeof MCP_DERIVED
> = true;
const _sameHttp: Same<HttpKeys, HashedKeys<typeof HTTP_FIELDS> | HashedKeys<typeof CLAUDE_HTTP_FIELDS>> = true;
const _samePrompt: Same<PromptKeys, HashedKeys<typeof PROMPT_FIELDS> | HashedKeys<typeof CLAUDE_PROMPT_FIELDS>> = true;
void _sameCommand;
void _sameMcp;
void _sameHttp;
void _samePrompt;

/** The zod of one written field. */
function fieldSchema(z: Zod, kind: FieldKind, type: string) {
  switch (kind) {
    case "type":
      return z.literal(type);
    case "text":
      return z.string();
    case "nonEmpty":
      return z.string().min(1);
    case "seconds":
      return z.int().min(1);
    case "count":
      return z.int().min(0);
    case "flag":
      return z.boolean();
    case "object":
      return z.record(z.string(), z.unknown());
    case "headers":
      return z.record(z.string(), z.string());
    case "names":
      return z.array(z.string());
  }
}

/** The zod object of one handler type from its field table (unknown fields pass: discovery warns). */
function handlerObject(z: Zod, type: string, fields: Record<string, FieldSpec>): zod.ZodObject {
  const shape: Record<string, zod.ZodType> = {};
  for (const [name, f] of Object.entries(fields)) {
    const s = fieldSchema(z, f.kind, type);
    shape[name] = f.required ? s : s.optional();
    if (f.describe !== undefined) shape[name] = shape[name].describe(f.describe);
  }
  return z.object(shape);
}

/** Builds the zod schema of one handler of a hooks.json (mind dialect): one branch per handler type. */
export function handlerSchema(z: Zod) {
  const [first, ...rest] = HANDLER_TYPES.map((t) => handlerObject(z, t, HANDLER_FIELDS[t].fields));
  return z.discriminatedUnion("type", [first, ...rest]);
}
