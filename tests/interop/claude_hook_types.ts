/**
 * Claude Code's `prompt` and `http` hooks (SPEC §2.2 r4) against the real Claude Code CLI: the same hook runs
 * natively in the project's `.claude/settings.json`, and as a `.claude-plugin` plugin of mind-hooks behind
 * `mind-hooks install claude`, and must give the same decision. The mock model (tests/interop/mock_model.ts)
 * stands in for the model both ask — Claude Code its own, mind the user's `[hooks.model]` — and answers the
 * hook's question (it holds `JUDGE-MARKER`) with `{"ok": false, …}`; it also serves the http hook's endpoint.
 *
 * Run with `deno task test:interop --filter "hook types"`; skipped, with the reason printed, when the
 * packages cannot be had.
 * @module
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { cli, ensurePackages, hostEnv, launcher, makeRunDirs, REPO, runHost } from "./harness.ts";
import type { DriverReport } from "./driver.ts";
import { firstMessage } from "./mock_model.ts";

type Json = Record<string, unknown>;
const TOOL_COMMAND = "echo hello-from-tool > ran.txt";
const FINAL = "ALL DONE";
const MARKERS = ["PROMPT-DENY-MARKER", "HTTP-DENY-MARKER"];

const skipReason = (await ensurePackages(["claude"])).claude;
if (skipReason) console.log(`claude hook types interop skipped: ${skipReason}`);
else {
  await new Deno.Command(Deno.execPath(), { args: ["cache", "--config", `${REPO}/deno.json`, `${REPO}/main.ts`] })
    .output();
}

/** What one run did: did the tool run, what the model was told after its first request. */
type Observed = { ran: string | null; markers: string[] };

async function read(path: string): Promise<string | null> {
  try {
    return (await Deno.readTextFile(path)).trim();
  } catch {
    return null;
  }
}

function observe(r: DriverReport, ran: string | null): Observed {
  // The judge's own question is not what the model of the session was told.
  const session = r.requests.filter((q) =>
    q.path.endsWith("/messages") && !firstMessage(q.body).includes("JUDGE-MARKER")
  );
  const told = session.slice(1).map((q) => JSON.stringify(q.body));
  return { ran, markers: MARKERS.filter((m) => told.some((b) => b.includes(m))) };
}

/** Runs `hooks` natively or behind mind-hooks, the mock on `port`. */
async function runCase(label: string, hooks: Json, port: number, via: "claude" | "mind"): Promise<Observed> {
  const dirs = await makeRunDirs("claude", `${via}-${label}`);
  const env = { ...hostEnv("claude", dirs), MIND_HOME: dirs.mind };
  if (via === "claude") {
    await Deno.mkdir(`${dirs.work}/.claude`, { recursive: true });
    await Deno.writeTextFile(`${dirs.work}/.claude/settings.json`, JSON.stringify({ hooks }, null, 2));
  } else {
    const plugin = `${dirs.mind}/plugins/dialect`;
    await Deno.mkdir(`${plugin}/.claude-plugin`, { recursive: true });
    await Deno.mkdir(`${plugin}/hooks`, { recursive: true });
    await Deno.writeTextFile(`${plugin}/.claude-plugin/plugin.json`, JSON.stringify({ name: "dialect" }));
    await Deno.writeTextFile(`${plugin}/hooks/hooks.json`, JSON.stringify({ hooks }, null, 2));
    await Deno.writeTextFile(
      `${dirs.mind}/config.toml`,
      `[plugins.dialect]\nenabled = true\n\n[hooks.model]\nprovider = "anthropic"\n` +
        `base_url = "http://127.0.0.1:${port}"\nmodel = "claude-haiku-judge"\n`,
    );
    const t = await cli(["trust", "--all", "--home", dirs.mind], env);
    assertEquals(t.code, 0, t.stderr);
    const inst = await cli(["install", "claude", "--user", "--command", launcher()], env);
    assertEquals(inst.code, 0, inst.stderr);
  }
  const r = await runHost("claude", dirs, {
    command: TOOL_COMMAND,
    finalText: FINAL,
    prompt: "Run the shell command, then stop.",
    port,
    judge: { marker: "JUDGE-MARKER", text: '{"ok": false, "reason": "PROMPT-DENY-MARKER: not this one"}' },
    hooks: {
      deny: {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "HTTP-DENY-MARKER: the service says no",
        },
      },
    },
  });
  assertEquals(r.code, 0, `exit ${r.code}\n${r.stdout.slice(-1500)}\n${r.stderr.slice(-1500)}`);
  return observe(r, await read(`${dirs.work}/ran.txt`));
}

const opts = { ignore: skipReason !== null, sanitizeResources: false, sanitizeOps: false };
/** A port for the mock (inside the run's own network namespace when the machine allows one). */
const port = () => 20000 + Math.floor(Math.random() * 30000);

const CASES: { label: string; hooks: (port: number) => Json; marker: string }[] = [
  {
    label: "prompt",
    hooks: () => ({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "prompt", prompt: "JUDGE-MARKER: is this safe? $ARGUMENTS" }] }],
    }),
    marker: "PROMPT-DENY-MARKER",
  },
  {
    label: "http",
    hooks: (p) => ({
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: `http://127.0.0.1:${p}/hook/deny` }] }],
    }),
    marker: "HTTP-DENY-MARKER",
  },
];

for (const c of CASES) {
  Deno.test({ name: `claude hook types: a ${c.label} hook — Claude Code and mind-hooks agree`, ...opts }, async () => {
    const p = port();
    const native = await runCase(c.label, c.hooks(p), p, "claude");
    // What Claude Code itself does: the hook's no keeps the tool from running, its reason reaches the model.
    assertEquals(native.ran, null, "Claude Code ran the tool");
    assert(native.markers.includes(c.marker), `Claude Code did not pass on ${c.marker}: ${JSON.stringify(native)}`);
    const q = port();
    const mind = await runCase(c.label, c.hooks(q), q, "mind");
    assertEquals(mind, native);
  });
}
