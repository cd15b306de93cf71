/**
 * Kept readings (src/shell/reading_cache.ts): a reading is used again only while every look-up it
 * made answers the same, and a damaged kept reading is no reading.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { depsHold, keptReadingOf, readingKey, recordingView } from "../shell/reading_cache.ts";
import { readCommand, type ReaderFs } from "../shell/shell_reader.ts";
import { FileHashCache, READINGS_KEY } from "./file_hash_cache.ts";

/** A file system in memory that can change. */
function memory(files: Record<string, string>): ReaderFs & { files: Record<string, string> } {
  return {
    files,
    list(dir) {
      const names = new Set<string>();
      for (const p of Object.keys(files)) if (p.startsWith(dir + "/")) names.add(p.slice(dir.length + 1).split("/")[0]);
      return names.size ? [...names] : null;
    },
    readText: (p) => files[p] ?? null,
  };
}

const CTX = { root: "/r", cwd: "/r", vars: {}, home: null, env: { PATH: "/usr/bin" } };

Deno.test("kept readings: the look-ups a reading made decide whether it still holds", () => {
  const fs = memory({ "/r/s/a.sh": "", "/r/package.json": JSON.stringify({ scripts: { t: "sh s/a.sh" } }) });
  for (const command of ["sh s/*.sh", "npm run t"]) {
    const view = recordingView(fs);
    readCommand(command, { ...CTX, fs: view.fs });
    assertEquals([command, view.deps.length > 0, depsHold(view.deps, fs)], [command, true, true]);
  }
  const glob = recordingView(fs);
  readCommand("sh s/*.sh", { ...CTX, fs: glob.fs });
  const script = recordingView(fs);
  readCommand("npm run t", { ...CTX, fs: script.fs });
  fs.files["/r/s/b.sh"] = "";
  fs.files["/r/package.json"] = JSON.stringify({ scripts: { t: "sh s/b.sh" } });
  assertEquals([depsHold(glob.deps, fs), depsHold(script.deps, fs)], [false, false]);
  // A command that looks nothing up holds whatever the disk does.
  const plain = recordingView(fs);
  readCommand("cat s/a.sh", { ...CTX, fs: plain.fs });
  assertEquals(plain.deps, []);
});

Deno.test("kept readings: the key holds everything but the disk; damaged entries are dropped", () => {
  const key = readingKey("sh x", CTX);
  assertEquals(key === readingKey("sh x", { ...CTX, cwd: "/r/sub" }), false);
  assertEquals(key === readingKey("sh x", { ...CTX, env: { PATH: "/r/bin" } }), false);
  assertEquals(key === readingKey("sh x", { ...CTX, env: { PATH: "/usr/bin", HOME: "/h" } }), true);
  const reading = { files: ["/r/x"], folders: [], unpinnable: null, fetch: null, modelled: [] };
  assertEquals(keptReadingOf({ key, deps: [], reading }), { key, deps: [], reading });
  for (
    const bad of [null, { key }, { key, deps: [{}], reading }, { key, deps: [], reading: { ...reading, files: [1] } }]
  ) {
    assertEquals(keptReadingOf(bad), null);
  }
  const cache = new FileHashCache({ [READINGS_KEY]: [{ key, deps: [], reading }, { key: "x" }] });
  assertEquals([cache.reading(key), cache.reading("x"), cache.changed], [reading, null, false]);
  assertEquals(new FileHashCache(cache.entries()).reading(key), reading);
});

Deno.test("kept readings: a hook's own cache keeps a few, the oldest dropped first", () => {
  const reading = { files: [], folders: [], unpinnable: null, fetch: null, modelled: [] };
  const cache = new FileHashCache({}, 2);
  for (const key of ["a", "b", "c"]) cache.storeReading(key, [], reading);
  assertEquals([cache.reading("a"), cache.reading("b"), cache.reading("c")], [null, reading, reading]);
  assertEquals((new FileHashCache(cache.entries()).entries()[READINGS_KEY] as unknown[]).length, 2);
});
