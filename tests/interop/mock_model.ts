/**
 * A scripted mock model server for the interop tests: it speaks just enough of the Anthropic Messages API
 * (streaming and not) for Claude Code, of the OpenAI Responses API (streaming) for Codex, of the Gemini API
 * (`:streamGenerateContent`, `:generateContent`) for Gemini CLI and of the OpenAI Chat Completions API
 * (streaming and not) for Copilot CLI's BYOK mode.
 *
 * Script: a request that offers the shell tool and carries fewer tool results than `toolTurns` (default 1)
 * is answered with one shell tool call (`command`); every other request is answered with a final text. Every request body is
 * recorded, so a test can assert what the model received after the tool ran (or was denied).
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
  /** Each final text gets its own number (`finalText #n`): Gemini CLI stops a turn that repeats itself. */
  numbered?: boolean;
  /** Another tool call instead of the shell call (the host's own tool name and arguments). */
  tool?: { name: string; args: Record<string, unknown> };
  /**
   * How many tool calls the model makes, one per answer, before its final text (default 1); `{n}` in
   * `command` becomes the call's number (Gemini CLI stops a turn that repeats a tool call).
   */
  toolTurns?: number;
  /** The port to listen on (default: an ephemeral one), so that hooks can name the mock before it starts. */
  port?: number;
  /** http hooks' endpoints (SPEC §2.2 r4): a POST to `/hook/<name>` is answered with `hooks[name]` as JSON. */
  hooks?: Record<string, unknown>;
  /**
   * A prompt hook's model (SPEC §2.2 r4): a Messages request whose first message holds `marker` (the hook's
   * question, not a later turn that quotes it) is answered `text`, never with a tool call.
   */
  judge?: { marker: string; text: string };
};

/** The shell command of call `done + 1`, and whether the model still wants one after `done` results. */
function nextCall(script: MockScript, done: number): { want: boolean; command: string } {
  return { want: done < (script.toolTurns ?? 1), command: script.command.replaceAll("{n}", String(done + 1)) };
}

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
  const server = Deno.serve({ hostname: "127.0.0.1", port: script.port ?? 0, onListen: () => {} }, async (req) => {
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
    if (url.pathname.startsWith("/hook/") && script.hooks) {
      const name = url.pathname.slice("/hook/".length);
      return Object.hasOwn(script.hooks, name)
        ? Response.json(script.hooks[name])
        : new Response(null, { status: 204 });
    }
    if (url.pathname.endsWith("/messages/count_tokens")) return Response.json({ input_tokens: 10 });
    if (url.pathname.endsWith("/messages")) return anthropic(body, script, seq);
    if (url.pathname.endsWith("/responses")) return openai(body, script, seq);
    if (url.pathname.endsWith("/chat/completions")) return chat(body, script, seq);
    if (url.pathname.endsWith(":countTokens")) return Response.json({ totalTokens: 10 });
    if (/:(stream)?generateContent$/i.test(url.pathname)) {
      return gemini(body, script, seq, url.pathname.endsWith(":streamGenerateContent"));
    }
    if (url.pathname.endsWith("/models")) {
      return Response.json({ object: "list", data: [{ id: "gpt-5.4", object: "model" }], models: [] });
    }
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

/** The first message of a Messages request, as JSON text ("" when none). */
export function firstMessage(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.length > 0 ? JSON.stringify(messages[0]) : "";
}

/** How many tool_result blocks an Anthropic request's messages hold. */
function anthropicToolResults(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.flatMap((m) => Array.isArray(m?.content) ? m.content : [])
    .filter((c: { type?: string }) => c?.type === "tool_result").length;
}

function anthropic(body: Record<string, unknown>, given: MockScript, seq: number): Response {
  const tools = Array.isArray(body.tools) ? body.tools as { name?: string }[] : [];
  const next = nextCall(given, anthropicToolResults(body));
  // A prompt hook's question is answered by the judge's text, never with a tool call.
  const judged = given.judge !== undefined && firstMessage(body).includes(given.judge.marker);
  const script = judged ? { ...given, finalText: given.judge!.text } : given;
  const wantTool = !judged && tools.some((t) => t.name === "Bash") && next.want;
  const model = String(body.model ?? "mock");
  const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  const id = `msg_${seq}`;
  const block = wantTool
    ? { type: "tool_use", id: `toolu_${seq}`, name: "Bash", input: { command: next.command } }
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
    ? { type: "input_json_delta", partial_json: JSON.stringify({ command: next.command }) }
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

/** How many function call outputs a Responses request's input holds. */
function openaiToolOutputs(body: Record<string, unknown>): number {
  const input = Array.isArray(body.input) ? body.input : [];
  return input.filter((i: { type?: string }) =>
    i?.type === "function_call_output" || i?.type === "custom_tool_call_output"
  ).length;
}

function openai(body: Record<string, unknown>, script: MockScript, seq: number): Response {
  const tools = Array.isArray(body.tools) ? body.tools as { name?: string; type?: string }[] : [];
  const shell = tools.map((t) => t.name ?? "").find((n) => n in SHELL_TOOL_ARGS);
  const next = nextCall(script, openaiToolOutputs(body));
  const wantTool = shell !== undefined && next.want;
  const id = `resp_${seq}`;
  const item = wantTool
    ? {
      type: "function_call",
      id: `fc_${seq}`,
      call_id: `call_${seq}`,
      name: shell,
      arguments: JSON.stringify(SHELL_TOOL_ARGS[shell](next.command)),
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

/** The final text of answer `seq`. */
function finalText(script: MockScript, seq: number): string {
  return script.numbered ? `${script.finalText} #${seq}` : script.finalText;
}

/** Gemini CLI's shell tool and how it takes the command. */
const GEMINI_SHELL = "run_shell_command";

/** A minimal value fitting a Gemini-style JSON schema (side requests that ask for JSON, e.g. a router). */
function fromSchema(schema: Record<string, unknown> | undefined): unknown {
  if (!schema) return {};
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = String(schema.type ?? "OBJECT").toUpperCase();
  if (type === "OBJECT") {
    const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fromSchema(v)]));
  }
  if (type === "ARRAY") return [];
  if (type === "INTEGER" || type === "NUMBER") return 1;
  if (type === "BOOLEAN") return false;
  return "mock";
}

function gemini(body: Record<string, unknown>, script: MockScript, seq: number, stream: boolean): Response {
  const tools = Array.isArray(body.tools) ? body.tools as { functionDeclarations?: { name?: string }[] }[] : [];
  const names = tools.flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name ?? ""));
  const contents = Array.isArray(body.contents) ? body.contents as { parts?: Record<string, unknown>[] }[] : [];
  const next = nextCall(
    script,
    contents.flatMap((c) => c.parts ?? []).filter((p) => p && "functionResponse" in p).length,
  );
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  const call = script.tool ?? { name: GEMINI_SHELL, args: { command: next.command, description: "Run it" } };
  let chunks: Record<string, unknown>[];
  if (names.includes(GEMINI_SHELL) && next.want) {
    chunks = [{
      candidates: [{ content: { role: "model", parts: [{ functionCall: call }] }, finishReason: "STOP", index: 0 }],
      usageMetadata,
      modelVersion: "gemini-2.5-flash",
      responseId: `mock-${seq}`,
    }];
  } else {
    const config = (body.generationConfig ?? {}) as Record<string, unknown>;
    const text = names.includes(GEMINI_SHELL)
      ? finalText(script, seq)
      : config.responseMimeType === "application/json"
      ? JSON.stringify(fromSchema((config.responseJsonSchema ?? config.responseSchema) as Record<string, unknown>))
      : "ok";
    chunks = [
      { candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }], modelVersion: "gemini-2.5-flash" },
      {
        candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }],
        usageMetadata,
        modelVersion: "gemini-2.5-flash",
      },
    ];
  }
  if (!stream) {
    return Response.json(chunks.length === 1 ? chunks[0] : { ...chunks[1], candidates: chunks[0].candidates });
  }
  const text = chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

