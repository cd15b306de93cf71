/**
 * The Claude dialect (SPEC §8.1, §7.1, §2.2) against the real Claude Code CLI: for each rule, the same hook
 * runs twice against the mock model — once registered natively in the project's `.claude/settings.json`,
 * once as a `.claude-plugin` plugin of mind-hooks behind `mind-hooks install claude` — and what Claude Code
 * did (did the command run, what it ran, what the model was told, whether the turn went on, any hook
 * error) must be the same. Each case also pins what Claude Code itself does, so that two equal failures
 * cannot pass.
 *
 * Run with `deno task test:interop`; skipped, with the reason printed, when the packages cannot be had.
 * @module
 */
import { assertEquals } from "../helpers/assert.ts";
import { cli, ensurePackages, hostEnv, launcher, makeRunDirs, REPO, type RunDirs, runHost } from "./harness.ts";
import type { DriverReport } from "./driver.ts";

type Json = Record<string, unknown>;
const TOOL_COMMAND = "echo hello-from-tool > ran.txt";
const FINAL = "ALL DONE";
/** Texts looked for in what the model received after its first request. */
const MARKERS = [
  "DENY-MARKER",
  "DENY-GIT",
  "DENY-ECHO",
  "Blocked by hook",
  "STOP-MARKER",
  "BLOCKED: Use feature branches",
  "ASK-MARKER",
  "[git-reset-hard]",
];
/** karanb192's block-dangerous-commands (vendored unchanged, fixtures/thirdparty/): it can answer `ask`. */
const GUARD =
  `${REPO}/fixtures/thirdparty/karanb192-claude-code-hooks/plugins/block-dangerous-commands/block-dangerous-commands.js`;

const skipReason = (await ensurePackages(["claude"])).claude;
if (skipReason) console.log(`claude dialect interop skipped: ${skipReason}`);
else {
  await new Deno.Command(Deno.execPath(), { args: ["cache", "--config", `${REPO}/deno.json`, `${REPO}/main.ts`] })
    .output();
}

/** One dialect rule: the hooks (Claude settings form; `{{name}}` is the path of script `name`) and the run. */
type Case = {
  rule: string;
  scripts: Record<string, string>;
  hooks: Json;
  command?: string;
  /** Leave Bash without Claude Code's own allow rule: only a hook's allow lets it run. */
  allowBash?: boolean;
  /** What Claude Code itself does (checked on the native run). */
  expect: (o: Observed) => void;
  /** What must be the same in both runs (default: all of it). */
  same?: (keyof Observed)[];
  /** Why a field is left out of `same`: a difference the SPEC requires. */
  differs?: string;
  /** What mind does where it deliberately differs (checked on the mind run). */
  mind?: (o: Observed) => void;
};

/** What one run did, as far as the user and the model can tell. */
type Observed = {
  ran: string | null;
  /** Markers the model was shown after its first request. */
  markers: string[];
  /** The model was called again after the tool call's turn (the turn went on). */
  requests: number;
  /** Hook errors the user was shown. */
  hookErrors: string[];
  shell: string | null;
  /** How many times a hook appended to `count.txt` (a handler that ran twice shows 2), null without one. */
  count: number | null;
  /** How often `ONCE-MARKER` (a hook's context) is in the last model request. */
  once: number;
};

function expand(text: string, paths: Record<string, string>): string {
  return text.replaceAll(/\{\{(\w+)\}\}/g, (_, name) => paths[name]);
}

async function read(path: string): Promise<string | null> {
  try {
    return (await Deno.readTextFile(path)).trim();
  } catch {
    return null;
  }
}

