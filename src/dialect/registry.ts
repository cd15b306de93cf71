/**
 * The dialects (SPEC §8.1, §2.8 r4) by name: `Record<Dialect, DialectModule>`, so a dialect without a
 * module, or a module missing a fact, is a type error. A fifth host's hooks are one more module here.
 * @module
 */
import type { Dialect } from "../events/types.ts";
import { MIND_NAMES } from "./common.ts";
import { COPILOT_DIALECT } from "./copilot.ts";
import { GEMINI_DIALECT } from "./gemini.ts";
import type { DialectModule } from "./types.ts";

/** Every dialect's module. */
export const DIALECTS: Readonly<Record<Dialect, DialectModule>> = {
  mind: { ...MIND_NAMES, dialect: "mind", hostName: null, reads: "mind", shell: "login" },
  claude: { ...MIND_NAMES, dialect: "claude", hostName: "Claude Code", reads: "claude", shell: "sh" },
  gemini: GEMINI_DIALECT,
  copilot: COPILOT_DIALECT,
};

/** How a dialect's (translated) answers are read: mind's protocol or Claude Code's. */
export function readsAs(dialect: Dialect): "mind" | "claude" {
  return DIALECTS[dialect].reads;
}
