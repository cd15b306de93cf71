/**
 * Hostile configuration (SPEC §15 "Reliability"), end to end through the CLI: deeply nested JSON
 * and TOML, 100,000 handlers, a 100 MB hooks.json, symlink loops in the project search, a `.mind`
 * that is a file, unreadable files, hostile session ids (`../`, NUL, 10,000 characters), a plugin
 * manifest path escaping its root, and keys with quotes and newlines. In every case the engine
 * answers (exit 0), warns precisely, and writes nothing outside its folders (the home and the spill
 * folder).
 */
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  type Json,
  runCli,
  trustAll,
  warningCodes,
  writeHooksJson,
} from "./helpers/cli.ts";
import { join } from "node:path";

/**
 * A sandbox root holding `home/`, `spill/` and `work/` (the cwd); `files()` lists every path below
 * the root, so a test can prove that nothing was written outside `home/` and `spill/`.
 */
async function arena() {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-hostile-" }));
  const home = join(root, "home");
  const work = join(root, "work");
  await Deno.mkdir(home);
  await Deno.mkdir(work);
  const files = async (): Promise<string[]> => {
    const out: string[] = [];
    const walk = async (dir: string) => {
      for await (const e of Deno.readDir(dir)) {
        const p = join(dir, e.name);
        out.push(p);
        if (e.isDirectory) await walk(p);
      }
    };
    await walk(root);
    return out.sort();
  };
  return {
    root,
    home,
    work,
    spill: join(root, "spill"),
    files,
    env: { MIND_TEMP_DIR: join(root, "spill") },
    [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }).catch(() => {}),
  };
}

/** Asserts that every path created since `before` lies in the home or the spill folder. */
async function onlyOwnFolders(a: Awaited<ReturnType<typeof arena>>, before: string[]): Promise<void> {
  const known = new Set(before);
  const created = (await a.files()).filter((p) => !known.has(p));
  const stray = created.filter((p) => !p.startsWith(a.home + "/") && !p.startsWith(a.spill + "/") && p !== a.spill);
  assertEquals(stray, [], "the engine wrote outside its folders");
}

/** A trusted project under the arena's work folder, holding `hooksJsonText` as .mind/hooks.json. */
async function trustedProject(a: Awaited<ReturnType<typeof arena>>, name: string): Promise<string> {
  const dir = join(a.work, name);
  await Deno.mkdir(join(dir, ".mind"), { recursive: true });
  const res = await runCli(["project", "trust", dir, "--home", a.home]);
  assertEquals(res.code, 0, res.stderr);
  return dir;
}

Deno.test("hostile: deeply nested JSON and TOML are parse warnings or plain data, never a crash", async () => {
  await using a = await arena();
  const proj = await trustedProject(a, "nested");
  const depth = 200_000;
  await Deno.writeTextFile(join(proj, ".mind", "hooks.json"), "[".repeat(depth) + "]".repeat(depth));
  await Deno.writeTextFile(join(proj, ".mind", "config.toml"), `x = ${"[".repeat(depth)}${"]".repeat(depth)}\n`);
  // A deep but parseable value inside a hook's input: hashed and kept, or refused with a warning.
  await writeHooksJson(a.home, {
    UserPromptSubmit: [group([{ type: "mcp_tool", server: "s", tool: "t", input: nest(5_000) }])],
  });
  const before = await a.files();
  const res = await dispatch(a.home, event("UserPromptSubmit", { cwd: proj }), [], { env: a.env });
  const parse = res.warnings.filter((w) => w.code === "W_PARSE");
  assertEquals(parse.map((w) => w.source).sort(), [
    join(proj, ".mind", "config.toml"),
    join(proj, ".mind", "hooks.json"),
  ]);
  for (const w of res.warnings) assert(!/\n/.test(w.message), w.message);
  await onlyOwnFolders(a, before);
});

function nest(depth: number): Json {
  let v: Json = { leaf: true };
  for (let i = 0; i < depth; i++) v = { n: v };
  return v;
}

Deno.test("hostile: 100,000 handlers load and dispatch still answers", async () => {
  await using a = await arena();
  const hooks = {
    PostToolUse: Array.from({ length: 100 }, (_, g) => ({
      matcher: `tool_${g}`,
      hooks: Array.from({ length: 1000 }, (_, h) => cmd(`echo ${g}-${h}`)),
    })),
  };
  await writeHooksJson(a.home, hooks);
  const started = performance.now();
  const res = await dispatch(a.home, event("PreToolUse", { cwd: a.work }), [], { env: a.env });
  const ms = performance.now() - started;
  console.log(`100,000 handlers: dispatch ${Math.round(ms)} ms`);
  assertEquals(res.runs, []);
  assert(ms < 60_000, `dispatch took ${ms} ms`);
});