/** The hook errors of a Claude Code session: its error attachments and mind-hooks' `failed` system messages. */
async function hookErrors(dirs: RunDirs): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const e of Deno.readDir(`${dirs.hostDir}/projects`)) {
      if (!e.isDirectory) continue;
      for await (const f of Deno.readDir(`${dirs.hostDir}/projects/${e.name}`)) {
        if (!f.name.endsWith(".jsonl")) continue;
        for (const line of (await Deno.readTextFile(`${dirs.hostDir}/projects/${e.name}/${f.name}`)).split("\n")) {
          if (!line.includes("attachment")) continue;
          const a = JSON.parse(line).attachment;
          if (!a || typeof a.type !== "string") continue;
          if (/^hook_.*error/.test(a.type)) found.push(a.type);
          if (a.type === "hook_system_message" && / failed: /.test(String(a.content))) found.push(String(a.content));
        }
      }
    }
  } catch { /* no transcript */ }
  return found;
}

function observe(
  r: DriverReport,
  ran: string | null,
  shell: string | null,
  errors: string[],
  count: string | null,
): Observed {
  const model = r.requests.filter((q) => q.path.endsWith("/messages"));
  const later = model.slice(1).map((q) => JSON.stringify(q.body));
  return {
    ran,
    markers: MARKERS.filter((m) => later.some((b) => b.includes(m))),
    requests: model.length,
    hookErrors: errors,
    shell,
    count: count === null ? null : count.split("\n").filter(Boolean).length,
    once: (later.at(-1) ?? "").split("ONCE-MARKER").length - 1,
  };
}

function describe(r: DriverReport): string {
  return `exit ${r.code}\n--- stdout\n${r.stdout.slice(-2000)}\n--- stderr\n${r.stderr.slice(-2000)}`;
}

/** Runs `c` natively (`.claude/settings.json`) or through mind-hooks (a `.claude-plugin` plugin). */
async function runCase(c: Case, via: "claude" | "mind"): Promise<Observed> {
  const dirs = await makeRunDirs("claude", `${via}-${c.rule.replaceAll(/\W+/g, "-").slice(0, 30)}`);
  const paths: Record<string, string> = {};
  for (const [name, body] of Object.entries(c.scripts)) {
    paths[name] = `${dirs.root}/${name}.sh`;
    await Deno.writeTextFile(paths[name], body);
  }
  const hooks = JSON.parse(expand(JSON.stringify(c.hooks), paths));
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
    await Deno.writeTextFile(`${dirs.mind}/config.toml`, `[plugins.dialect]\nenabled = true\n`);
    const t = await cli(["trust", "--all", "--home", dirs.mind], env);
    assertEquals(t.code, 0, t.stderr);
    const inst = await cli(["install", "claude", "--user", "--command", launcher()], env);
    assertEquals(inst.code, 0, inst.stderr);
  }
  const r = await runHost("claude", dirs, {
    command: c.command ?? TOOL_COMMAND,
    finalText: FINAL,
    prompt: "Run the shell command, then stop.",
    allowBash: c.allowBash,
  });
  assertEquals(r.code, 0, describe(r));
  return observe(
    r,
    await read(`${dirs.work}/ran.txt`),
    await read(`${dirs.work}/shell.txt`),
    await hookErrors(dirs),
    await read(`${dirs.work}/count.txt`),
  );
}

const pre = (handlers: Json[], matcher = "Bash") => ({ PreToolUse: [{ matcher, hooks: handlers }] });
const sh = (script: string, extra: Json = {}) => ({ type: "command", command: `sh {{${script}}}`, ...extra });
const print = (json: Json, tail = "") => `cat >/dev/null\nprintf '%s\\n' '${JSON.stringify(json)}'\n${tail}`;
const hso = (fields: Json) => ({ hookSpecificOutput: { hookEventName: "PreToolUse", ...fields } });

