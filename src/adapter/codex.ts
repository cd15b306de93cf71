/**
 * Codex (`dispatch --protocol codex`): the Claude hook wire format (`claude.ts`), Codex's own rewrite and
 * stop forms, and its `hooks.json`.
 * @module
 */
import { absolute, join } from "../util/paths.ts";
import { CLAUDE_CONTEXT_EVENTS, CLAUDE_EVENTS, mapClaudeFormatInput, mapClaudeFormatOutput } from "./claude.ts";
import { eventsByHostName, type HostAdapter, type HostEventMap } from "./host.ts";

/**
 * How Codex raises mind's events: as Claude Code does (the same wire format), and Interrupt too; it has
 * no Notification or PostToolUseFailure.
 */
export const CODEX_EVENTS: HostEventMap = Object.freeze({
  ...CLAUDE_EVENTS,
  Interrupt: "Interrupt",
  Notification: null,
  PostToolUseFailure: null,
});

const FROM_CODEX = eventsByHostName(CODEX_EVENTS);

/** Codex. */
export const CODEX: HostAdapter = {
  host: "codex",
  events: CODEX_EVENTS,
  mapInput: (raw, cwd) => mapClaudeFormatInput(FROM_CODEX, raw, cwd),
  mapOutput: (event, result, hostInput) => mapClaudeFormatOutput("codex", event, result, hostInput),
  contextEvents: CLAUDE_CONTEXT_EVENTS,
  install: {
    program: "codex",
    folder: (scope, env, cwd) => {
      if (scope.project !== undefined) return { path: join(scope.project, ".codex"), named: false };
      if (env.CODEX_HOME) return { path: absolute(env.CODEX_HOME, cwd), named: true };
      return { path: join(env.HOME ?? env.USERPROFILE ?? cwd, ".codex"), named: false };
    },
    file: () => "hooks.json",
    layout: "groups",
    commandField: "command",
    handler: (_event, command) => ({ type: "command", command }),
    emptyFile: () => ({}),
    notByDefault: [],
    local: false,
    advice: (path, project, command) => [
      `Codex runs these entries only after you trust them: start codex, open /hooks, and trust the entries`,
      `from ${path} whose command runs "${command}".`,
      ...(project ? [`Codex loads a project's .codex/ hooks only when that project is trusted in Codex.`] : []),
      `(For one-off automation that already vetted them: codex exec --dangerously-bypass-hook-trust.)`,
      `mind hooks still need their own trust: run mind-hooks review.`,
    ],
  },
};
