/**
 * End-to-end tests of async command handlers in one-shot `dispatch` (SPEC §7.2): real
 * `mind-hooks` processes, temp homes, and the Python hook `fixtures/async/slow_hook.py`, which
 * records its pid and its start/stop times, so what ran when is measured from the hooks themselves.
 * Session end is tested in session_end_test.ts.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { dispatch, type DispatchResult, event, group, type Json, sessionId } from "./helpers/cli.ts";
import {
  asyncHook,
  exists,
  hookTime,
  maxConcurrent,
  NOT_POSIX,
  readOr,
  sessionEnd,
  setup,
  sleep,
  waitFor,
} from "../fixtures/async/harness.ts";

Deno.test({
  name:
    "12 async hooks: dispatch returns at once, at most 8 run together, each result is delivered once, only to its session",
  ignore: NOT_POSIX,
  async fn() {
    const names = Array.from({ length: 12 }, (_, i) => `h${i}`);
    const env = await setup((s) => ({ PostToolUse: [group(names.map((n) => asyncHook(s, n, 1.2)))] }));
    const { home, state, cwd } = env;
    const sid = sessionId("async12");
    const other = sessionId("other");
    try {
      const first = await dispatch(home.path, event("PostToolUse", { session_id: sid, cwd }));
      const returnedAt = Date.now() / 1000;
      // Each hook sleeps 1.2 s: none can have finished if dispatch did not wait for them.
      assertEquals(
        names.filter((n) => exists(join(state, `${n}.stop`))),
        [],
        "hooks finished before dispatch returned",
      );
      assertEquals(first.runs.length, 12);
      for (const run of first.runs) {
        assertEquals([run.status, run.reason, run.exit_code, run.duration_ms], ["started", "async", null, null]);
      }
      assertEquals([first.decision, first.additionalContext, first.asyncResults], [null, [], []]);
      console.log(`  one-shot dispatch with 12 async hooks returned in ${first._cli.ms.toFixed(0)} ms (whole process)`);

      // Poll with dispatches of the session that match no hook, as a host does between events.
      const delivered: Json[] = [];
      let polls = 0;
      await waitFor("all 12 async results", 20_000, async () => {
        const r = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid, cwd }));
        assertEquals(r.runs, [], "the poll event must match no hook");
        delivered.push(...r.asyncResults);
        if (polls++ % 3 === 0) {
          const o = await dispatch(home.path, event("UserPromptSubmit", { session_id: other, cwd }));
          assertEquals(o.asyncResults, [], "another session got async results");
        }
        if (delivered.length >= 12) return true;
        await sleep(200);
      });
      // Nothing is delivered twice: later dispatches of the session get nothing more.
      for (let i = 0; i < 2; i++) {
        delivered.push(
          ...(await dispatch(home.path, event("UserPromptSubmit", { session_id: sid, cwd }))).asyncResults,
        );
      }
      assertEquals(delivered.length, 12, "each async result exactly once");
      const byKey = new Map(delivered.map((r) => [r.key as string, r]));
      assertEquals([...byKey.keys()].sort(), first.runs.map((r) => r.key).sort());
      for (const [i, run] of first.runs.entries()) {
        assert(run.key.endsWith(`:PostToolUse:0:${i}`), `unexpected key order: ${run.key}`);
        assertEquals(byKey.get(run.key), {
          key: run.key,
          event: "PostToolUse",
          status: "completed",
          reason: null,
          systemMessage: `async h${i} done`,
          additionalContext: `context from h${i}`,
        });
      }
      const o = await dispatch(home.path, event("UserPromptSubmit", { session_id: other, cwd }));
      assertEquals(o.asyncResults, [], "another session got async results");

      // Measured from the hooks: never more than 8 at once, and they did run side by side.
      const max = maxConcurrent(state, names);
      const lastStop = Math.max(...names.map((n) => hookTime(state, n, "stop")!));
      console.log(
        `  at most ${max} async hooks ran at once; the last finished ${
          (lastStop - returnedAt).toFixed(1)
        } s after dispatch returned`,
      );
      assert(max <= 8, `${max} async hooks ran at once (limit 8)`);
      assert(max >= 4, `only ${max} async hooks ran at once: they were not run concurrently`);
      // The hooks read the event's input (compatibility form, this session).
      const input = JSON.parse(readOr(join(state, "h0.input"))!);
      assertEquals([input.hook_event_name, input.session_id, input.tool_name], ["PostToolUse", sid, "Bash"]);
    } finally {
      await sessionEnd(env, sid).catch(() => {});
      await home.cleanup();
    }
  },
});

Deno.test({
  name: "an async hook has no control effect: its deny does not deny, its text arrives with a later dispatch",
  ignore: NOT_POSIX,
  async fn() {
    const env = await setup((s) => ({ PreToolUse: [group([asyncHook(s, "denier", 0, "deny")])] }));
    const { home, state, cwd } = env;
    const sid = sessionId("deny");
    try {
      const r = await dispatch(home.path, event("PreToolUse", { session_id: sid, cwd }));
      assertEquals([r.decision, r.reason, r.updatedInput], [null, null, null], "an async deny took effect");
      assertEquals(r.runs.map((x) => x.status), ["started"]);
      const later: DispatchResult = await waitFor("the async deny's result", 10_000, async () => {
        const p = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid, cwd }));
        return p.asyncResults.length > 0 ? p : undefined;
      });
      assert(exists(join(state, "denier.stop")), "the hook did not run to its end");
      assertEquals([later.decision, later.reason], [null, null], "the async deny took effect later");
      assertEquals(later.additionalContext, [], "async context is reported in asyncResults only");
      assertEquals(later.asyncResults.length, 1);
      const res = later.asyncResults[0];
      assertEquals([res.event, res.systemMessage, res.additionalContext], [
        "PreToolUse",
        "async denier done",
        "context from denier",
      ]);
      // A deny of a PreToolUse dispatch that already returned cannot be applied; whatever status
      // the record carries, it reports and never decides.
      assert(res.status === "completed" || res.status === "blocked", `status ${res.status}`);
    } finally {
      await sessionEnd(env, sid).catch(() => {});
      await home.cleanup();
    }
  },
});

Deno.test({
  name: "async jobs and results are private: folders 0700, files 0600 (they hold the hook input and output)",
  ignore: NOT_POSIX,
  async fn() {
    const env = await setup((s) => ({ PostToolUse: [group([asyncHook(s, "p", 0.6)])] }));
    const { home, cwd } = env;
    const sid = sessionId("private");
    try {
      await dispatch(home.path, event("PostToolUse", { session_id: sid, cwd }));
      const dir = join(home.path, "tmp", "async", sid);
      const mode = (p: string) => (Deno.statSync(p).mode ?? 0) & 0o777;
      assertEquals([mode(dir), mode(join(dir, "jobs"))], [0o700, 0o700]);
      for (const e of Deno.readDirSync(join(dir, "jobs"))) assertEquals(mode(join(dir, "jobs", e.name)), 0o600);
      const results = join(dir, "results");
      await waitFor("the async result file", 10_000, () => {
        const files = exists(results) ? [...Deno.readDirSync(results)].filter((e) => e.name.endsWith(".json")) : [];
        return files.length > 0 || undefined;
      });
      assertEquals(mode(results), 0o700);
      for (const e of Deno.readDirSync(results)) assertEquals(mode(join(results, e.name)), 0o600);
    } finally {
      await sessionEnd(env, sid).catch(() => {});
      await home.cleanup();
    }
  },
});