const CASES: Case[] = [
  {
    rule: "unknown output keys are ignored",
    scripts: {
      deny: print({ ...hso({ permissionDecision: "deny", permissionDecisionReason: "DENY-MARKER" }), extra: { a: 1 } }),
    },
    hooks: pre([sh("deny")]),
    expect: (o) => assertEquals([o.ran, o.markers], [null, ["DENY-MARKER"]]),
  },
  {
    rule: "allow without updatedInput is accepted (and is Claude Code's own allow)",
    scripts: { allow: print(hso({ permissionDecision: "allow" })) },
    hooks: pre([sh("allow")]),
    allowBash: false,
    expect: (o) => assertEquals([o.ran, o.hookErrors], ["hello-from-tool", []]),
  },
  {
    // r3: Claude Code asks; without a terminal (-p) it refuses the call with the hook's reason.
    rule: "ask is a decision",
    scripts: { ask: print(hso({ permissionDecision: "ask", permissionDecisionReason: "ASK-MARKER: confirm" })) },
    hooks: pre([sh("ask")]),
    expect: (o) => assertEquals([o.ran, o.markers, o.hookErrors], [null, ["ASK-MARKER"], []]),
  },
  {
    // The same through a real guard: block-dangerous-commands in its documented ask mode.
    rule: "ask is a decision (a real guard in ask mode)",
    scripts: {},
    hooks: pre([{ type: "command", command: `HOOK_ASK_HIGH=true node ${GUARD}` }]),
    command: "git reset --hard 2>/dev/null; echo hello-from-tool > ran.txt",
    expect: (o) => assertEquals([o.ran, o.markers], [null, ["[git-reset-hard]"]]),
  },
  {
    rule: "deny beats ask",
    scripts: {
      ask: print(hso({ permissionDecision: "ask", permissionDecisionReason: "ASK-MARKER" })),
      deny: print(hso({ permissionDecision: "deny", permissionDecisionReason: "DENY-MARKER" })),
    },
    hooks: pre([sh("ask"), sh("deny")]),
    expect: (o) => assertEquals([o.ran, o.markers], [null, ["DENY-MARKER"]]),
  },
  {
    // r3: an installer run twice appends the same entry; Claude Code runs it once (and adds its context once).
    rule: "identical handlers run once",
    scripts: {
      notify: `cat >/dev/null\necho ran >> "$CLAUDE_PROJECT_DIR/count.txt"\n` +
        `printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ONCE-MARKER"}}'\n`,
    },
    hooks: { PostToolUse: [{ matcher: "Bash", hooks: [sh("notify")] }, { matcher: "Bash", hooks: [sh("notify")] }] },
    expect: (o) => assertEquals([o.ran, o.count, o.once], ["hello-from-tool", 1, 1]),
  },
  {
    rule: "legacy decision approve means allow",
    scripts: { approve: print({ decision: "approve" }) },
    hooks: pre([sh("approve")]),
    allowBash: false,
    expect: (o) => assertEquals(o.ran, "hello-from-tool"),
  },
  {
    rule: "updatedInput replaces the tool input",
    scripts: {
      rewrite: print(hso({ permissionDecision: "allow", updatedInput: { command: "echo rewritten > ran.txt" } })),
    },
    hooks: pre([sh("rewrite")]),
    expect: (o) => assertEquals(o.ran, "rewritten"),
  },
  {
    // Claude Code runs the call, then ends the turn: no further model request.
    rule: "continue false stops the turn",
    scripts: { stop: print({ continue: false, stopReason: "STOP-MARKER" }) },
    hooks: pre([sh("stop")]),
    expect: (o) => assertEquals([o.ran, o.requests], ["hello-from-tool", 1]),
  },
  {
    rule: "plain stdout on Stop is ignored",
    scripts: { stop: "cat >/dev/null\necho 'All checks passed.'\n" },
    hooks: { Stop: [{ hooks: [sh("stop")] }] },
    expect: (o) => assertEquals([o.ran, o.hookErrors], ["hello-from-tool", []]),
  },
  {
    rule: "exit 2 with an empty stderr blocks",
    scripts: { block: "cat >/dev/null\nexit 2\n" },
    hooks: pre([sh("block")]),
    expect: (o) => assertEquals([o.ran, o.markers], [null, []]),
    same: ["ran", "shell", "hookErrors", "requests"],
    differs: `the model is told "[<command>]: No stderr output" by Claude Code, "Blocked by hook" by mind (SPEC §8.1)`,
  },
  {
    rule: "a deny without a reason blocks",
    scripts: { deny: print(hso({ permissionDecision: "deny" })) },
    hooks: pre([sh("deny")]),
    expect: (o) => assertEquals([o.ran, o.markers], [null, []]),
    same: ["ran", "shell", "hookErrors", "requests"],
    differs:
      `the model is told "Hook PreToolUse:Bash denied this tool" by Claude Code, "Blocked by hook" by mind (SPEC §8.1)`,
  },
  {
    rule: "a JSON answer is read whatever the exit code",
    scripts: { deny: print(hso({ permissionDecision: "deny", permissionDecisionReason: "DENY-MARKER" }), "exit 1") },
    hooks: pre([sh("deny")]),
    expect: (o) => assertEquals([o.ran, o.markers], [null, ["DENY-MARKER"]]),
  },
  {
    rule: "the if filter runs only the handlers whose rule matches",
    scripts: {
      git: print(hso({ permissionDecision: "deny", permissionDecisionReason: "DENY-GIT" })),
      echo: print(hso({ permissionDecision: "deny", permissionDecisionReason: "DENY-ECHO" })),
    },
    hooks: pre([sh("git", { if: "Bash(git *)" }), sh("echo", { if: "Bash(echo *)" })]),
    expect: (o) => assertEquals([o.ran, o.markers], [null, ["DENY-ECHO"]]),
  },
  {
    // Inline (a pipeline, so the shell does not exec away): $$ is the shell the hook was started with.
    rule: "hooks start as /bin/sh -c",
    scripts: {},
    hooks: pre([{
      type: "command",
      command: `cat >/dev/null; tr '\\000' ' ' < /proc/$$/cmdline | cut -d' ' -f1,2 > "$CLAUDE_PROJECT_DIR/shell.txt"`,
    }]),
    expect: (o) => assertEquals([o.shell, o.ran], ["/bin/sh -c", "hello-from-tool"]),
  },
  {
    rule: "SessionStart hooks write CLAUDE_ENV_FILE for later commands",
    scripts: { env: `cat >/dev/null\nset -u\necho 'export INTEROP_ENV=from-env-file' >> "$CLAUDE_ENV_FILE"\n` },
    hooks: { SessionStart: [{ hooks: [sh("env")] }] },
    command: `echo "$INTEROP_ENV" > ran.txt`,
    expect: (o) => assertEquals(o.ran, "from-env-file"),
  },
];

