/** Which unknown names are misspellings (SPEC §2.2 r4, src/config/misspellings.ts). */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { meantName, misspelledName, unservedEventsLine } from "./misspellings.ts";
import { EVENT_NAMES } from "../events/names.ts";
import { warning } from "./warnings.ts";

Deno.test("misspellings: within two edits of a known name, case ignored; a known name or a far one is none", () => {
  assertEquals(meantName("PreTooluse", EVENT_NAMES), "PreToolUse");
  assertEquals(meantName("preToolUse", EVENT_NAMES), "PreToolUse");
  assertEquals(meantName("PreToolsUsed", EVENT_NAMES), "PreToolUse");
  assertEquals(meantName("PreToolUse", EVENT_NAMES), null);
  assertEquals(meantName("MyOwnThing", EVENT_NAMES), null);
  assertEquals(meantName("timout", ["timeout", "type"]), "timeout");
});

Deno.test("misspellings: read from the warnings discovery makes; another host's unserved event is no typo", () => {
  const event = (name: string) => warning("W_UNKNOWN_EVENT", "unknown event", "f", { path: ["hooks", name] });
  assertEquals(misspelledName(event("Stpo")), "Stop");
  assertEquals(misspelledName(event("AfterAgent")), "Stop");
  // Setup is two edits from Stop, but it is Claude Code's own event: named at session start instead.
  assertEquals(misspelledName(event("Setup")), null);
  const field = (path: (string | number)[]) => warning("W_UNKNOWN_FIELD", "unknown field", "f", { path });
  assertEquals(misspelledName(field(["hooks", "Stop", 0, "hooks", 0, "timout"])), "timeout");
  assertEquals(misspelledName(field(["hooks", "Stop", 0, "matchr"])), "matcher");
  // A root field of a hooks.json is no handler's.
  assertEquals(misspelledName(field(["hoks"])), null);
  assertEquals(
    unservedEventsLine([event("ConfigChange"), event("Setup"), event("ConfigChange"), event("Stpo")]),
    "mind-hooks: hooks on ConfigChange, Setup will not run here (an event of another host that mind does not serve)",
  );
  assertEquals(unservedEventsLine([event("Stpo")]), null);
});