Deno.test("hostile: a 100 MB hooks.json is refused by size, the rest still loads", async () => {
  await using a = await arena();
  const proj = await trustedProject(a, "big");
  const big = join(proj, ".mind", "hooks.json");
  await Deno.writeTextFile(big, "");
  await Deno.truncate(big, 100 * 1024 * 1024);
  await writeHooksJson(a.home, { UserPromptSubmit: [group([cmd("cat >/dev/null; echo user-hook-ran")])] });
  await trustAll(a.home, proj);
  const started = performance.now();
  const res = await dispatch(a.home, event("UserPromptSubmit", { cwd: proj }), [], { env: a.env });
  const ms = performance.now() - started;
  const w = res.warnings.find((w) => w.source === big);
  assertEquals(w?.code, "W_UNREADABLE");
  assertStringIncludes(w!.message, "larger than 16 MiB");
  assertEquals(res.additionalContext, ["user-hook-ran"]);
  assert(ms < 5000, `a refused 100 MB file still cost ${Math.round(ms)} ms`);
});

Deno.test("hostile: symlink loops and a .mind that is a file do not stop the project search", async () => {
  await using a = await arena();
  const outer = await trustedProject(a, "outer");
  await writeHooksJson(join(outer, ".mind"), { UserPromptSubmit: [group([cmd("cat >/dev/null; echo outer-ran")])] });
  // outer/loop/.mind -> itself (ELOOP); outer/loop/inner/.mind is a regular file.
  const loop = join(outer, "loop");
  const inner = join(loop, "inner");
  await Deno.mkdir(inner, { recursive: true });
  await Deno.symlink(join(loop, ".mind"), join(loop, ".mind"));
  await Deno.writeTextFile(join(inner, ".mind"), "not a directory");
  // A cwd reached through a looping symlink pair cannot be resolved at all.
  await Deno.symlink(join(a.work, "b"), join(a.work, "a"));
  await Deno.symlink(join(a.work, "a"), join(a.work, "b"));
  await trustAll(a.home, inner);
  const before = await a.files();
  const res = await dispatch(a.home, event("UserPromptSubmit", { cwd: inner }), [], { env: a.env });
  assertEquals(res.additionalContext, ["outer-ran"], JSON.stringify(res));
  const looped = await dispatch(a.home, event("UserPromptSubmit", { cwd: join(a.work, "a", "x") }), [], {
    env: a.env,
  });
  assertEquals(looped.runs, []);
  await onlyOwnFolders(a, before);
});

Deno.test("hostile: unreadable files are warnings naming the file (a FIFO; chmod 000 where it binds)", async () => {
  await using a = await arena();
  const proj = await trustedProject(a, "unreadable");
  // A FIFO would block a naive reader forever; the engine must refuse it without opening it.
  const fifo = join(proj, ".mind", "hooks.json");
  const mk = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert(mk.success, "mkfifo failed");
  const toml = join(proj, ".mind", "config.toml");
  await Deno.writeTextFile(toml, '[[hooks.Stop]]\nhooks = [{ type = "command", command = "true" }]\n');
  await Deno.chmod(toml, 0o000);
  const res = await dispatch(a.home, event("UserPromptSubmit", { cwd: proj }), [], { env: a.env });
  const byFile = new Map(res.warnings.map((w) => [w.source, w]));
  assertEquals(byFile.get(fifo)?.code, "W_UNREADABLE");
  assertStringIncludes(byFile.get(fifo)!.message, "not a regular file");
  if (Deno.uid() === 0) {
    console.log("skipped the chmod 000 check: running as root, where file modes do not stop reads");
  } else {
    assertEquals(byFile.get(toml)?.code, "W_UNREADABLE");
  }
});