/**
 * More `if` rules against commands that take Claude Code's command splitting (SPEC §2.2: "exactly as Claude
 * Code decides"): `fires` says whether Claude Code runs the guarded (denying) hook. *(r3)* mind errs toward
 * running a guard (the splitter strips keywords, groups and wrappers, and an unreadable line matches):
 * where that makes mind run a hook Claude Code skips, `mind` says so and `why` is the deliberate difference.
 * Commands are harmless when not denied (`rm -f` of a file that does not exist).
 */
const IF_RULES: { rule: string; command: string; fires: boolean; mind?: boolean; why?: string }[] = [
  { rule: "Bash(echo *)", command: "FOO=1 echo hello-from-tool > ran.txt", fires: true },
  { rule: "Bash(echo:*)", command: "true && echo hello-from-tool > ran.txt", fires: true },
  { rule: "Bash(ech *)", command: "echo hello-from-tool > ran.txt", fires: false },
  { rule: "Bash(git *)", command: `echo "git push" > ran.txt`, fires: false },
  { rule: "Bash(git *)", command: "echo $(date) > ran.txt", fires: true },
  { rule: "Bash(echo hello*)", command: "echo  hello-from-tool > ran.txt", fires: true },
  { rule: "Bash", command: "echo hello-from-tool > ran.txt", fires: true },
  { rule: "Edit(*)", command: "echo hello-from-tool > ran.txt", fires: false },
  // r3 (issue 21.9): the forms that skipped a Bash(rm *) guard. Claude Code runs every `if` hook for a
  // compound command (group, subshell, if/for/while/case), whatever it holds.
  { rule: "Bash(rm *)", command: "{ rm -f no-such-file; }", fires: true },
  { rule: "Bash(rm *)", command: "if true; then rm -f no-such-file; fi", fires: true },
  { rule: "Bash(rm *)", command: "for f in a; do rm -f no-such-file; done", fires: true },
  { rule: "Bash(rm *)", command: "while false; do rm -f no-such-file; done", fires: true },
  { rule: "Bash(rm *)", command: "case x in x) rm -f no-such-file;; esac", fires: true },
  { rule: "Bash(rm *)", command: "! rm -f no-such-file", fires: true },
  { rule: "Bash(rm *)", command: "(rm -f no-such-file)", fires: true },
  { rule: "Bash(rm *)", command: "echo no-such-file | xargs rm -f", fires: true },
  { rule: "Bash(rm *)", command: "\\rm -f no-such-file", fires: true },
  { rule: "Bash(rm *)", command: "'rm' -f no-such-file", fires: true },
  { rule: "Bash(rm *)", command: "timeout 5 echo rm > ran.txt", fires: false },
  { rule: "Bash(git *)", command: "echo {a,b} > ran.txt", fires: true },
  { rule: "Bash(git *)", command: "echo a; exec 3>&1", fires: false },
  // Deliberate differences: mind strips wrappers, so their command is matched too (Claude Code matches
  // only `timeout 5 rm …` as a whole, which `rm *` does not match).
  ...["timeout 5", "time", "nice -n 5", "nohup", "command", "stdbuf -o0", "env FOO=1"].map((w) => ({
    rule: "Bash(rm *)",
    command: `${w} rm -f no-such-file`,
    fires: false,
    mind: true,
    why: `mind strips the wrapper "${
      w.split(" ")[0]
    }" and matches the command it runs (SPEC §2.2 r3); Claude Code does not`,
  })),
  // The commands a command runs from its arguments: a shell's -c line, eval's words, find's -exec.
  ...["bash -c 'rm -f no-such-file'", "eval 'rm -f no-such-file'", "find . -name no-such-file -exec rm -f {} +"]
    .map((command) => ({
      rule: "Bash(rm *)",
      command,
      fires: false,
      mind: true,
      why: "mind reads the command a shell's -c, eval or find -exec runs (SPEC §2.2 r3: err toward the guard)",
    })),
  // An expansion makes the line unreadable to mind: every rule matches; Claude Code resolves $HOME.
  {
    rule: "Bash(git *)",
    command: "echo $HOME > ran.txt",
    fires: false,
    mind: true,
    why: "mind does not expand parameters: a line with one is unreadable and matches (SPEC §2.2 r3)",
  },
  // mind reads inside compound commands and runs the hook only when a simple command in them matches;
  // Claude Code runs it for any compound command.
  ...["{ ls; }", "{ ls; } > ran.txt", "(ls) > ran.txt", "if true; then ls; fi > ran.txt"].map((command) => ({
    rule: "Bash(rm *)",
    command,
    fires: true,
    mind: false,
    why:
      "mind splits groups, subshells and keywords (SPEC §2.2 r3): no simple command is rm; Claude Code runs every if hook for a compound command",
  })),
];
for (const { rule, command, fires, mind, why } of IF_RULES) {
  CASES.push({
    rule: `if ${rule} on ${JSON.stringify(command)}`,
    scripts: { deny: print(hso({ permissionDecision: "deny", permissionDecisionReason: "DENY-MARKER" })) },
    hooks: pre([sh("deny", { if: rule })]),
    command,
    expect: (o) =>
      assertEquals(o.markers.includes("DENY-MARKER"), fires, `Claude Code ${fires ? "did not run" : "ran"} it`),
    ...(mind !== undefined && mind !== fires
      ? {
        same: ["shell", "hookErrors"] as (keyof Observed)[],
        differs: why,
        mind: (o: Observed) =>
          assertEquals(o.markers.includes("DENY-MARKER"), mind, `mind ${mind ? "did not run" : "ran"} it`),
      }
      : {}),
  });
}

