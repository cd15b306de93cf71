/**
 * SPEC §1 (r3): the home is never the cwd. `--home` / `$MIND_HOME` are absolute paths (`~` is `$HOME`;
 * empty or relative is a usage error); with no home at all (neither set, `$HOME` missing, empty or
 * relative) every command but `dispatch` exits 1 with `mind-hooks: no home: set MIND_HOME or HOME, or
 * pass --home DIR`, and `dispatch` runs the managed and CLI layers only, writes nothing of a home (no
 * logs/, sessions/, transcript, env file, async jobs; spilled output still goes to the temp dir, which
 * is not the home), and reports `W_NO_HOME` in `warnings` and `systemMessages`.
 *
 * Before r3, with HOME and MIND_HOME unset, `<cwd>/.mind` was the home: a cloned repository's
 * `.mind/hooks.json` ran as the *user* layer, trusted by its own `.mind/config.toml`, and `.mind/logs/`
 * appeared in the folder.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./helpers/assert.ts";
import { cmd, event, group, type Json, runCli, sessionId, shq } from "./helpers/cli.ts";
import { dispatchEveryPath } from "./helpers/every_path.ts";
import { contentHashSync } from "../src/trust/hash.ts";

const NO_HOME = "no home: set MIND_HOME or HOME, or pass --home DIR";
const NO_HOME_DISPATCH = `${NO_HOME} (only managed and command-line hooks were loaded, and nothing was written)`;

/** An environment without any home: no HOME (and no MIND_HOME, which the helpers never pass). */
const NO_HOME_ENV = { HOME: undefined };

/** Every file and folder under `dir`, relative, sorted. */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string) => {
    for await (const e of Deno.readDir(d)) {
      out.push(`${rel}${e.name}${e.isDirectory ? "/" : ""}`);
      if (e.isDirectory) await walk(join(d, e.name), `${rel}${e.name}/`);
    }
  };
  await walk(dir, "");
  return out.sort();
}

/**
 * A cloned repository that "trusts itself": `.mind/hooks.json` with a hook that leaves a mark, and
 * `.mind/config.toml` holding the trusted hash of that hook under the key it would have as the user layer.
 */
async function selfTrustingRepo() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-nohome-" }));
  const mark = join(root, "RAN");
  const handler = cmd(`touch ${shq(mark)}`);
  await Deno.mkdir(join(root, ".mind"));
  const file = join(root, ".mind", "hooks.json");
  await Deno.writeTextFile(file, JSON.stringify({ hooks: { PreToolUse: [group([handler], "Bash")] } }));
  const hash = contentHashSync("PreToolUse", "Bash", {
    type: "command",
    command: handler.command as string,
    timeout: 600,
    async: false,
    additionalContextLimit: 2500,
  });
  await Deno.writeTextFile(
    join(root, ".mind", "config.toml"),
    `[hooks.state."user:${file}:PreToolUse:0:0"]\ntrusted_hash = "${hash}"\n`,
  );
  return { root, mark, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }).catch(() => {}) };
}

const bash = (cwd: string): Json =>
  event("PreToolUse", { cwd, tool_name: "Bash", tool_input: { command: "ls" }, session_id: sessionId("nohome") });

Deno.test("no home: a repository's .mind/ is never the home — nothing of it runs, nothing is written, W_NO_HOME says so", async () => {
  await using repo = await selfTrustingRepo();
  for (const home of [undefined, "", "relative/home"]) {
    const before = await listing(repo.root);
    const env = { HOME: home, MIND_TEMP_DIR: join(repo.root, ".spill-root") };
    const all = await dispatchEveryPath({ args: [], input: bash(repo.root), env, cwd: repo.root }, [
      "cli",
      "sandbox",
      "mod",
    ]);
    for (const [path, r] of Object.entries(all)) {
      assertEquals([String(home), path, r.decision, r.runs, r.systemMessages], [
        String(home),
        path,
        null,
        [],
        [NO_HOME_DISPATCH],
      ]);
      assertEquals(r.warnings.map((w) => [w.code, w.message]), [["W_NO_HOME", NO_HOME_DISPATCH]]);
      assertEquals(r, all.cli, `${path} differs`);
    }
    assertEquals(await listing(repo.root), before, "nothing is written in the repository");
  }
  assert(!(await Deno.stat(repo.mark).then(() => true, () => false)), "the repository's hook never ran");
});