Deno.test("hostile: session ids with ../, NUL and 10,000 characters stay inside the engine's folders", async () => {
  await using a = await arena();
  // A hook whose context is spilled (over its limit), so the session id names a folder.
  await writeHooksJson(a.home, {
    UserPromptSubmit: [
      group([cmd("cat >/dev/null; head -c 20000 /dev/zero | tr '\\0' a", { additionalContextLimit: 10 })]),
    ],
    Stop: [group([cmd(`cat >/dev/null; echo '{"decision":"block","reason":"again"}'`)])],
  });
  await trustAll(a.home);
  const before = await a.files();
  for (const sid of ["../../../escape", "..", "a/../../b", "nul\u0000byte", "x".repeat(10_000), "/abs/path", ""]) {
    for (const name of ["UserPromptSubmit", "Stop"] as const) {
      const res = await runCli(["dispatch", "--home", a.home], {
        stdin: JSON.stringify(event(name, { cwd: a.work, session_id: sid, transcript_path: undefined })),
        env: a.env,
      });
      assertEquals(res.code, 0, `${JSON.stringify(sid.slice(0, 20))}: ${res.stderr}`);
      const out = res.json();
      if (name === "UserPromptSubmit") assertStringIncludes(out.additionalContext[0], a.spill + "/hook_outputs/");
    }
  }
  await onlyOwnFolders(a, before);
  for (const p of ["escape", "b", "abs"]) {
    assert(!(await Deno.stat(join(a.root, p)).then(() => true, () => false)), `${p} was created`);
  }
});

Deno.test("hostile: plugin manifest paths escaping the plugin root are skipped with a warning", async () => {
  await using a = await arena();
  const root = join(a.home, "plugins", "evil");
  await Deno.mkdir(join(root, ".mind-plugin"), { recursive: true });
  await Deno.mkdir(join(root, "hooks"));
  const outsideHooks = await writeHooksJson(a.work, { UserPromptSubmit: [group([cmd("echo outside")])] });
  await Deno.symlink(outsideHooks, join(root, "hooks", "linked.json"));
  await Deno.writeTextFile(
    join(root, ".mind-plugin", "plugin.json"),
    JSON.stringify({
      hooks: ["./../../../work/hooks.json", "./hooks/linked.json", "/etc/passwd", "./hooks/../../x.json"],
    }),
  );
  await Deno.writeTextFile(join(a.home, "config.toml"), '[plugins."evil"]\nenabled = true\n');
  const res = await dispatch(a.home, event("UserPromptSubmit", { cwd: a.work }), ["--dangerously-bypass-hook-trust"], {
    env: a.env,
  });
  const plugin = res.warnings.filter((w) => w.code === "W_PLUGIN" || w.code === "W_OUTSIDE_ROOT");
  const messages = plugin.map((w) => w.message).join("\n");
  assertEquals(plugin.length, 4, messages);
  assertEquals(
    plugin.filter((w) => w.code === "W_OUTSIDE_ROOT" && w.message.includes("escapes the plugin root")).length,
    3,
    messages,
  );
  assertEquals(plugin.filter((w) => w.message.includes('must start with "./"')).length, 1);
  assertEquals(res.runs, [], "no hook from outside the plugin root may load, even with trust bypassed");
});

Deno.test("hostile: keys with quotes and newlines round-trip through trust and config.toml", async () => {
  await using a = await arena();
  const proj = await trustedProject(a, 'we"ird\nname \\ [x]');
  await writeHooksJson(join(proj, ".mind"), {
    UserPromptSubmit: [group([cmd("cat >/dev/null; echo quoted-ran")])],
    'Pre"Tool\nUse': [group([cmd("true")])],
  });
  await trustAll(a.home, proj);
  const res = await dispatch(a.home, event("UserPromptSubmit", { cwd: proj }), [], { env: a.env });
  assertEquals(res.additionalContext, ["quoted-ran"]);
  assertEquals(res.runs[0].key, `project:${join(proj, ".mind", "hooks.json")}:UserPromptSubmit:0:0`);
  const unknown = res.warnings.find((w) => w.code === "W_UNKNOWN_EVENT");
  assert(unknown && !unknown.message.includes("\n"), JSON.stringify(unknown));
  assert(warningCodes(res).includes("W_UNKNOWN_EVENT"));
  // The user's config.toml still parses, and the state key survived exactly.
  const validate = await runCli(["validate", join(a.home, "config.toml")]);
  assertEquals(validate.code, 0, validate.stderr);
  const list = await runCli(["list", "--json", "--home", a.home, "--cwd", proj]);
  assertEquals(list.code, 0, list.stderr);
  assertStringIncludes(list.stdout, JSON.stringify(res.runs[0].key).slice(1, -1));
});