const opts = { ignore: skipReason !== null, sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "claude dialect control: without a hook's allow, claude -p does not run an un-allowed Bash",
  ...opts,
}, async () => {
  const o = await runCase({ rule: "control", scripts: {}, hooks: {}, allowBash: false, expect: () => {} }, "claude");
  assertEquals(o.ran, null);
});

for (const c of CASES) {
  Deno.test({ name: `claude dialect: ${c.rule} — Claude Code and mind-hooks agree`, ...opts }, async () => {
    const native = await runCase(c, "claude");
    c.expect(native);
    const mind = await runCase(c, "mind");
    c.mind?.(mind);
    const same = c.same ?? ["ran", "markers", "shell", "hookErrors", "requests", "count", "once"];
    const pick = (o: Observed) => Object.fromEntries(same.map((k) => [k, o[k]]));
    assertEquals(pick(mind), pick(native), c.differs);
  });
}

/**
 * SPEC §2.8 r3, foreign user layers: a guard in the user's own `~/.claude/settings.json` (as Trail of Bits'
 * "no push to main" hook is installed; fixtures/foreign_user/) runs once — natively, and the same behind
 * `mind-hooks install claude --user`, where mind leaves the `claude-user` layer to Claude Code (which runs it)
 * instead of running it a second time. mind's own run of that layer, as the host, is tests/foreign_user_layers_test.ts.
 */
