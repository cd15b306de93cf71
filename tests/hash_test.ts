import { assert, assertEquals } from "./helpers/assert.ts";
import fc from "fast-check";
import { canonicalJson, contentHash, hookKey } from "../src/trust/hash.ts";
import { collectHandlers } from "../src/config/handlers.ts";
import { parseTomlText } from "../src/config/files.ts";

// Expected values computed independently (Python: json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False) + hashlib.sha256).
const SEED_EXAMPLE = "sha256:fcedd5e9eb625b86a448eed6d3d1d7d03264452fa3f880f213ca08c3da2da241";

Deno.test("canonical JSON sorts keys at every depth, no whitespace", () => {
  assertEquals(
    canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: "é" } }),
    `{"a":{"c":"é","d":[1,{"y":null,"z":true}]},"b":1}`,
  );
});

Deno.test("canonical JSON is iterative: a 200,000-deep value renders, equal to the recursive definition on random values", () => {
  const depth = 200_000;
  const deep = JSON.parse("[".repeat(depth) + '{"b":1,"a":[]}' + "]".repeat(depth));
  assertEquals(canonicalJson(deep), "[".repeat(depth) + '{"a":[],"b":1}' + "]".repeat(depth));
  // The recursive definition the iterative renderer replaced (RFC 8785 for our value domain).
  const reference = (v: unknown): string => {
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(reference).join(",")}]`;
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(o[k])}`).join(",")}}`;
  };
  fc.assert(fc.property(fc.jsonValue(), (v) => canonicalJson(v) === reference(v)), {
    numRuns: 500,
    seed: 20261201, // fixed: deno task test is deterministic (SPEC §15)
  });
  assertEquals(
    canonicalJson({ a: undefined, b: [1, "x", { c: false }], "\u2028": "é" }),
    reference({ b: [1, "x", { c: false }], "\u2028": "é" }),
  );
});

Deno.test("content hash: fixed expected values (SPEC §3.2)", async () => {
  assertEquals(
    await contentHash("PreToolUse", "shell_command|apply_patch", {
      type: "command",
      command: "python scripts/check_tool.py",
      timeout: 10,
      async: false,
      additionalContextLimit: 2500,
      statusMessage: "Checking tool call",
    }),
    SEED_EXAMPLE,
  );
  assertEquals(
    await contentHash("Stop", null, {
      type: "command",
      command: "./stop.sh",
      timeout: 600,
      async: false,
      additionalContextLimit: 2500,
    }),
    "sha256:a4eb5bead21468cab164bbaad99e573de249f8eb441880294d2eb89f437c7881",
  );
  assertEquals(
    await contentHash("PreToolUse", "^Bash$", {
      type: "mcp_tool",
      server: "scanner",
      tool: "scan",
      input: { "ü": 1, patch: "${tool_input.command}" },
      timeout: 600,
      serverSpec: null,
    }),
    "sha256:e48ae272e6db2d0c2e102db676488ab0ea105074d6652d2eda25bf2d4ff93974",
  );
  // The resolved server table, as written (SPEC §3.2): no environment value is expanded.
  assertEquals(
    await contentHash("PreToolUse", "^Bash$", {
      type: "mcp_tool",
      server: "scanner",
      tool: "scan",
      input: { "ü": 1, patch: "${tool_input.command}" },
      timeout: 600,
      serverSpec: { url: "http://127.0.0.1:8080/mcp", bearer_token_env_var: "SCANNER_TOKEN" },
    }),
    "sha256:41f114ad7bbcbb3352c2a7efdf09a4fcb074851dea63f990109faa5110e84689",
  );
});

async function hashesOf(hooks: unknown, dialect: "mind" | "claude" = "mind"): Promise<string[]> {
  const r = collectHandlers(hooks, { layer: "user", keyPath: "/x", dialect });
  return await Promise.all(r.handlers.map((h) => contentHash(h.event, h.matcher, h.handler, h.dialect)));
}

// Computed independently, with the README's Python snippet.
const R2 = {
  sessionEndAsync: "sha256:964d9505f2c8e05301084c6232db83f81c3089b2ea8dfae8295fd027b9186e0b",
  preCompactLimit: "sha256:703db044c886f3ab5d978d4d9ea4302c2bf2e7b669d61e929601176f71612d5b",
  failClosed: "sha256:297ed3ab056fddfe562dacff5cc210745b35518611fad9f1485153ccd9eca59e",
  /** r3: a Claude-dialect handler's subject holds `"dialect": "claude"` (SPEC §3.2). */
  claudeIf: "sha256:7a471fc7db4ddc4163d0e76a227f660775346afa73ac94fa6a6b3fa41e782054",
  claudePlain: "sha256:7659eaafa8bdd406f5211d2194192531739de1c7d6041ffedcc894d0c0fe4605",
  plain: "sha256:d096f3a48d81c8f345ad5b5621e8f7c8ed505775408fddc8adb30aeb0c593e21",
};

Deno.test("r2 hash fields: async and additionalContextLimit as written, failClosed only when true, if only in the Claude dialect", async () => {
  // SessionEnd runs synchronously whatever `async` says, but the hash holds what is written.
  assertEquals(
    await hashesOf({
      SessionEnd: [{ matcher: "other", hooks: [{ type: "command", command: "./cleanup.sh", async: true }] }],
    }),
    [R2.sessionEndAsync],
  );
  // A limit on an event that ignores it (W_LIMIT_IGNORED) is still hashed as written.
  assertEquals(
    await hashesOf({
      PreCompact: [{ hooks: [{ type: "command", command: "./save.sh", additionalContextLimit: 100 }] }],
    }),
    [R2.preCompactLimit],
  );
  const guard = (extra: Record<string, unknown>) => ({
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", ...extra }] }],
  });
  assertEquals(await hashesOf(guard({ failClosed: true })), [R2.failClosed]);
  assertEquals(await hashesOf(guard({ fail_closed: true })), [R2.failClosed]);
  assertEquals(await hashesOf(guard({ failClosed: false })), [R2.plain]);
  assertEquals(await hashesOf(guard({ if: "Bash(git *)" }), "claude"), [R2.claudeIf]);
  // In the mind dialect `if` is an unknown field: never hashed (and never honoured).
  assertEquals(await hashesOf(guard({ if: "Bash(git *)" })), [R2.plain]);
  // Claude Code treats an empty `if` as none; the dialect is still hashed (r3).
  assertEquals(await hashesOf(guard({ if: "" }), "claude"), [R2.claudePlain]);
});

/** r4: one vector per new handler type and for `once`, computed with the docs' Python function (docs/hash.md). */
const R4 = {
  http: "sha256:f3f4becef1e6d5f861c0a9ce1de0896a2a41d3e87d6dbca636b41f93629cfa72",
  prompt: "sha256:76bffdd2f4e042b4ec243fd24791460d395fdbeae70959152006603bd94e47ad",
  claudeOnce: "sha256:3f7baabfbeb31c4f9fb265e82c86778eda054a23ab34b3ba7b0b105f303692a9",
};

Deno.test("r4 hash vectors: http (headers as written), prompt (its text, the default timeout) and once", async () => {
  const http = {
    type: "http",
    url: "https://hooks.corp.example/guard",
    headers: { Authorization: "Bearer $GUARD_TOKEN" },
    allowedEnvVars: ["GUARD_TOKEN"],
    timeout: 10,
    failClosed: true,
  };
  assertEquals(await hashesOf({ PreToolUse: [{ matcher: "Bash", hooks: [http] }] }), [R4.http]);
  // The interpolated value is never part of it: only what is written.
  assertEquals(await hashesOf({ PreToolUse: [{ matcher: "Bash", hooks: [{ ...http, name: "corp guard" }] }] }), [
    R4.http,
  ]);
  const prompt = { type: "prompt", prompt: "Is this shell command safe to run unattended? $ARGUMENTS" };
  assertEquals(await hashesOf({ PreToolUse: [{ matcher: "Bash", hooks: [prompt] }] }), [R4.prompt]);
  assertEquals(await hashesOf({ PreToolUse: [{ matcher: "Bash", hooks: [{ ...prompt, timeout: 30 }] }] }), [R4.prompt]);
  assertEquals(
    await hashesOf({ Stop: [{ hooks: [{ type: "command", command: "./summarize.sh", once: true }] }] }, "claude"),
    [R4.claudeOnce],
  );
  // docs/hash.md gives the same vectors.
  const doc = await Deno.readTextFile(new URL("../docs/hash.md", import.meta.url));
  for (const v of Object.values(R4)) assert(doc.includes(`# == "${v}"`), `docs/hash.md lacks ${v}`);
  // In the mind dialect `once` is an unknown field: never hashed.
  const mind = await hashesOf({ Stop: [{ hooks: [{ type: "command", command: "./summarize.sh", once: true }] }] });
  assertEquals(mind.length === 1 && mind[0] !== R4.claudeOnce, true);
});

