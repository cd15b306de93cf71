/**
 * The http runner against a loopback server (SPEC §2.2 r4): the event is POSTed as JSON with the
 * interpolated headers; a 2xx body is the stdout; non-2xx, a redirect (not followed), a refused
 * connection and the timeout are failures.
 */
import { assertEquals, assertMatch } from "../../tests/helpers/assert.ts";
import { runHttp } from "./http.ts";

type Seen = { method: string; type: string | null; auth: string | null; body: string };

async function withServer(
  answer: (path: string) => Response | Promise<Response>,
  test: (base: string, seen: Seen[]) => Promise<void>,
): Promise<void> {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    seen.push({
      method: req.method,
      type: req.headers.get("content-type"),
      auth: req.headers.get("authorization"),
      body: await req.text(),
    });
    return await answer(new URL(req.url).pathname);
  });
  try {
    await test(`http://127.0.0.1:${server.addr.port}`, seen);
  } finally {
    await server.shutdown();
  }
}

const handler = (url: string, extra: Record<string, unknown> = {}) => ({
  type: "http" as const,
  url,
  headers: { Authorization: "Bearer $TOKEN" },
  allowedEnvVars: ["TOKEN"],
  timeout: 5,
  ...extra,
});
const env = (n: string) => n === "TOKEN" ? "s3cret" : undefined;

Deno.test("http runner: POSTs the event JSON with its headers; a 2xx body is the stdout, empty is no output", async () => {
  await withServer(
    (path) => path === "/empty" ? new Response(null, { status: 204 }) : Response.json({ ok: 1 }),
    async (base, seen) => {
      const r = await runHttp(handler(`${base}/hook`), { body: '{"hook_event_name":"Stop"}', env });
      assertEquals([r.exitCode, r.stdout, r.failure, r.timedOut], [0, '{"ok":1}', undefined, false]);
      assertEquals(seen[0], {
        method: "POST",
        type: "application/json",
        auth: "Bearer s3cret",
        body: '{"hook_event_name":"Stop"}',
      });
      const empty = await runHttp(handler(`${base}/empty`), { body: "{}", env });
      assertEquals([empty.exitCode, empty.stdout], [0, ""]);
    },
  );
});

Deno.test("http runner: a non-2xx status, a redirect, a refused connection and the timeout are failures", async () => {
  await withServer(async (path) => {
    if (path === "/slow") await new Promise((r) => setTimeout(r, 3000));
    if (path === "/moved") return new Response(null, { status: 302, headers: { location: "/hook" } });
    return new Response("no", { status: 503 });
  }, async (base, seen) => {
    const down = await runHttp(handler(`${base}/x`), { body: "{}", env });
    assertEquals([down.exitCode, down.failure], [null, `http 127.0.0.1:${new URL(base).port} answered HTTP 503`]);
    const moved = await runHttp(handler(`${base}/moved`), { body: "{}", env });
    assertMatch(moved.failure ?? "", /answered a redirect \(HTTP 302\), which is not followed/);
    assertEquals(seen.filter((s) => s.body === "{}").length, 2, "the redirect was not followed");
    const slow = await runHttp(handler(`${base}/slow`, { timeout: 1 }), { body: "{}", env });
    assertEquals([slow.timedOut, slow.exitCode], [true, null]);
  });
  const refused = await runHttp(handler("http://127.0.0.1:1/x"), { body: "{}", env });
  assertMatch(refused.failure ?? "", /^http 127\.0\.0\.1:1: /);
});
