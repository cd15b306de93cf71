/**
 * Child process of the `serve` memory test (tests/serve_memory_test.ts), run with `--expose-gc`:
 * feeds a {@link HookServer} `COUNT` chunks of 1 MiB (each one blank line, which serve skips) on a stream
 * that stays open afterwards, then collects garbage and prints how many of the chunks were freed
 * while the server is still reading (`{"chunks":N,"freed":M}`), and shuts the server down.
 *
 * Usage: `deno run -A --v8-flags=--expose-gc tests/helpers/serve_retention.ts HOME COUNT`
 * @module
 */
import { HookServer } from "../../src/serve/server.ts";

const [home, countText] = Deno.args;
const count = Number(countText);
const gc = (globalThis as unknown as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");

let freed = 0;
const registry = new FinalizationRegistry(() => freed++);
let sent = 0;
let allSent!: () => void;
const everyChunkSent = new Promise<void>((r) => allSent = r);
let endInput!: () => void;
const inputEnds = new Promise<void>((r) => endInput = r);

const input = new ReadableStream<Uint8Array>({
  async pull(controller) {
    if (sent === count) {
      allSent();
      await inputEnds; // the stream stays open: the server is still reading
      controller.close();
      return;
    }
    // One blank line per chunk (spaces, then its line break).
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    chunk[chunk.length - 1] = 0x0a;
    registry.register(chunk, null);
    sent++;
    controller.enqueue(chunk);
  },
}, { highWaterMark: 0 });

const server = new HookServer({
  defaults: { home },
  env: { ...Deno.env.toObject(), MIND_HOME: home },
  processCwd: home,
  write: () => Promise.resolve(),
});
const running = server.run(input);
await everyChunkSent;
for (let i = 0; i < 10; i++) {
  gc();
  await new Promise((r) => setTimeout(r, 20));
}
console.log(JSON.stringify({ chunks: sent, freed }));
endInput();
await running;
