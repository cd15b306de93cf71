/**
 * `$MIND_HOME/installs.json` is written under a lock, atomically, and a non-regular file there is
 * refused, not read (SPEC §6 r4): 12 concurrent `install --sync` keep all 12 records (a read-modify-write
 * without a lock kept 4 to 9 of them), and an installs.json that is a FIFO neither hangs `trust --all`
 * nor is replaced by `install`.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { cmd, denoDir, group, runCli, writeHooksJson } from "./helpers/cli.ts";

const POSIX = Deno.build.os !== "windows";

/** A temp root: the OS home (with `.mind/` and one hook), a launcher on PATH. */
async function layout() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-installs-" }));
  for (const d of ["home/.mind", "bin"]) await Deno.mkdir(`${root}/${d}`, { recursive: true });
  await Deno.writeTextFile(`${root}/bin/mind-hooks`, "#!/bin/sh\n", { mode: 0o755 });
  await writeHooksJson(`${root}/home/.mind`, { PreToolUse: [group([cmd("true")], "Bash")] });
  const env = { HOME: `${root}/home`, PATH: `${root}/bin:/usr/bin:/bin`, DENO_DIR: denoDir() };
  return { root, env, mind: `${root}/home/.mind`, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

Deno.test({
  name: "installs.json: 12 concurrent install --sync (12 projects) keep all 12 records",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    const projects = Array.from({ length: 12 }, (_, i) => `${t.root}/p${i}`);
    for (const p of projects) await Deno.mkdir(p);
    const runs = await Promise.all(
      projects.map((p) => runCli(["install", "claude", "--sync", "--project", p], { env: t.env, cwd: p })),
    );
    for (const r of runs) assertEquals([r.code, r.stderr.includes("not updated")], [0, false], r.stderr);
    const { installs } = JSON.parse(await Deno.readTextFile(`${t.mind}/installs.json`));
    assertEquals(
      installs.map((r: { project: string }) => r.project).sort(),
      projects.slice().sort(),
    );
  },
});

Deno.test({
  name: "installs.json: a FIFO there is refused — trust --all does not hang, install says so and leaves it",
  ignore: !POSIX,
  async fn() {
    await using t = await layout();
    const fifo = `${t.mind}/installs.json`;
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert(made.success, "mkfifo");
    // killAfterMs: a reader blocked on the FIFO would be killed and fail the test, not stall it.
    const trust = await runCli(["trust", "--all", "--home", t.mind], { env: t.env, cwd: t.root, killAfterMs: 60_000 });
    assertEquals(trust.code, 0, trust.stderr);
    const install = await runCli(["install", "claude", "--sync"], {
      env: t.env,
      cwd: `${t.root}/home`,
      killAfterMs: 60_000,
    });
    assertEquals(install.code, 0, install.stderr);
    assert(install.stderr.includes("is not a regular file; refused, not read"), install.stderr);
    assert((await Deno.lstat(fifo)).isFifo, "the FIFO is left as it was");
  },
});
