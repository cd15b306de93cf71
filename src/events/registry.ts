/**
 * The event registry: name → module. Importing it loads no zod.
 * @module
 */
import type { EventModule } from "./types.ts";
import type { EventName } from "./names.ts";
import { sessionStart } from "./session_start.ts";
import { sessionEnd } from "./session_end.ts";
import { userPromptSubmit } from "./user_prompt_submit.ts";
import { preToolUse } from "./pre_tool_use.ts";
import { permissionRequest } from "./permission_request.ts";
import { postToolUse } from "./post_tool_use.ts";
import { postToolUseFailure } from "./post_tool_use_failure.ts";
import { preCompact } from "./pre_compact.ts";
import { postCompact } from "./post_compact.ts";
import { subagentStart } from "./subagent_start.ts";
import { subagentStop } from "./subagent_stop.ts";
import { stop } from "./stop.ts";
import { interrupt } from "./interrupt.ts";
import { notification } from "./notification.ts";

/** Every event module, keyed by event name. */
export const EVENTS: Readonly<Record<EventName, EventModule>> = {
  SessionStart: sessionStart,
  SessionEnd: sessionEnd,
  UserPromptSubmit: userPromptSubmit,
  PreToolUse: preToolUse,
  PermissionRequest: permissionRequest,
  PostToolUse: postToolUse,
  PostToolUseFailure: postToolUseFailure,
  PreCompact: preCompact,
  PostCompact: postCompact,
  SubagentStart: subagentStart,
  SubagentStop: subagentStop,
  Stop: stop,
  Interrupt: interrupt,
  Notification: notification,
};
