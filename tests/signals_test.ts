/**
 * Signals and shutdown take running hooks down with the engine (SPEC §7.1: a handler is killed with
 * its whole process group). Hooks run in sessions of their own, so a signal to `dispatch` never
 * reaches them by itself: `dispatch` ended by SIGTERM or SIGINT kills their process groups on its way
 * out, on the fast path and in the sandbox Worker alike. `serve`, shut down by SIGTERM or by the end
 * of its input, answers the requests in flight but waits for their hooks only SHUTDOWN_GRACE_MS, then
 * kills them.
 *
 * Every process here is bounded: the CLI is killed after a deadline, and each hook `exec`s a
 * `sleep` that ends on its own.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { cmd, event, group, makeHome, sessionId, spawnCli, trustAll, writeHooksJson } from "./helpers/cli.ts";
import { SHUTDOWN_GRACE_MS } from "../src/serve/server.ts";

/** A hook that writes its pid (its process group's id) to `pidFile`, then hangs for 60 s. */
function hangingHook(pidFile: string): string {
  return `echo $$ > '${pidFile}'; exec sleep 60`;
}

/** Waits until `path` holds a pid; returns it. */
async function pidFrom(path: string, timeoutMs = 30_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const text = (await Deno.readTextFile(path)).trim();
      if (/^\d+$/.test(text)) return Number(text);
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no pid in ${path} after ${timeoutMs} ms`);
}

/** Whether process `pid` is alive (not gone, not a zombie). Linux: its /proc entry. */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

/** Waits up to `ms` for `pid` to be gone; returns whether it is. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!(await alive(pid))) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !(await alive(pid));
}

/** Kills a leftover hook (a failing test must not leave one behind). */
function reap(pid: number | null): void {
  if (pid === null) return;
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch { /* gone */ }
}

/** A home with one trusted UserPromptSubmit hook that hangs (timeout 120 s); returns it and the pid file. */
async function hangingHome() {
  const home = await makeHome();
  const pidFile = join(home.path, "hook.pid");
  await writeHooksJson(home.path, { UserPromptSubmit: [group([cmd(hangingHook(pidFile), { timeout: 120 })])] });
  await trustAll(home.path, home.path);
  return { home, pidFile };
}

const POSIX_LINUX = Deno.build.os === "linux";

for (const mode of ["fast path", "sandbox Worker"] as const) {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    Deno.test({
      name: `dispatch (${mode}): ${signal} kills the running hook's process group before the engine exits`,
      ignore: !POSIX_LINUX,
      async fn() {
        const { home, pidFile } = await hangingHome();
        await using _ = home;
        const child = await spawnCli(["dispatch", "--home", home.path], {
          env: {
            MIND_TEMP_DIR: join(home.path, "tmp"),
            ...(mode === "sandbox Worker" ? { MIND_HOOKS_SANDBOX: "always" } : {}),
          },
          killAfterMs: 60_000,
        });
        let pid: number | null = null;
        try {
          const w = child.stdin.getWriter();
          await w.write(new TextEncoder().encode(JSON.stringify(event("UserPromptSubmit", { cwd: home.path }))));
          await w.close();
          pid = await pidFrom(pidFile);
          child.kill(signal);
          const out = await child.output();
          assertEquals(out.code, signal === "SIGINT" ? 130 : 143, new TextDecoder().decode(out.stderr));
          assertEquals(new TextDecoder().decode(out.stdout), "", "a signalled dispatch prints no result");
          assert(await goneWithin(pid, 3000), `the hook (pid ${pid}) outlived the signalled dispatch`);
        } finally {
          reap(pid);
        }
      },
    });
  }
}

for (const ending of ["SIGTERM", "end of input"] as const) {
  Deno.test({
    name: `serve: on ${ending} the request in flight is answered and its hung hook is killed after the ` +
      `shutdown grace (${SHUTDOWN_GRACE_MS} ms), not after its 120 s timeout`,
    ignore: !POSIX_LINUX,
    async fn() {
      const { home, pidFile } = await hangingHome();
      await using _ = home;
      const child = await spawnCli(["serve", "--home", home.path, "--temp-dir", join(home.path, "tmp")], {
        killAfterMs: 60_000,
      });
      let pid: number | null = null;
      try {
        const w = child.stdin.getWriter();
        const sid = sessionId("serve-signal");
        const request = {
          jsonrpc: "2.0",
          id: 1,
          method: "dispatch",
          params: event("UserPromptSubmit", { session_id: sid, cwd: home.path }),
        };
        await w.write(new TextEncoder().encode(JSON.stringify(request) + "\n"));
        pid = await pidFrom(pidFile);
        const asked = performance.now();
        if (ending === "SIGTERM") child.kill("SIGTERM");
        else await w.close();
        const out = await child.output();
        const took = performance.now() - asked;
        assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
        assert(took >= SHUTDOWN_GRACE_MS - 500, `serve did not give the hook its grace (${took.toFixed(0)} ms)`);
        assert(took < SHUTDOWN_GRACE_MS + 6000, `serve took ${took.toFixed(0)} ms to shut down`);
        assert(!(await alive(pid)), `the hook (pid ${pid}) outlived serve`);
        const lines = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
        const answer = lines.find((m) => m.id === 1);
        assert(answer?.result, `the request in flight was not answered: ${JSON.stringify(lines)}`);
        assertEquals(answer.result.runs.map((r: { status: string }) => r.status), ["failed"]);
      } finally {
        reap(pid);
      }
    },
  });
}