Deno.test("TOML and JSON forms, reordered keys and spelled-out defaults hash alike", async () => {
  const toml = parseTomlText(
    `[[hooks.PreToolUse]]
matcher = "shell_command|apply_patch"
hooks = [ { statusMessage = "Checking tool call", type = "command", timeout = 10, command = "python scripts/check_tool.py" } ]`,
    "t",
  );
  assert(toml.ok);
  const json = {
    PreToolUse: [{
      hooks: [{
        type: "command",
        command: "python scripts/check_tool.py",
        statusMessage: "Checking tool call",
        timeout: 10,
        async: false,
        additionalContextLimit: 2500,
        unknownField: "ignored, never hashed",
      }],
      matcher: "shell_command|apply_patch",
    }],
  };
  assertEquals(await hashesOf((toml.value as Record<string, unknown>).hooks), [SEED_EXAMPLE]);
  assertEquals(await hashesOf(json), [SEED_EXAMPLE]);
});

Deno.test("command_windows alias folds into commandWindows before hashing", async () => {
  const a = await hashesOf({ Stop: [{ hooks: [{ type: "command", command: "x", command_windows: "y" }] }] });
  const b = await hashesOf({ Stop: [{ hooks: [{ type: "command", command: "x", commandWindows: "y" }] }] });
  assertEquals(a, b);
});

