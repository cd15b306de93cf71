/**
 * No lock waits without a deadline (SPEC §6 r4): a lock held elsewhere (here another open file
 * description of this process, which `flock` treats like another process) is given up after the
 * wait, with a line saying so; a released one is taken.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { lockWithin, withFileLock } from "./file_lock.ts";

Deno.test("withFileLock: a lock held elsewhere is given up after the wait, said in one line; fn never runs", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mind-lock-" });
  const path = `${dir}/.lock`;
  const holder = await Deno.open(path, { read: true, write: true, create: true });
  try {
    holder.lockSync(true);
    let ran = false;
    const r = await withFileLock(path, () => {
      ran = true;
      return Promise.resolve(1);
    }, 50);
    assert(!r.ok && r.error.includes("stayed locked by another process"), JSON.stringify(r));
    assertEquals(ran, false);
    holder.unlockSync();
    assertEquals(await withFileLock(path, () => Promise.resolve(2), 50), { ok: true, value: 2 });
  } finally {
    holder.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lockWithin: false past the deadline, true once the holder lets go", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mind-lock-" });
  const path = `${dir}/f`;
  const holder = await Deno.open(path, { read: true, write: true, create: true });
  const waiter = await Deno.open(path, { read: true, write: true });
  try {
    holder.lockSync(true);
    assertEquals(await lockWithin(waiter, false, 20), false);
    setTimeout(() => holder.unlockSync(), 20);
    assertEquals(await lockWithin(waiter, true, 10_000), true);
  } finally {
    holder.close();
    waiter.close();
    await Deno.remove(dir, { recursive: true });
  }
});