async function runUserGuard(via: "claude" | "mind"): Promise<{ observed: Observed; count: number }> {
  const dirs = await makeRunDirs("claude", `${via}-user-layer`);
  const guard = `echo ran >> "$HOME/guard-count"; INPUT=$(cat); ` +
    `if echo "$INPUT" | grep -qE 'git[[:space:]]+push.*(main|master)'; then ` +
    `echo 'BLOCKED: Use feature branches, not direct push to main' >&2; exit 2; fi`;
  await Deno.writeTextFile(
    `${dirs.hostDir}/settings.json`,
    JSON.stringify({ permissions: { deny: ["Read(~/.ssh/**)"] }, hooks: pre([{ type: "command", command: guard }]) }),
  );
  const env = { ...hostEnv("claude", dirs), MIND_HOME: dirs.mind };
  if (via === "mind") {
    const inst = await cli(["install", "claude", "--user", "--command", launcher()], env);
    assertEquals(inst.code, 0, inst.stderr);
    const t = await cli(["trust", "--all", "--home", dirs.mind], env);
    assertEquals(t.code, 0, t.stderr);
  }
  const r = await runHost("claude", dirs, {
    command: "git push origin main > ran.txt",
    finalText: FINAL,
    prompt: "Push the branch, then stop.",
  });
  assertEquals(r.code, 0, describe(r));
  const count = ((await read(`${dirs.home}/guard-count`)) ?? "").split("\n").filter((l) => l !== "").length;
  const observed = observe(r, await read(`${dirs.work}/ran.txt`), null, await hookErrors(dirs), null);
  return { observed, count };
}

Deno.test({
  name:
    "claude dialect: a ~/.claude/settings.json guard runs once — natively and behind mind-hooks (claude-user left to Claude Code)",
  ...opts,
}, async () => {
  const native = await runUserGuard("claude");
  assertEquals(
    [native.count, native.observed.ran, native.observed.markers],
    [1, null, ["BLOCKED: Use feature branches"]],
  );
  const mind = await runUserGuard("mind");
  assertEquals(mind, native);
});