Deno.test("anything that changes what runs, when, or how output is read changes the hash", async () => {
  const base = { type: "command", command: "x" };
  const h0 = (await hashesOf({ PreToolUse: [{ matcher: "Bash", hooks: [base] }] }))[0];
  const variants = [
    { PreToolUse: [{ matcher: "Bash", hooks: [{ ...base, command: "y" }] }] },
    { PreToolUse: [{ matcher: "Edit", hooks: [base] }] },
    { PostToolUse: [{ matcher: "Bash", hooks: [base] }] },
    { PreToolUse: [{ matcher: "Bash", hooks: [{ ...base, timeout: 5 }] }] },
    { PreToolUse: [{ matcher: "Bash", hooks: [{ ...base, async: true }] }] },
    { PreToolUse: [{ matcher: "Bash", hooks: [{ ...base, additionalContextLimit: 10 }] }] },
    { PreToolUse: [{ matcher: "Bash", hooks: [{ ...base, commandWindows: "z" }] }] },
    { PreToolUse: [{ matcher: "Bash", hooks: [{ ...base, statusMessage: "s" }] }] },
    { PreToolUse: [{ hooks: [base] }] },
  ];
  for (const v of variants) assert((await hashesOf(v))[0] !== h0, JSON.stringify(v));
});

Deno.test("matchers of matcherless events are dropped before hashing", async () => {
  const a = await hashesOf({ Stop: [{ matcher: "whatever", hooks: [{ type: "command", command: "x" }] }] });
  const b = await hashesOf({ Stop: [{ hooks: [{ type: "command", command: "x" }] }] });
  assertEquals(a, b);
});

Deno.test("SessionEnd timeout defaults to 1 and clamps to 3 (the effective value is hashed)", () => {
  const clamped = collectHandlers({ SessionEnd: [{ hooks: [{ type: "command", command: "x", timeout: 30 }] }] }, {
    layer: "user",
    keyPath: "/x",
  });
  assertEquals(clamped.handlers[0].handler.timeout, 3);
  assertEquals(clamped.warnings.map((w) => w.code), ["W_TIMEOUT_CLAMPED"]);
  const def = collectHandlers({ SessionEnd: [{ hooks: [{ type: "command", command: "x" }] }] }, {
    layer: "user",
    keyPath: "/x",
  });
  assertEquals(def.handlers[0].handler.timeout, 1);
  const intr = collectHandlers({ Interrupt: [{ hooks: [{ type: "command", command: "x", timeout: 9 }] }] }, {
    layer: "user",
    keyPath: "/x",
  });
  assertEquals(intr.handlers[0].handler.timeout, 3);
});

Deno.test("hook keys: format (SPEC §3.1)", () => {
  const key = hookKey("project", "/home/a/repo/.mind/hooks.json", "PreToolUse", 0, 1);
  assertEquals(key, "project:/home/a/repo/.mind/hooks.json:PreToolUse:0:1");
});

Deno.test("indexes count skipped groups and handlers as written", () => {
  const r = collectHandlers({
    PreToolUse: [
      { matcher: "([bad", hooks: [{ type: "command", command: "a" }] },
      {
        matcher: "Bash",
        hooks: [{ type: "agent", prompt: "x" }, { type: "command", command: "" }, { type: "command", command: "ok" }],
      },
    ],
  }, { layer: "user", keyPath: "/f" });
  assertEquals(r.handlers.map((h) => h.key), ["user:/f:PreToolUse:1:2"]);
  assertEquals(r.warnings.map((w) => w.code).sort(), ["W_BAD_MATCHER", "W_EMPTY_COMMAND", "W_UNSUPPORTED_HANDLER"]);
});
