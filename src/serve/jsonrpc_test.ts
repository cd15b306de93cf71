/**
 * `serve` line framing (SPEC §13, §15: a JSON-RPC line of N bytes costs O(N)): the work of the line
 * splitter (src/serve/jsonrpc.ts), alone and inside the server, is counted (bytes searched, bytes
 * copied) for lines cut into many chunks, so no wall clock decides. A 32 MB line sent to the real
 * CLI: tests/serve_framing_test.ts.
 */
import { assert, assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { LineSplitter } from "./jsonrpc.ts";
import { HookServer } from "./server.ts";

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;
const encoder = new TextEncoder();

/** `bytes` cut into `size`-byte chunks, as a pipe delivers them. */
function* chunks(bytes: Uint8Array, size = CHUNK): Generator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, Math.min(bytes.length, i + size));
}

Deno.test("LineSplitter: a line in 512 chunks is searched once and copied at most 3 times (buffer doubling)", () => {
  const text = "x".repeat(32 * MB) + "\n" + "short\n";
  const bytes = encoder.encode(text);
  const s = new LineSplitter(64 * MB);
  const lines = [...chunks(bytes)].flatMap((c) => s.push(c));
  assertEquals(lines.map((l) => l?.length), [32 * MB, 5]);
  assertEquals(s.scannedBytes, bytes.length, "every byte is searched exactly once");
  assert(s.copiedBytes <= 3 * bytes.length, `copied ${s.copiedBytes} bytes for ${bytes.length}`);
  assertEquals(s.end(), []);
});

Deno.test("LineSplitter: UTF-8 split across chunks, CRLF kept for the caller, BOM only at the start, no final break", () => {
  const bytes = encoder.encode('\uFEFF{"a":"é🎉"}\n\uFEFFx\r\nlast');
  const s = new LineSplitter(1024);
  // One byte at a time: every multi-byte character is cut.
  const lines = [...chunks(bytes, 1)].flatMap((c) => s.push(c));
  assertEquals([...lines, ...s.end()], ['{"a":"é🎉"}', "\uFEFFx\r", "last"]);
  assertEquals(s.scannedBytes, bytes.length);
});

Deno.test("LineSplitter: a line over the limit yields one null at once, is dropped to its end, then splitting goes on", () => {
  const s = new LineSplitter(10);
  const out = [
    ...s.push(encoder.encode("0123456789")),
    ...s.push(encoder.encode("abc")),
    ...s.push(encoder.encode("def\nok\n")),
  ];
  assertEquals(out, [null, "ok"]);
  // Nothing of the skipped line was kept.
  assert(s.copiedBytes <= 3 * 10, `copied ${s.copiedBytes}`);
  assertEquals([...s.push(encoder.encode("0123456789X")), ...s.end()], [null]);
});

Deno.test("serve (in process): a 32 MB request line in 512 chunks is searched once and copied at most 3 times", async () => {
  const out: string[] = [];
  const server = new HookServer({
    defaults: { home: "/nonexistent/mind-home", requirements: "/nonexistent/r.toml" },
    env: {},
    processCwd: "/",
    write: (b) => {
      out.push(new TextDecoder().decode(b));
      return Promise.resolve();
    },
  });
  // An unknown method: the answer needs the line framed and parsed, nothing else.
  const line = encoder.encode(
    `{"jsonrpc":"2.0","id":1,"method":"no/such","params":{"pad":"${"x".repeat(32 * MB)}"}}\n` +
      `{"jsonrpc":"2.0","id":2,"method":"no/such"}\n`,
  );
  const parts = chunks(line);
  const input = new ReadableStream<Uint8Array>({
    pull(c) {
      const next = parts.next();
      if (next.done) c.close();
      else c.enqueue(next.value.slice());
    },
  });
  assertEquals(await server.run(input), 0);
  assertMatch(out.join(""), /"id":1,"error":\{"code":-32601/);
  assertMatch(out.join(""), /"id":2,"error":\{"code":-32601/);
  // The replaced framing searched the whole pending text again for every chunk: 512 chunks of a
  // 32 MB line meant about 8 GB searched (5.3 s here).
  assertEquals(server.framing.scannedBytes, line.length);
  assert(server.framing.copiedBytes <= 3 * line.length, `copied ${server.framing.copiedBytes} of ${line.length}`);
});

Deno.test("LineSplitter: one byte per read keeps one buffer, not an object per chunk, and stays linear", () => {
  const bytes = encoder.encode("y".repeat(MB) + "\n");
  const s = new LineSplitter(64 * MB);
  const lines: (string | null)[] = [];
  for (let i = 0; i < bytes.length; i++) lines.push(...s.push(bytes.subarray(i, i + 1)));
  assertEquals(lines.map((l) => l?.length), [MB]);
  assertEquals(s.scannedBytes, bytes.length);
  assert(s.copiedBytes <= 3 * bytes.length, `copied ${s.copiedBytes}`);
});