/** Copilot CLI's shell tool. */
const COPILOT_SHELL = "bash";

function chat(body: Record<string, unknown>, script: MockScript, seq: number): Response {
  const tools = Array.isArray(body.tools) ? body.tools as { function?: { name?: string } }[] : [];
  const names = tools.map((t) => t.function?.name ?? "");
  const messages = Array.isArray(body.messages) ? body.messages as { role?: string }[] : [];
  const next = nextCall(script, messages.filter((m) => m?.role === "tool").length);
  const model = String(body.model ?? "gpt-5.4");
  const base = { id: `chatcmpl-${seq}`, object: "chat.completion.chunk", created: 1, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const call = script.tool ?? { name: COPILOT_SHELL, args: { command: next.command, description: "Run it" } };
  const wantTool = names.includes(COPILOT_SHELL) && next.want;
  const text = names.includes(COPILOT_SHELL) ? finalText(script, seq) : "ok";
  if (body.stream !== true) {
    const message = wantTool
      ? {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: `call_${seq}`,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.args) },
        }],
      }
      : { role: "assistant", content: text };
    return Response.json({
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message, finish_reason: wantTool ? "tool_calls" : "stop" }],
      usage,
    });
  }
  const chunks = wantTool
    ? [
      chunk({
        role: "assistant",
        content: null,
        tool_calls: [{ index: 0, id: `call_${seq}`, type: "function", function: { name: call.name, arguments: "" } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(call.args) } }] }),
      chunk({}, "tool_calls"),
    ]
    : [chunk({ role: "assistant", content: "" }), chunk({ content: text }), chunk({}, "stop")];
  chunks.push({ ...base, choices: [], usage } as typeof chunks[number]);
  const sseText = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
  return new Response(sseText, { headers: { "content-type": "text/event-stream" } });
}
