/**
 * The host registry and each adapter's event map (src/adapter/host_names.ts, hosts.ts, <host>.ts): how
 * each host raises mind's events, as measured on the hosts (docs/hosts.md), the reverse lookup the
 * adapters read a host's event name with, and the rule that events know nothing of hosts.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { EVENT_NAMES, type EventName } from "../events/names.ts";
import { ADAPTERS, HOST_DISPLAY_NAMES, hostEventName, hostEvents, HOSTS, isHost, mapHostInput } from "./hosts.ts";
import type { Host } from "./host_names.ts";

// deno-fmt-ignore -- one line per event, aligned, reads as the table it is
const MAPS: Record<EventName, Record<Host, string | null>> = {
  SessionStart:      { claude: "SessionStart",      codex: "SessionStart",      gemini: "SessionStart", copilot: "SessionStart" },
  SessionEnd:        { claude: "SessionEnd",        codex: "SessionEnd",        gemini: "SessionEnd",   copilot: "SessionEnd" },
  UserPromptSubmit:  { claude: "UserPromptSubmit",  codex: "UserPromptSubmit",  gemini: "BeforeAgent",  copilot: "UserPromptSubmit" },
  PreToolUse:        { claude: "PreToolUse",        codex: "PreToolUse",        gemini: "BeforeTool",   copilot: "PreToolUse" },
  PermissionRequest: { claude: "PermissionRequest", codex: "PermissionRequest", gemini: null,           copilot: "permissionRequest" },
  PostToolUse:       { claude: "PostToolUse",       codex: "PostToolUse",       gemini: "AfterTool",    copilot: "PostToolUse" },
  PostToolUseFailure:{ claude: "PostToolUseFailure",codex: null,                gemini: null,           copilot: "PostToolUseFailure" },
  PreCompact:        { claude: "PreCompact",        codex: "PreCompact",        gemini: "PreCompress",  copilot: "PreCompact" },
  PostCompact:       { claude: "PostCompact",       codex: "PostCompact",       gemini: null,           copilot: null },
  SubagentStart:     { claude: "SubagentStart",     codex: "SubagentStart",     gemini: null,           copilot: "SubagentStart" },
  SubagentStop:      { claude: "SubagentStop",      codex: "SubagentStop",      gemini: null,           copilot: "SubagentStop" },
  Stop:              { claude: "Stop",              codex: "Stop",              gemini: "AfterAgent",   copilot: "Stop" },
  Interrupt:         { claude: null,                codex: "Interrupt",         gemini: null,           copilot: null },
  Notification:      { claude: "Notification",      codex: null,                gemini: "Notification", copilot: "Notification" },
};

Deno.test("hosts: the registry names four hosts once, each with its adapter and display name", () => {
  assertEquals([...HOSTS], ["claude", "codex", "gemini", "copilot"]);
  assertEquals(Object.keys(ADAPTERS), [...HOSTS]);
  assertEquals(Object.keys(HOST_DISPLAY_NAMES), [...HOSTS]);
  assertEquals(HOSTS.map((h) => ADAPTERS[h].host), [...HOSTS]);
  assertEquals(Object.values(HOST_DISPLAY_NAMES), ["Claude Code", "Codex", "Gemini CLI", "Copilot CLI"]);
  assertEquals([isHost("gemini"), isHost("mind"), isHost("Claude"), isHost(undefined)], [true, false, false, false]);
});

Deno.test("hosts: each adapter's event map says how its host raises each of mind's events", () => {
  for (const host of HOSTS) {
    const map = Object.fromEntries(EVENT_NAMES.map((e) => [e, hostEventName(host, e)]));
    assertEquals(map, Object.fromEntries(EVENT_NAMES.map((e) => [e, MAPS[e][host]])), host);
    // The events it raises, in mind's order, with the host's own names.
    const raised = EVENT_NAMES.flatMap((e) => {
      const hostEvent = MAPS[e][host];
      return hostEvent === null ? [] : [{ event: e, hostEvent }];
    });
    assertEquals(hostEvents(host), raised, host);
  }
});

Deno.test("hosts: a host's own event name reads as the mind event its map gives; another host's does not", () => {
  for (const host of HOSTS) {
    for (const { event, hostEvent } of hostEvents(host)) {
      const mapped = mapHostInput(host, { hook_event_name: hostEvent, session_id: "s" }, "/w");
      assertEquals(mapped.kind === "event" ? mapped.event : mapped.kind, event, `${host} ${hostEvent}`);
    }
  }
  assertEquals(mapHostInput("claude", { hook_event_name: "Interrupt" }, "/w"), { kind: "ignore", event: "Interrupt" });
  assertEquals(mapHostInput("gemini", { hook_event_name: "PreToolUse" }, "/w"), {
    kind: "ignore",
    event: "PreToolUse",
  });
});

Deno.test("hosts: events know nothing of hosts (no host names, types, maps or placeholders in src/events)", async () => {
  const dir = new URL("../events/", import.meta.url);
  for await (const f of Deno.readDir(dir)) {
    if (!f.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(new URL(f.name, dir));
    const banned = [/\bHostName\b/, /\bHOST_NAMES\b/, /\bHostMapping\b/, /\bhostMappings\b/, /\bHOST_UNKNOWN\b/];
    for (const word of [...banned, /\bhostPlaceholders\b/, /^\s*hosts:/m, /from "\.\.\/adapter\//]) {
      assert(!word.test(text), `src/events/${f.name} names ${word}`);
    }
  }
});
