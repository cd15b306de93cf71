/** The bounded capture (src/runner/capture.ts): whole, bounded, and never mixed up by its reused buffers. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { capture, readBuffersMade } from "./capture.ts";

/** The stdout of `sh -c script`, captured with `limit`. */
async function captured(script: string, limit?: number): Promise<{ text: string; truncated: boolean }> {
  const child = new Deno.Command("/bin/sh", { args: ["-c", script], stdin: "null", stdout: "piped", stderr: "null" })
    .spawn();
  const out = capture(child.stdout, limit);
  await child.status;
  const { bytes, truncated } = await out.done;
  return { text: new TextDecoder().decode(bytes), truncated };
}

/** `n` lines naming `tag`, each with its number: what a mixed-up buffer would garble. */
const lines = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag} ${i}\n`).join("");
const printLines = (tag: string, n: number) => `i=0; while [ $i -lt ${n} ]; do echo "${tag} $i"; i=$((i+1)); done`;

Deno.test({
  name: "capture: byte streams read whole into reused buffers, side by side and one after another; bounded",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    // 20,000 lines (~190 KB): several reads of one buffer; four at once, then four more reusing theirs.
    for (let round = 0; round < 2; round++) {
      const tags = ["alpha", "beta", "gamma", "delta"].map((t) => `${t}${round}`);
      const got = await Promise.all(tags.map((t) => captured(printLines(t, 20_000))));
      assertEquals(got, tags.map((t) => ({ text: lines(t, 20_000), truncated: false })));
    }
    assertEquals(await captured(printLines("x", 1_000), 100), {
      text: lines("x", 1_000).slice(0, 100),
      truncated: true,
    });
    assertEquals(await captured("true"), { text: "", truncated: false });
  },
});

Deno.test("capture: a stream that is not a byte stream is read as it comes", async () => {
  const parts = ["one ", "two ", "three"].map((p) => new TextEncoder().encode(p));
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(p);
      c.close();
    },
  });
  const { bytes, truncated } = await capture(stream, 9).done;
  assertEquals([new TextDecoder().decode(bytes), truncated], ["one two t", true]);
});

Deno.test({
  name: "capture: one capture after another reads into the same buffer (a hook run leaves no 64 KB of garbage)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await captured("echo warm");
    const before = readBuffersMade();
    for (let i = 0; i < 20; i++) assertEquals(await captured(`echo ${i}`), { text: `${i}\n`, truncated: false });
    assertEquals(readBuffersMade() - before, 0);
  },
});
