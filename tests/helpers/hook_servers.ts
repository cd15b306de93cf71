/**
 * Loopback servers for http and prompt hooks (SPEC §2.2 r4), in the test process: an http hook endpoint
 * that records each request and answers as told, and mocks of the Anthropic Messages API and an
 * OpenAI-compatible chat endpoint that answer a fixed text in each provider's own response shape.
 * @module
 */

/** One request a server saw. */
export type SeenRequest = { path: string; headers: Record<string, string>; body: string };

/** A running loopback server. */
export type LoopbackServer = {
  /** `http://127.0.0.1:<port>` */
  base: string;
  seen: SeenRequest[];
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

/** Starts a server answering each request with `answer(request seen)`. */
export function startServer(answer: (req: SeenRequest) => Response | Promise<Response>): LoopbackServer {
  const seen: SeenRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const r = { path: new URL(req.url).pathname, headers: Object.fromEntries(req.headers), body: await req.text() };
    seen.push(r);
    return await answer(r);
  });
  const close = () => server.shutdown();
  return { base: `http://127.0.0.1:${server.addr.port}`, seen, close, [Symbol.asyncDispose]: close };
}

/** A model mock of `provider` whose every answer's text is `text(request body)`. */
export function startModel(provider: "anthropic" | "openai", text: (body: string) => string): LoopbackServer {
  return startServer((req) =>
    Response.json(
      provider === "anthropic"
        ? { id: "msg_1", type: "message", role: "assistant", content: [{ type: "text", text: text(req.body) }] }
        : {
          id: "c1",
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: text(req.body) } }],
        },
    )
  );
}

/** The `[hooks.model]` table of a mock (a key variable the tests set). */
export function modelToml(provider: "anthropic" | "openai", base: string): string {
  return `[hooks.model]\nprovider = "${provider}"\nbase_url = "${base}${provider === "openai" ? "/v1" : ""}"\n` +
    `model = "judge-1"\napi_key_env = "JUDGE_KEY"\n`;
}
