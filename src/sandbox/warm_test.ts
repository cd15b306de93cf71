/**
 * The daemon's warm sandbox Workers ({@link WarmPool}): one Worker per plan content, reused for the
 * next event of the same plan, ended when the same project's plan changes, at most the bound (least
 * recently used ended first), and a Worker that fails hands the event back (null), never an answer.
 * The Workers here are small stand-ins speaking the pool's messages (the real one is the command
 * line's, proved end to end in tests/daemon_test.ts and the path matrix's `sandbox-daemon`).
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { evictions, WarmPool } from "./warm.ts";
import type { SandboxPlan } from "./plan.ts";

/** A Worker that says it is ready (unless its plan's command is `crash`: it throws then) and echoes events. */
const ECHO = `
let plan;
self.onmessage = (e) => {
  const m = e.data;
  if (m.mode) {
    plan = m.plan;
    if (plan.command === "crash") throw new Error("boom");
    self.postMessage({ type: "ready" });
  } else if (m.type === "event") {
    if (m.args[0] === "throw") throw new Error("boom");
    const n = (self.count = (self.count ?? 0) + 1);
    const stdout = JSON.stringify({ cmd: plan.command, args: m.args, stdin: new TextDecoder().decode(m.stdin), n });
    self.postMessage({ type: "answer", stdout, stderr: "", code: 0, daemonOff: false });
  }
};`;

function plan(command: string, searchFrom = "/p", read: string[] = []): SandboxPlan {
  return { command, read, facts: { home: "/h", searchFrom } } as unknown as SandboxPlan;
}

/** A pool of stand-in Workers, and the Workers it started (`ended`: terminated). */
function pool(bound = 4) {
  const started: { command: string; ended: boolean }[] = [];
  const warm = new WarmPool(bound, (p) => {
    const w = new Worker(`data:application/javascript,${encodeURIComponent(ECHO)}`, { type: "module" });
    const rec = { command: p.command, ended: false };
    started.push(rec);
    const terminate = w.terminate.bind(w);
    w.terminate = () => {
      rec.ended = true;
      terminate();
    };
    return w;
  });
  return { warm, started };
}

const bytes = (s: string) => new TextEncoder().encode(s);

Deno.test("warm pool: one Worker per plan, reused; another plan of the same project ends the old one", async () => {
  const { warm, started } = pool();
  try {
    const a = await warm.answer(plan("a"), ["x"], bytes("{}"));
    assertEquals(JSON.parse(a!.stdout), { cmd: "a", args: ["x"], stdin: "{}", n: 1 });
    // The same plan's content: the same (warm) Worker answers, its second event.
    const again = await warm.answer(plan("a"), ["y"], bytes("{}"));
    assertEquals(JSON.parse(again!.stdout).n, 2);
    assertEquals(started.length, 1);
    // Another project: a Worker of its own; the first stays.
    await warm.answer(plan("b", "/q"), [], bytes(""));
    assertEquals(started.map((s) => s.ended), [false, false]);
    // The first project's plan changed (another grant): its old Worker ends, a new one answers.
    const changed = await warm.answer(plan("a", "/p", ["/more"]), [], bytes(""));
    assertEquals(JSON.parse(changed!.stdout).n, 1);
    assertEquals(started.map((s) => s.ended), [true, false, false]);
    assertEquals(warm.size, 2);
  } finally {
    warm.close();
  }
  assertEquals(started.every((s) => s.ended), true);
});

Deno.test("warm pool: at most the bound, the least recently used ended first", async () => {
  const { warm, started } = pool(2);
  try {
    await warm.answer(plan("a", "/a"), [], bytes(""));
    await warm.answer(plan("b", "/b"), [], bytes(""));
    await warm.answer(plan("a", "/a"), [], bytes("")); // a is now the most recent
    await warm.answer(plan("c", "/c"), [], bytes(""));
    assertEquals(started.map((s) => [s.command, s.ended]), [["a", false], ["b", true], ["c", false]]);
    assertEquals(warm.size, 2);
  } finally {
    warm.close();
  }
});

Deno.test("warm pool: a Worker that fails to start or while answering hands the event back, and is not kept", async () => {
  const { warm, started } = pool();
  try {
    assertEquals(await warm.answer(plan("crash"), [], bytes("")), null);
    assertEquals(await warm.answer(plan("a"), ["throw"], bytes("")), null);
    assertEquals(warm.size, 0);
    assertEquals(started.map((s) => s.ended), [true, true]);
    // The next event of that plan gets a new Worker, which answers.
    assertEquals(JSON.parse((await warm.answer(plan("a"), [], bytes("")))!.stdout).n, 1);
  } finally {
    warm.close();
  }
});

Deno.test("evictions: the oldest beyond the bound", () => {
  assertEquals(evictions(["a", "b", "c"], 4), []);
  assertEquals(evictions(["a", "b", "c", "d", "e"], 4), ["a"]);
  assertEquals(evictions(["a", "b", "c"], 1), ["a", "b"]);
});