Deno.test("no home: every command but dispatch exits 1 with the one line, and writes nothing", async () => {
  await using repo = await selfTrustingRepo();
  const before = await listing(repo.root);
  for (
    const args of [
      ["list"],
      ["list", "--json"],
      ["review"],
      ["trust", "--all"],
      ["untrust", "PreToolUse:0:0"],
      ["enable", "PreToolUse:0:0"],
      ["disable", "PreToolUse:0:0"],
      ["project", "status"],
      ["project", "trust"],
      ["validate"],
      ["transcript", "path", "--session", "s"],
      ["session-end", "--session", "s"],
      ["logs"],
      ["prune"],
      ["doctor"],
      ["serve"],
      ["install", "claude", "--sync", "--dry-run"],
    ]
  ) {
    const r = await runCli(args, { env: NO_HOME_ENV, cwd: repo.root, stdin: "" });
    const expected = args[0] === "install" ? `mind-hooks: --sync: ${NO_HOME}\n` : `mind-hooks: ${NO_HOME}\n`;
    assertEquals([args.join(" "), r.code, r.stderr, r.stdout], [args.join(" "), 1, expected, ""]);
  }
  assertEquals(await listing(repo.root), before);
});

Deno.test("home: --home and MIND_HOME are absolute; empty or relative is a usage error; ~ is $HOME", async () => {
  const os = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-osuser-" }));
  try {
    const cases: [string[], Record<string, string | undefined>, string][] = [
      [["--home", "rel"], {}, "mind-hooks: --home rel is a relative path: the home is always an absolute path\n"],
      [["--home", ""], {}, "mind-hooks: --home is empty: the home is an absolute path\n"],
      [[], { MIND_HOME: "rel" }, "mind-hooks: MIND_HOME rel is a relative path: the home is always an absolute path\n"],
      [[], { MIND_HOME: "" }, "mind-hooks: MIND_HOME is empty: the home is an absolute path\n"],
      [["--home", "~/m"], { HOME: undefined }, "mind-hooks: --home ~/m: ~ needs HOME, an absolute path\n"],
    ];
    for (const [args, env, stderr] of cases) {
      for (const command of [["list"], ["dispatch"]]) {
        const r = await runCli([...command, ...args], { env, cwd: os, stdin: JSON.stringify(bash(os)) });
        assertEquals([command[0], args, env, r.code, r.stderr], [command[0], args, env, 1, stderr]);
      }
    }
    // `~` is $HOME, in --home and in MIND_HOME; the default is $HOME/.mind.
    for (
      const [args, env, home] of [
        [["--home", "~/from-flag"], { HOME: os }, join(os, "from-flag")],
        [[], { HOME: os, MIND_HOME: "~/from-env" }, join(os, "from-env")],
        [[], { HOME: os }, join(os, ".mind")],
      ] as [string[], Record<string, string>, string][]
    ) {
      await Deno.mkdir(home, { recursive: true });
      await Deno.writeTextFile(join(home, "hooks.json"), JSON.stringify({ hooks: { Stop: [group([cmd("true")])] } }));
      const r = await runCli(["list", "--json", ...args], { env, cwd: os });
      assertEquals(r.code, 0, r.stderr);
      assertEquals(r.json().hooks.map((h: Json) => h.key), [`user:${home}/hooks.json:Stop:0:0`]);
    }
  } finally {
    await Deno.remove(os, { recursive: true }).catch(() => {});
  }
});

