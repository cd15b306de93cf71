/**
 * Unit tests of the one atomic writer (src/util/atomic_file.ts): content, modes, the temp file
 * (never left behind, a fixed name's leftover replaced, fresh names for concurrent writers), and
 * a failed replace that leaves the target as it was. The state writer's kill -9 test
 * (tests/state_writer_files_test.ts) covers the crash side through the same function.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { OWNER_ONLY, tempNamePrefix, writeFileAtomic } from "./atomic_file.ts";
import { atomicTempPath } from "./paths.ts";

const WINDOWS = Deno.build.os === "windows";

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "atomic_file_" });
}

const names = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();
const mode = async (path: string) => (await Deno.stat(path)).mode! & 0o777;

Deno.test("atomic file: writes the content and leaves no temp file", async () => {
  const dir = await tempDir();
  await writeFileAtomic(`${dir}/a.json`, "one\n");
  await writeFileAtomic(`${dir}/a.json`, new TextEncoder().encode("two\n"));
  assertEquals(await Deno.readTextFile(`${dir}/a.json`), "two\n");
  assertEquals(names(dir), ["a.json"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test({ name: "atomic file: modes (kept, new, exact owner-only)", ignore: WINDOWS }, async () => {
  const dir = await tempDir();
  await Deno.writeTextFile(`${dir}/kept`, "x");
  await Deno.chmod(`${dir}/kept`, 0o640);
  await writeFileAtomic(`${dir}/kept`, "y", { newFileMode: OWNER_ONLY });
  assertEquals(await mode(`${dir}/kept`), 0o640);
  await writeFileAtomic(`${dir}/new`, "y", { newFileMode: OWNER_ONLY });
  assertEquals(await mode(`${dir}/new`), 0o600);
  await Deno.writeTextFile(`${dir}/private`, "x");
  await Deno.chmod(`${dir}/private`, 0o644);
  await writeFileAtomic(`${dir}/private`, "y", { mode: OWNER_ONLY });
  assertEquals(await mode(`${dir}/private`), 0o600);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("atomic file: a failed replace leaves the target as it was and removes the temp file", async () => {
  const dir = await tempDir();
  await Deno.mkdir(`${dir}/target`);
  await Deno.writeTextFile(`${dir}/target/inside`, "kept");
  let failed = false;
  try {
    await writeFileAtomic(`${dir}/target`, "new");
  } catch {
    failed = true;
  }
  assert(failed, "renaming a file over a folder fails");
  assertEquals(names(dir), ["target"]);
  assertEquals(await Deno.readTextFile(`${dir}/target/inside`), "kept");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("atomic file: a fixed temp name left by a killed writer is replaced", async () => {
  const dir = await tempDir();
  const target = `${dir}/config.toml`;
  const tmp = atomicTempPath(target, Deno.pid);
  assert(tmp.slice(dir.length + 1).startsWith(tempNamePrefix(target)));
  await Deno.writeTextFile(tmp, "partial");
  await writeFileAtomic(target, "a = 1\n", { tempPath: tmp });
  assertEquals(await Deno.readTextFile(target), "a = 1\n");
  assertEquals(names(dir), ["config.toml"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("atomic file: concurrent writers in one process each use their own temp file", async () => {
  const dir = await tempDir();
  const texts = Array.from({ length: 20 }, (_, i) => `writer ${i}\n`.repeat(1000));
  await Promise.all(texts.map((t) => writeFileAtomic(`${dir}/shared`, t)));
  assert(texts.includes(await Deno.readTextFile(`${dir}/shared`)), "one whole write wins");
  assertEquals(names(dir), ["shared"]);
  await Deno.remove(dir, { recursive: true });
});
