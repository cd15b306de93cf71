/**
 * An async handler that was started is listed in `runs` with status `started` (SPEC §9 r3), its outcome
 * coming later in `asyncResults` — the same record through the CLI, `serve` and `mod.ts`.
 */
import { assertEquals } from "./helpers/assert.ts";
import { cmd, event, group, makeHome, sessionId, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { viaCli, viaMod, viaServe } from "./helpers/front_ends.ts";

Deno.test({
  name: "async (r3): a started async hook is in runs with status started, on the CLI, serve and mod.ts",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await writeHooksJson(home.path, {
      PostToolUse: [group([cmd("cat >/dev/null; sleep 0.2", { async: true }), cmd("true")])],
    });
    await trustAll(home.path, home.path);
    const key = (i: number) => `user:${home.path}/hooks.json:PostToolUse:0:${i}`;
    const expected = [
      {
        key: key(0),
        layer: "user",
        status: "started",
        reason: "async",
        exit_code: null,
        duration_ms: null,
        statusMessage: null,
      },
      { key: key(1), layer: "user", status: "completed", reason: null, exit_code: 0, statusMessage: null },
    ];
    for (const via of [viaCli, viaServe, viaMod]) {
      const r = await via(home.path, event("PostToolUse", { cwd: home.path, session_id: sessionId("started") }));
      assertEquals(r.runs.map((x, i) => i === 1 ? { ...x, duration_ms: undefined } : x), [
        expected[0],
        { ...expected[1], duration_ms: undefined },
      ], via.name);
    }
  },
});
