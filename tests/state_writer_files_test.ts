/**
 * The trust-state writer on disk (§3.3): files and folders created, bytes kept on refusal, links
 * written through, temp files and locks, and the process-level promises: 20 concurrent writer
 * processes lose nothing, and a writer killed with SIGKILL mid-write never leaves a torn file. Its
 * text edits: tests/state_writer_test.ts.
 */

import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { h, lookup, S, tempConfig } from "./helpers/state_writer.ts";
import { parse as smolParse } from "smol-toml";
import { editTomlFile, type StatePatch, writeHookStates, writeProjectTrust } from "../src/state/state_writer.ts";

const MODULE_URL = new URL("../src/state/state_writer.ts", import.meta.url).href;
const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));
const WINDOWS = Deno.build.os === "windows";

Deno.test("missing file and parent directories are created; a no-op creates nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "state_writer_" });
  const path = `${dir}/a/b/config.toml`;
  const noop = await writeHookStates(path, new Map([["k", { enabled: true, trustedHash: null }]]));
  assertEquals(noop, { ok: true, changed: false });
  let exists = true;
  try {
    await Deno.stat(path);
  } catch {
    exists = false;
  }
  assertEquals(exists, false);

  const r = await writeHookStates(path, new Map([["k", { enabled: false }]]));
  assertEquals(r, { ok: true, changed: true });
  assertEquals(await Deno.readTextFile(path), "[hooks.state.k]\nenabled = false\n");
  if (!WINDOWS) assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("re-trusting keeps enabled = false; untrusting keeps enabled", async () => {
  const { dir, path } = await tempConfig("# mine\n");
  const k = "user:/x/config.toml:Stop:0:0";
  const w = (p: StatePatch) => writeHookStates(path, new Map([[k, p]]));
  assert((await w({ enabled: false, trustedHash: h("1") })).ok);
  assert((await w({ trustedHash: h("2") })).ok); // re-trust a modified hook
  assertEquals(lookup(smolParse(await Deno.readTextFile(path)), S(k)), { enabled: false, trusted_hash: h("2") });
  assert((await w({ trustedHash: null })).ok); // untrust
  assertEquals(lookup(smolParse(await Deno.readTextFile(path)), S(k)), { enabled: false });
  assert((await w({ trustedHash: h("3") })).ok);
  assert((await w({ enabled: true })).ok); // enable keeps the trust
  assertEquals(lookup(smolParse(await Deno.readTextFile(path)), S(k)), { trusted_hash: h("3") });
  assert((await w({ trustedHash: null })).ok); // nothing left: the table goes, the file is as before
  assertEquals(await Deno.readTextFile(path), "# mine\n");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an unparseable file is refused with line and column, bytes unchanged", async () => {
  const bad = '# comment\nmodel = "x"\n[hooks.state."k"\nenabled = false\n';
  const { dir, path } = await tempConfig(bad);
  const before = await Deno.stat(path);
  const r = await writeHookStates(path, new Map([["k", { enabled: false }]]));
  assert(!r.ok);
  assertEquals(r.error.kind, "parse");
  assertStringIncludes(r.error.message, "line 3, column");
  assertStringIncludes(r.error.message, path);
  assert(!r.error.message.includes("\n"), "one-line message");
  assertEquals(await Deno.readTextFile(path), bad);
  assertEquals((await Deno.stat(path)).mtime, before.mtime);

  const p = await writeProjectTrust(path, "/r", "trusted");
  assert(!p.ok && p.error.kind === "parse");
  assertEquals(await Deno.readTextFile(path), bad);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("non-UTF-8 bytes are refused, bytes unchanged", async () => {
  const bytes = new Uint8Array([0x61, 0x20, 0x3d, 0x20, 0x22, 0xff, 0xfe, 0x22, 0x0a]);
  const { dir, path } = await tempConfig(bytes);
  const r = await writeHookStates(path, new Map([["k", { enabled: false }]]));
  assert(!r.ok && r.error.kind === "parse");
  assertStringIncludes(r.error.message, "UTF-8");
  assertEquals(await Deno.readFile(path), bytes);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("state in an inline table: a clear parse error, file unchanged; no-ops still fine", async () => {
  const text = '[hooks]\nstate = { "k" = { enabled = false } } # inline\n';
  const { dir, path } = await tempConfig(text);
  const r = await writeHookStates(path, new Map([["k", { trustedHash: h("1") }]]));
  assert(!r.ok);
  assertEquals(r.error.kind, "parse");
  assertStringIncludes(r.error.message, "inline");
  assertStringIncludes(r.error.message, "line 2");
  const other = await writeHookStates(path, new Map([["other", { enabled: false }]]));
  assert(!other.ok && other.error.kind === "parse");
  assertEquals(await Deno.readTextFile(path), text);
  // Asking for what is already there changes nothing and is not an error.
  assertEquals(await writeHookStates(path, new Map([["k", { enabled: false }]])), { ok: true, changed: false });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("editTomlFile: a throwing edit and an invalid result are refused, file unchanged", async () => {
  const { dir, path } = await tempConfig("a = 1\n");
  const thrown = await editTomlFile(path, () => {
    throw new Error("nope");
  });
  assert(!thrown.ok && thrown.error.kind === "parse");
  assertStringIncludes(thrown.error.message, "nope");
  const invalid = await editTomlFile(path, (t) => t + "b = \n");
  assert(!invalid.ok && invalid.error.kind === "parse");
  assertStringIncludes(invalid.error.message, "line 2");
  assertEquals(await Deno.readTextFile(path), "a = 1\n");
  const ok = await editTomlFile(path, (t) => t + "b = 2\n");
  assertEquals(ok, { ok: true, changed: true });
  assertEquals(await Deno.readTextFile(path), "a = 1\nb = 2\n");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("io errors are values: a directory where the config should be", async () => {
  const dir = await Deno.makeTempDir({ prefix: "state_writer_" });
  await Deno.mkdir(`${dir}/config.toml`);
  const r = await writeHookStates(`${dir}/config.toml`, new Map([["k", { enabled: false }]]));
  assert(!r.ok);
  assertEquals(r.error.kind, "io");
  await Deno.remove(dir, { recursive: true });
});

// Creating symlinks needs extra privileges on Windows.
Deno.test({ name: "a symlinked config is written through, the link stays", ignore: WINDOWS }, async () => {
  const dir = await Deno.makeTempDir({ prefix: "state_writer_" });
  await Deno.mkdir(`${dir}/dotfiles`);
  await Deno.writeTextFile(`${dir}/dotfiles/config.toml`, "# real\n");
  await Deno.symlink(`${dir}/dotfiles/config.toml`, `${dir}/config.toml`);
  assert((await writeProjectTrust(`${dir}/config.toml`, "/r", "trusted")).ok);
  assert((await Deno.lstat(`${dir}/config.toml`)).isSymlink);
  assertEquals(
    await Deno.readTextFile(`${dir}/dotfiles/config.toml`),
    '# real\n\n[projects."/r"]\ntrust_level = "trusted"\n',
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name: "a dangling symlinked config is written through: its file is created, the link stays",
  ignore: WINDOWS,
}, async () => {
  const dir = await Deno.makeTempDir({ prefix: "state_writer_" });
  await Deno.mkdir(`${dir}/dotfiles`);
  await Deno.symlink("dotfiles/config.toml", `${dir}/config.toml`); // relative, and its file is not there yet
  assert((await writeProjectTrust(`${dir}/config.toml`, "/r", "trusted")).ok);
  assert((await Deno.lstat(`${dir}/config.toml`)).isSymlink, "the link was replaced by a file");
  assertEquals(await Deno.readTextFile(`${dir}/dotfiles/config.toml`), '[projects."/r"]\ntrust_level = "trusted"\n');
  // A link into a folder that does not exist is refused (nothing is created along the way), the link kept.
  await Deno.remove(`${dir}/config.toml`);
  await Deno.symlink(`${dir}/nowhere/config.toml`, `${dir}/config.toml`);
  const r = await writeProjectTrust(`${dir}/config.toml`, "/r", "trusted");
  assert(!r.ok && r.error.kind === "io", JSON.stringify(r));
  assert((await Deno.lstat(`${dir}/config.toml`)).isSymlink);
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name: "writers reaching one file through two links share the lock beside the target; no update is lost",
  ignore: WINDOWS,
}, async () => {
  const dir = await Deno.makeTempDir({ prefix: "state_writer_" });
  await Deno.mkdir(`${dir}/dotfiles`);
  await Deno.mkdir(`${dir}/home-a`);
  await Deno.mkdir(`${dir}/home-b`);
  await Deno.writeTextFile(`${dir}/dotfiles/mind.toml`, "# shared\n");
  await Deno.symlink(`${dir}/dotfiles/mind.toml`, `${dir}/home-a/config.toml`);
  await Deno.symlink(`${dir}/dotfiles/mind.toml`, `${dir}/home-b/config.toml`);
  const writes = Array.from(
    { length: 40 },
    (_, i) =>
      writeHookStates(`${dir}/home-${i % 2 ? "a" : "b"}/config.toml`, new Map([[`k:${i}`, { trustedHash: h("a") }]])),
  );
  for (const r of await Promise.all(writes)) assert(r.ok, r.ok ? "" : r.error.message);
  const parsed = smolParse(await Deno.readTextFile(`${dir}/dotfiles/mind.toml`)) as Record<string, unknown>;
  assertEquals(Object.keys(lookup(parsed, ["hooks", "state"]) as object).length, 40);
  assert((await Deno.lstat(`${dir}/dotfiles/mind.toml.lock`)).isFile, "the lock sits beside the target");
  await Deno.remove(dir, { recursive: true });
});

Deno.test(
  { name: "a lock path that is a FIFO, a directory or a symlink is refused, file unchanged", ignore: WINDOWS },
  async () => {
    for (const plant of ["fifo", "dir", "symlink"] as const) {
      const { dir, path } = await tempConfig("a = 1\n");
      if (plant === "fifo") {
        assert((await new Deno.Command("mkfifo", { args: [`${path}.lock`] }).output()).success);
      } else if (plant === "dir") await Deno.mkdir(`${path}.lock`);
      else await Deno.symlink(`${dir}/elsewhere`, `${path}.lock`);
      // A FIFO opened for writing would block forever: the refusal must come at once.
      const r = await writeProjectTrust(path, "/r", "trusted");
      assert(!r.ok && r.error.kind === "io", `${plant}: ${JSON.stringify(r)}`);
      assertStringIncludes(r.error.message, "not a regular file");
      assertEquals(await Deno.readTextFile(path), "a = 1\n");
      if (plant === "symlink") {
        assert(
          !(await Deno.lstat(`${dir}/elsewhere`).then(() => true, () => false)),
          "nothing created",
        );
      }
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test({ name: "a config.toml that is a FIFO is refused at once, not read forever", ignore: WINDOWS }, async () => {
  const { dir, path } = await tempConfig();
  assert((await new Deno.Command("mkfifo", { args: [path] }).output()).success);
  const r = await writeProjectTrust(path, "/r", "trusted");
  assert(!r.ok && r.error.kind === "io", JSON.stringify(r));
  assertStringIncludes(r.error.message, "is not a regular file");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("stale temp files of killed writers are cleaned up, fresh ones are not", async () => {
  const { dir, path } = await tempConfig("a = 1\n");
  const stale = `${dir}/.config.toml.4242.deadbeef.tmp`;
  const fresh = `${dir}/.config.toml.4243.cafe.tmp`;
  const foreign = `${dir}/.config.toml.notours.tmp`;
  for (const f of [stale, fresh, foreign]) await Deno.writeTextFile(f, "partial");
  const old = new Date(Date.now() - 3600_000);
  for (const f of [stale, foreign]) await Deno.utime(f, old, old);
  assert((await writeHookStates(path, new Map([["k", { enabled: false }]]))).ok);
  const names = new Set([...Deno.readDirSync(dir)].map((e) => e.name));
  assert(!names.has(".config.toml.4242.deadbeef.tmp"));
  assert(names.has(".config.toml.4243.cafe.tmp"));
  assert(names.has(".config.toml.notours.tmp"));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("concurrent writers in one process: all keys land", async () => {
  const { dir, path } = await tempConfig("# shared\n");
  const keys = Array.from({ length: 20 }, (_, i) => `inproc:${i}`);
  const results = await Promise.all(
    keys.map((k, i) => writeHookStates(path, new Map([[k, { enabled: i % 2 === 0, trustedHash: h("7") }]]))),
  );
  assert(results.every((r) => r.ok));
  const parsed = smolParse(await Deno.readTextFile(path));
  for (const [i, k] of keys.entries()) {
    const want = i % 2 === 0 ? { trusted_hash: h("7") } : { enabled: false, trusted_hash: h("7") };
    assertEquals(lookup(parsed, S(k)), want, k);
  }
  await Deno.remove(dir, { recursive: true });
});

/** Runs a script in a separate Deno process with only read and write permissions. */
function spawnScript(script: string, args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-lock", "--allow-read", "--allow-write", "--config", CONFIG, script, ...args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test("20 writer processes at once, each on its own key: all 20 land", async () => {
  const { dir, path } = await tempConfig('# shared config\nmodel = "x"\n');
  const script = `${dir}/writer.ts`;
  await Deno.writeTextFile(
    script,
    `import { writeHookStates } from ${JSON.stringify(MODULE_URL)};
const [path, key, hash] = Deno.args;
// Two writes per process: more interleavings, and trust must survive the later disable.
const a = await writeHookStates(path, new Map([[key, { trustedHash: hash }]]));
const b = await writeHookStates(path, new Map([[key, { enabled: false }]]));
if (!a.ok || !b.ok) { console.error(JSON.stringify([a, b])); Deno.exit(1); }
`,
  );
  const keys = Array.from({ length: 20 }, (_, i) => `project:/r${i}/.mind/hooks.json:PreToolUse:0:${i}`);
  const children = keys.map((k, i) => spawnScript(script, [path, k, h(i.toString(16))]));
  const outs = await Promise.all(children.map((c) => c.output()));
  for (const o of outs) assertEquals(o.code, 0, new TextDecoder().decode(o.stderr));
  const text = await Deno.readTextFile(path);
  assert(text.startsWith('# shared config\nmodel = "x"\n'));
  const parsed = smolParse(text);
  for (const [i, k] of keys.entries()) {
    assertEquals(lookup(parsed, S(k)), { enabled: false, trusted_hash: h(i.toString(16)) }, k);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("SIGKILL mid-write never leaves a torn file: always the old or the new content", async () => {
  const { dir, path } = await tempConfig();
  // Two large valid documents (about 4 MB each); the writer flips between them as fast as it can.
  const big = (tag: string) => `marker = "${tag}"\nblob = """\n${`${tag} ${"x".repeat(100)}\n`.repeat(40_000)}"""\n`;
  const A = big("A");
  const B = big("B");
  await Deno.writeTextFile(`${dir}/a.txt`, A);
  await Deno.writeTextFile(`${dir}/b.txt`, B);
  await Deno.writeTextFile(path, A);
  const script = `${dir}/flipper.ts`;
  await Deno.writeTextFile(
    script,
    `import { editTomlFile } from ${JSON.stringify(MODULE_URL)};
const [path, a, b] = Deno.args;
const A = await Deno.readTextFile(a), B = await Deno.readTextFile(b);
for (let n = 1; ; n++) {
  const r = await editTomlFile(path, (t) => (t.startsWith('marker = "A"') ? B : A));
  if (!r.ok) { console.error(JSON.stringify(r)); Deno.exit(1); }
  if (n === 1) console.log("writing");
}
`,
  );
  for (let round = 0; round < 10; round++) {
    const child = spawnScript(script, [path, `${dir}/a.txt`, `${dir}/b.txt`]);
    // Wait for the first completed write, then kill during a later one: at a random moment in
    // even rounds; in odd rounds the moment the file system shows a write starting (a temp file
    // being created or the config itself being modified), which is when a non-atomic writer
    // would leave a torn file.
    const reader = child.stdout.getReader();
    const first = await reader.read();
    assert(!first.done, "the writer started");
    reader.releaseLock();
    if (round % 2 === 0) {
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 300));
    } else {
      const watcher = Deno.watchFs(dir, { recursive: false });
      // Some platforms coalesce or delay events: never wait more than two seconds.
      const timer = setTimeout(() => watcher.close(), 2000);
      for await (const ev of watcher) {
        const names = ev.paths.map((p) => p.split(/[\\/]/).pop() ?? "");
        const writing = ev.kind === "create" || ev.kind === "modify";
        if (writing && names.some((n) => n === "config.toml" || n.endsWith(".tmp"))) break;
      }
      clearTimeout(timer);
      try {
        watcher.close();
      } catch { /* already closed by the timer */ }
    }
    child.kill("SIGKILL");
    const status = await child.status;
    assert(!status.success, "the writer was killed");
    if (!WINDOWS) assertEquals(status.signal, "SIGKILL");
    await child.stdout.cancel();
    await child.stderr.cancel();
    const text = await Deno.readTextFile(path);
    assert(text === A || text === B, `torn file after kill (round ${round}, ${text.length} chars)`);
    smolParse(text);
  }
  // Whatever a killed writer left, the next write works and the lock is free.
  assertEquals((await writeHookStates(path, new Map([["k", { enabled: false }]]))).ok, true);
  await Deno.remove(dir, { recursive: true });
});
