/**
 * Async hooks queued behind the 8-slot limit (SPEC §7.2) start later than the dispatch that checked
 * their pins (issue 21 item 7): the runner checks them again right before it starts each one (SPEC §3.5
 * r3). Eight trusted async project hooks hold the slots; a ninth, queued, runs `.mind/late.sh`, which
 * the repository edits while it waits: it is not started, and its result says why. Both runners: the
 * detached one of one-shot `dispatch`, and `serve`'s in-process one. Both ran the edited script on
 * 5df27ae.
 */
import { join } from "node:path";
import { assertEquals } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  type Json,
  makeHome,
  makeProject,
  REPO,
  sessionId,
  trustAll,
  trustProject,
  writeHooksJson,
} from "./helpers/cli.ts";
import { NOT_POSIX, sleep, waitFor } from "../fixtures/async/harness.ts";
import { asyncDir } from "../src/session/async.ts";

/** A trusted project: PostToolUse holds 8 async sleepers; UserPromptSubmit one async hook running `.mind/late.sh`. */
async function queuedProject() {
  const home = await makeHome();
  const proj = await makeProject();
  const marker = join(proj.path, "late-ran");
  await Deno.writeTextFile(join(proj.mindDir, "late.sh"), `cat >/dev/null\necho trusted >> '${marker}'\n`);
  await writeHooksJson(proj.mindDir, {
    PostToolUse: [group(Array.from({ length: 8 }, () => cmd("sleep 2", { async: true })))],
    UserPromptSubmit: [group([cmd("sh .mind/late.sh", { async: true })])],
  });
  await trustProject(home.path, proj.path);
  return {
    home: home.path,
    root: proj.path,
    marker,
    lateKey: `project:${proj.mindDir}/hooks.json:UserPromptSubmit:0:0`,
    /** The repository edits the queued hook's script. */
    tamper: () => Deno.writeTextFile(join(proj.mindDir, "late.sh"), `echo injected >> '${marker}'\n`, { append: true }),
    async [Symbol.asyncDispose]() {
      await proj.cleanup();
      await home.cleanup();
    },
  };
}

const NOT_STARTED = "modified: .mind/late.sh changed (checked again before it started; not run)";

Deno.test({
  name: "async re-check (one-shot): a queued hook whose script changed while it waited is not started",
  ignore: NOT_POSIX,
}, async () => {
  await using p = await queuedProject();
  const sid = sessionId("queued");
  const ev = (name: "PostToolUse" | "UserPromptSubmit" | "Stop") => event(name, { session_id: sid, cwd: p.root });
  const first = await dispatch(p.home, ev("PostToolUse"));
  assertEquals(first.runs.map((r) => r.status), Array(8).fill("started"));
  // All 8 slots taken before the ninth is queued.
  const running = join(asyncDir(p.home, sid), "running");
  await waitFor("8 running slots", 10_000, () => {
    try {
      return [...Deno.readDirSync(running)].length >= 8 ? true : undefined;
    } catch {
      return undefined;
    }
  });
  const second = await dispatch(p.home, ev("UserPromptSubmit"));
  assertEquals(second.runs.map((r) => [r.key, r.status]), [[p.lateKey, "started"]]);
  await p.tamper();
  const late = await waitFor("the queued hook's result", 20_000, async () => {
    const r = await dispatch(p.home, ev("Stop"));
    const found = r.asyncResults.find((x) => x.key === p.lateKey);
    if (found === undefined) await sleep(200);
    return found;
  });
  assertEquals(late, {
    key: p.lateKey,
    event: "UserPromptSubmit",
    status: "failed",
    reason: NOT_STARTED,
    systemMessage: null,
    additionalContext: null,
  });
  assertEquals(await Deno.readTextFile(p.marker).catch(() => "not run"), "not run");
  // Reviewed and trusted again, it runs (the runner's sandbox reads the project it was started from).
  await trustAll(p.home, p.root);
  assertEquals((await dispatch(p.home, ev("UserPromptSubmit"))).runs.map((r) => r.status), ["started"]);
  const again = await waitFor("the hook's result", 20_000, async () => {
    const found = (await dispatch(p.home, ev("Stop"))).asyncResults.find((x) => x.key === p.lateKey);
    if (found === undefined) await sleep(200);
    return found;
  });
  assertEquals([again.status, again.reason], ["completed", null]);
  assertEquals(await Deno.readTextFile(p.marker), "trusted\ninjected\n");
});

Deno.test({
  name: "async re-check (serve): a queued hook whose script changed while it waited is not started",
  ignore: NOT_POSIX,
}, async () => {
  await using p = await queuedProject();
  const sid = sessionId("queued-serve");
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-q", "-P", "--no-prompt", "--config", join(REPO, "deno.json"), join(REPO, "main.ts")]
      .concat(["serve", "--home", p.home]),
    env: { SHELL: "/bin/sh", MIND_REQUIREMENTS: "/nonexistent/r.toml" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const received: Json[] = [];
  let buffered = "";
  const readUntil = async (pred: () => boolean) => {
    const deadline = Date.now() + 20_000;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error("timed out waiting for serve");
      const { value, done } = await lines.read();
      if (done) throw new Error("serve ended");
      buffered += value;
      let nl: number;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        received.push(JSON.parse(buffered.slice(0, nl)));
        buffered = buffered.slice(nl + 1);
      }
    }
  };
  let id = 0;
  const call = async (name: "PostToolUse" | "UserPromptSubmit") => {
    const req = { jsonrpc: "2.0", id: ++id, method: "dispatch", params: event(name, { session_id: sid, cwd: p.root }) };
    await writer.write(new TextEncoder().encode(JSON.stringify(req) + "\n"));
    const mine = id;
    await readUntil(() => received.some((m) => m.id === mine));
    return (received.find((m) => m.id === mine)!.result as { runs: { status: string }[] }).runs.map((r) => r.status);
  };
  try {
    assertEquals(await call("PostToolUse"), Array(8).fill("started"));
    assertEquals(await call("UserPromptSubmit"), ["started"]);
    await p.tamper();
    const completed = () =>
      received.filter((m) => m.method === "hooks/asyncCompleted")
        .flatMap((m) => (m.params as { results: Json[] }).results)
        .filter((r) => r.key === p.lateKey);
    await readUntil(() => completed().length > 0);
    assertEquals(completed(), [{
      key: p.lateKey,
      event: "UserPromptSubmit",
      status: "failed",
      reason: NOT_STARTED,
      systemMessage: null,
      additionalContext: null,
    }]);
    assertEquals(await Deno.readTextFile(p.marker).catch(() => "not run"), "not run");
  } finally {
    await writer.close().catch(() => {});
    await lines.cancel().catch(() => {});
    child.kill();
    await child.status;
  }
});
