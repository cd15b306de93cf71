/**
 * The line splitter of the file readers (`logs`, `transcript show`) counts its work: a 10 MB line
 * read in 64 KiB chunks is searched once and copied at most three times (SPEC §6 r4). Joining the
 * pending text again with every chunk, as the readers did, looked at it 160 times.
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { LineSplitter } from "./line_split.ts";

Deno.test("LineSplitter: a 10 MB line in 64 KiB chunks is searched once and copied at most 3 times", () => {
  const MB = 1024 * 1024;
  const bytes = new TextEncoder().encode("é".repeat(5 * MB) + "\nnext\n");
  const s = new LineSplitter(64 * MB);
  const lines = [];
  for (let i = 0; i < bytes.length; i += 64 * 1024) lines.push(...s.push(bytes.subarray(i, i + 64 * 1024)));
  assertEquals(lines.map((l) => l?.length), [5 * MB, 4]);
  assertEquals(s.scannedBytes, bytes.length);
  assert(s.copiedBytes <= 3 * bytes.length, `copied ${s.copiedBytes} for ${bytes.length}`);
});