Deno.test("no home: dispatch runs the managed and CLI layers — async not started, no transcript, no env file; spill in the temp dir", async () => {
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-nohome-cli-" }));
  try {
    const spill = join(work, "spill");
    const requirements = join(work, "requirements.toml");
    const seen = join(work, "seen.json");
    await Deno.writeTextFile(
      requirements,
      `[[hooks.SessionStart]]\nhooks = [{ type = "command", command = ${
        JSON.stringify(`cat > ${shq(seen)}; printf '%s' "\${CLAUDE_ENV_FILE:-none}" > ${shq(seen + ".env")}`)
      } }]\n`,
    );
    // The CLI layer: -c hooks (so that the dispatch takes the fast path: no stranger's file in reach).
    const big = `head -c 20000 /dev/zero | tr '\\0' x`;
    const cliHooks = `hooks.SessionStart=[{hooks=[{type="command",command=${JSON.stringify(big)}},` +
      `{type="command",command="sleep 0",async=true}]}]`;
    const args = ["--requirements", requirements, "-c", cliHooks, "--dangerously-bypass-hook-trust"];
    const before = await listing(work);
    const input = event("SessionStart", { cwd: work, session_id: sessionId("nohome-cli") });
    delete input.transcript_path;
    const r = await runCli(["dispatch", ...args], {
      env: { HOME: undefined, MIND_TEMP_DIR: spill },
      cwd: work,
      stdin: JSON.stringify(input),
    });
    assertEquals(r.code, 0, r.stderr);
    const result = r.json();
    assertEquals(result.runs.map((x: Json) => [x.layer, x.status, x.reason]), [
      ["managed", "completed", null],
      ["cli", "completed", null],
      [
        "cli",
        "failed",
        "not started: an async hook needs a home (no home: set MIND_HOME or HOME, or pass --home DIR)",
      ],
    ]);
    assertEquals(result.envFile, null);
    assertEquals(result.systemMessages[0], NO_HOME_DISPATCH);
    // The hook saw no transcript path and no env file.
    assertEquals(JSON.parse(await Deno.readTextFile(seen)).transcript_path, null);
    assertEquals(await Deno.readTextFile(seen + ".env"), "none");
    // The large context was spilled to the temp dir (not a home): the preview names the saved file.
    const saved = /full output saved to (\S+\.txt)/.exec(result.additionalContext[0])?.[1];
    assert(saved !== undefined && saved.startsWith(join(spill, "hook_outputs")), result.additionalContext[0]);
    const after = (await listing(work)).filter((p) => !p.startsWith("spill/") && !p.startsWith("seen.json"));
    assertEquals(after, before);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});

Deno.test("no home: the adapters answer their host, and say why nothing of the user's ran", async () => {
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-nohome-adapter-" }));
  try {
    const input = {
      session_id: "s-nohome",
      transcript_path: join(work, "t.jsonl"),
      cwd: work,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: "t1",
      permission_mode: "default",
    };
    for (const host of ["claude", "codex"]) {
      const r = await runCli(["dispatch", "--protocol", host], {
        env: NO_HOME_ENV,
        cwd: work,
        stdin: JSON.stringify(host === "codex" ? { ...input, turn_id: "t", model: "m" } : input),
      });
      assertEquals([host, r.code], [host, 0], r.stderr);
      assert(r.stdout.includes(NO_HOME), `${host}: ${r.stdout}`);
    }
    assertEquals(await listing(work), []);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});

Deno.test("home: a serve request or a library call with a relative home is refused, like the CLI", async () => {
  const os = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hooks-osuser-" }));
  try {
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "dispatch", params: { ...bash(os), options: { home: "rel" } } },
      { jsonrpc: "2.0", id: 2, method: "shutdown" },
    ].map((m) => JSON.stringify(m)).join("\n") + "\n";
    const r = await runCli(["serve", "--home", join(os, "m")], { stdin: lines, env: { HOME: os }, cwd: os });
    const reply = JSON.parse(r.stdout.split("\n")[0]);
    assertEquals([reply.id, reply.error?.code, reply.error?.message], [
      1,
      -32602,
      "--home rel is a relative path: the home is always an absolute path",
    ]);
    const { dispatch, InvalidOptionsError } = await import("../mod.ts");
    let thrown: unknown = null;
    await dispatch(bash(os), { home: "rel", env: { HOME: os } }).catch((e) => thrown = e);
    assert(thrown instanceof InvalidOptionsError, String(thrown));
    // No home at all: the library dispatches the managed and CLI layers only, as the CLI does.
    const homeless = await dispatch(bash(os), { env: {}, requirements: "/nonexistent/r.toml" });
    assertEquals([homeless.systemMessages, homeless.warnings.map((w) => w.code)], [[NO_HOME_DISPATCH], ["W_NO_HOME"]]);
  } finally {
    await Deno.remove(os, { recursive: true }).catch(() => {});
  }
});
