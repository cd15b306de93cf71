/**
 * A scripted mock model server for the interop tests: it speaks just enough of the Anthropic Messages API
 * (streaming and not) for Claude Code and of the OpenAI Responses API (streaming) for Codex.
 *
 * Script: a request that offers tools and carries no tool result yet is answered with one shell tool call
 * (`command`); every other request is answered with a final text. Every request body is recorded, so a
 * test can assert what the model received after the tool ran (or was denied).
 * @module
 */

/** One recorded request. */
export type Recorded = { path: string; body: Record<string, unknown> };

/** A running mock server. */
export type MockModel = {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request received, in order. */
  requests: Recorded[];
  /** Stops the server. */
  close(): Promise<void>;
};

/** What the mock answers. */
export type MockScript = {
  /** The shell command of the one tool call. */
  command: string;
  /** The final text. */
  finalText: string;
};

const SHELL_TOOL_ARGS: Record<string, (cmd: string) => Record<string, unknown>> = {
  // Codex offers one of these depending on the model family; each takes the command its own way.
  exec_command: (cmd) => ({ cmd }),
  shell_command: (cmd) => ({ command: cmd }),
  shell: (cmd) => ({ command: ["bash", "-lc", cmd] }),
};

/** Starts the mock on 127.0.0.1 (an ephemeral port). */
export function startMockModel(script: MockScript): MockModel {
  const requests: Recorded[] = [];
  let seq = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    let body: Record<string, unknown> = {};
    if (req.method === "POST") {
      try {
        body = await req.json();
      } catch {
        body = {};
      }
    }
    requests.push({ path: url.pathname, body });
    seq++;
    if (url.pathname.endsWith("/messages/count_tokens")) return Response.json({ input_tokens: 10 });
    if (url.pathname.endsWith("/messages")) return anthropic(body, script, seq);
    if (url.pathname.endsWith("/responses")) return openai(body, script, seq);
    if (url.pathname.endsWith("/models")) return Response.json({ data: [], models: [] });
    return Response.json({}, { status: 404 });
  });
  const addr = server.addr as Deno.NetAddr;
  return {
    origin: `http://127.0.0.1:${addr.port}`,
    requests,
    close: () => server.shutdown(),
  };
}

function sse(events: [string | null, unknown][]): Response {
  const text = events.map(([name, data]) => (name ? `event: ${name}\n` : "") + `data: ${JSON.stringify(data)}\n\n`)
    .join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

/** True when an Anthropic request's messages already hold a tool_result. */
function anthropicHasToolResult(body: Record<string, unknown>): boolean {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.some((m) =>
    Array.isArray(m?.content) && m.content.some((c: { type?: string }) => c?.type === "tool_result")
  );
}

function anthropic(body: Record<string, unknown>, script: MockScript, seq: number): Response {
  const tools = Array.isArray(body.tools) ? body.tools as { name?: string }[] : [];
  const wantTool = tools.some((t) => t.name === "Bash") && !anthropicHasToolResult(body);
  const model = String(body.model ?? "mock");
  const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  const id = `msg_${seq}`;
  const block = wantTool
    ? { type: "tool_use", id: `toolu_${seq}`, name: "Bash", input: { command: script.command } }
    : { type: "text", text: script.finalText };
  const stopReason = wantTool ? "tool_use" : "end_turn";
  if (body.stream !== true) {
    return Response.json({
      id,
      type: "message",
      role: "assistant",
      model,
      content: [block],
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
  }
  const start = wantTool ? { ...block, input: {} } : { type: "text", text: "" };
  const delta = wantTool
    ? { type: "input_json_delta", partial_json: JSON.stringify({ command: script.command }) }
    : { type: "text_delta", text: script.finalText };
  return sse([
    ["message_start", {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: start }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 5 },
    }],
    ["message_stop", { type: "message_stop" }],
  ]);
}

/** True when a Responses request's input already holds a function call output. */
function openaiHasToolOutput(body: Record<string, unknown>): boolean {
  const input = Array.isArray(body.input) ? body.input : [];
  return input.some((i: { type?: string }) =>
    i?.type === "function_call_output" || i?.type === "custom_tool_call_output"
  );
}

function openai(body: Record<string, unknown>, script: MockScript, seq: number): Response {
  const tools = Array.isArray(body.tools) ? body.tools as { name?: string; type?: string }[] : [];
  const shell = tools.map((t) => t.name ?? "").find((n) => n in SHELL_TOOL_ARGS);
  const wantTool = shell !== undefined && !openaiHasToolOutput(body);
  const id = `resp_${seq}`;
  const item = wantTool
    ? {
      type: "function_call",
      id: `fc_${seq}`,
      call_id: `call_${seq}`,
      name: shell,
      arguments: JSON.stringify(SHELL_TOOL_ARGS[shell](script.command)),
    }
    : {
      type: "message",
      id: `msg_${seq}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: script.finalText, annotations: [] }],
    };
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  return sse([
    ["response.created", { type: "response.created", response: { id, status: "in_progress", output: [] } }],
    ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item }],
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", {
      type: "response.completed",
      response: { id, status: "completed", output: [item], usage },
    }],
  ]);
}
