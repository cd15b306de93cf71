/**
 * Where a run starts ({@link runStart}): the one decision of the launcher, from the command's declared
 * needs and what is in reach; and whether the Worker goes on from what the fast path prepared
 * ({@link preparedAgrees}).
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { preparedAgrees, reachOfPrepared, runStart } from "./launch.ts";
import type { Ready } from "../engine/types.ts";
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

/** What the fast path prepared, reduced to what {@link preparedAgrees} reads. */
function preparedWith(catalog: Record<string, unknown>, handlerTypes: Record<string, unknown>[] = []): Ready {
  const noServers = { userSide: new Map(), project: new Map(), plugins: new Map() };
  return {
    kind: "ready",
    catalog: {
      project: null,
      plugins: [],
      model: null,
      mcpServers: noServers,
      handlers: handlerTypes.map((handler) => ({ handler })),
      ...catalog,
    },
  } as unknown as Ready;
}

Deno.test("preparedAgrees: the Worker goes on from the fast path's reading only when it is what the plan was made for", () => {
  const trustedP = { project: { root: "/p", trusted: true } };
  const command = { type: "command", command: "true" };
  const http = { type: "http", url: "https://hooks.example:8443/x" };
  const cases: [string, Reach, Ready, boolean][] = [
    ["the same trusted project", project, preparedWith(trustedP, [command]), true],
    ["no project on either side", nothing, preparedWith({}, [command]), true],
    ["an untrusted project read is none", nothing, preparedWith({ project: { root: "/p", trusted: false } }), true],
    // The configuration changed between the decision and the fast path's reading: decided again.
    ["a project trusted meanwhile", nothing, preparedWith(trustedP, [command]), false],
    ["another project", project, preparedWith({ project: { root: "/q", trusted: true } }), false],
    ["a plugin configured meanwhile", project, preparedWith({ ...trustedP, plugins: [{ name: "x" }] }), false],
    // A network the plan made without it would miss (SPEC §2.2 r4): decided again, with the planning pass.
    ["an http hook, no network planned", project, preparedWith(trustedP, [command, http]), false],
    ["an http hook, the network planned", { ...project, mcp: true }, preparedWith(trustedP, [http]), true],
    ["the model prompt hooks ask", project, preparedWith({ ...trustedP, model: { url: "http://m" } }), false],
    [
      "an MCP server",
      project,
      preparedWith({
        ...trustedP,
        mcpServers: { userSide: new Map([["s", {}]]), project: new Map(), plugins: new Map() },
      }),
      false,
    ],
  ];
  assertEquals(
    cases.map(([what, reached, prepared]) => [what, preparedAgrees(reached, prepared)]),
    cases.map(([what, , , agrees]) => [what, agrees]),
  );
});

Deno.test("reachOfPrepared: what is in reach, read off the fast path's reading; none where a plugin or the network is", () => {
  const trustedP = { project: { root: "/p", trusted: true } };
  assertEquals(
    [
      reachOfPrepared(preparedWith(trustedP, [{ type: "command", command: "true" }])),
      reachOfPrepared(preparedWith({ project: { root: "/p", trusted: false } })),
      reachOfPrepared(preparedWith({ ...trustedP, plugins: [{ name: "x" }] })),
      reachOfPrepared(preparedWith(trustedP, [{ type: "http", url: "https://h.example/x" }])),
    ],
    [project, nothing, null, null],
  );
});
