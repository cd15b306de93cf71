/**
 * Where a run starts ({@link runStart}): the one decision of the launcher, from the command's declared
 * needs and what is in reach.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { runStart } from "./launch.ts";
import type { Reach } from "./reach.ts";
import type { SandboxNeeds } from "./needs.ts";

const dispatch: SandboxNeeds = { reads: "config", engine: true, mcp: "net", pins: "trusted-project", event: true };
const nothing: Reach = { sandbox: null, workerFirst: null, mcp: false, pinRoot: null };
const project: Reach = { ...nothing, sandbox: "a trusted project layer is in reach (/p)", pinRoot: "/p" };

Deno.test("runStart: dispatch starts in the launcher's thread unless a plugin or --hooks-file is in reach", () => {
  assertEquals(runStart(dispatch, nothing, {}), { thread: "launcher", net: false });
  // A trusted project's files are parsed there; its hooks send the run to the Worker later, as data.
  assertEquals(runStart(dispatch, project, {}), { thread: "launcher", net: false });
  assertEquals(runStart(dispatch, { ...project, mcp: true }, {}), { thread: "launcher", net: true });
  const plugins = { ...nothing, sandbox: "plugins are configured", workerFirst: "plugins are configured" };
  assertEquals(runStart(dispatch, plugins, {}), { thread: "worker" });
  assertEquals(runStart(dispatch, nothing, { MIND_HOOKS_SANDBOX: "always" }), { thread: "worker" });
});

Deno.test("runStart: a command that reads no event first always runs in the Worker", () => {
  const { event: _, ...list } = dispatch;
  assertEquals(runStart(list, nothing, {}), { thread: "worker" });
  assertEquals(runStart({ reads: "nothing" }, nothing, {}), { thread: "worker" });
});
