/**
 * End-to-end test of large-output spilling (SPEC §10) through `dispatch`: a real
 * UserPromptSubmit hook prints about 20 KB of plain text (model-visible context for that event).
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import {
  cmd,
  dispatch,
  event,
  group,
  makeHome,
  makeProject,
  PYTHON,
  runCli,
  sessionId,
  shq,
  trustAll,
  trustProject,
  writeHooksJson,
} from "./helpers/cli.ts";
import { safeSessionSegment } from "../src/util/session_id.ts";

/** 600 numbered lines, 19.8 KB: its head and tail are recognizable in a preview. */
const BIG = Array.from({ length: 600 }, (_, i) => `line ${String(i).padStart(5, "0")} of the big hook output`).join(
  "\n",
);

/** A hook printing {@link BIG} (plus a final line break, which the engine does not keep). */
const printBig = `${shq(PYTHON)} -c ${
  shq(`import sys; sys.stdout.write("\\n".join("line %05d of the big hook output" % i for i in range(600)) + "\\n")`)
}`;

/** The path named by a preview's middle line, or null when the line says the text was not saved. */
function savedPath(preview: string): string | null {
  const m = preview.match(/full output saved to (\S+) …\]/);
  return m ? m[1] : null;
}

Deno.test({
  name: "spill: over the limit → preview with the saved path; limit 0 → full text; unwritable temp dir → no path",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await writeHooksJson(home.path, {
      UserPromptSubmit: [group([
        cmd(printBig, { additionalContextLimit: 100 }),
        cmd(printBig, { additionalContextLimit: 0 }),
      ])],
    });
    await trustAll(home.path, home.path);
    assert(BIG.length > 19_000, "the fixture text is smaller than intended");

    const sid = sessionId("spill");
    const tempDir = join(home.path, "spill-root");
    const r = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid }), ["--temp-dir", tempDir]);
    assertEquals(r.runs.map((x) => x.status), ["completed", "completed"]);
    assertEquals(r.additionalContext.length, 2);
    const [preview, full] = r.additionalContext;

    // limit 100 (≈ 400 bytes): head, one middle line with the omitted size and the path, tail.
    const path = savedPath(preview);
    assert(path !== null, `no saved path in the preview: ${preview}`);
    assert(path.startsWith(join(tempDir, "hook_outputs", sid) + "/") && path.endsWith(".txt"), `bad path ${path}`);
    assertEquals(await Deno.readTextFile(path), BIG, "the saved file does not hold the full text");
    assert(preview.startsWith("line 00000 of the big hook output"), "the preview does not start with the head");
    assert(preview.endsWith("line 00599 of the big hook output"), "the preview does not end with the tail");
    assert(/\[… \d+ tokens \(\d+ bytes\) omitted; full output saved to /.test(preview), preview);
    const previewLines = preview.split("\n");
    assertEquals(previewLines.filter((l) => l.startsWith("[… ")).length, 1, "not exactly one middle line");
    // The head and tail stay within the limit; only the middle line (with its long path) is extra.
    const headAndTail = previewLines.filter((l) => !l.startsWith("[… ")).join("\n");
    assert(new TextEncoder().encode(headAndTail).length <= 400, `head + tail is ${headAndTail.length} bytes`);

    // limit 0: never spilled.
    assertEquals(full, BIG);
    assertEquals([...Deno.readDirSync(join(tempDir, "hook_outputs", sid))].length, 1, "limit 0 spilled a file");

    // An unwritable temp dir (a regular file, so this holds even for root): preview, no path.
    const notADir = join(home.path, "not-a-dir");
    await Deno.writeTextFile(notADir, "");
    const sid2 = sessionId("spill-nowrite");
    const r2 = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid2 }), ["--temp-dir", notADir]);
    assertEquals(r2.runs.map((x) => x.status), ["completed", "completed"]);
    const [bounded, full2] = r2.additionalContext;
    assertEquals(savedPath(bounded), null);
    assertStringIncludes(bounded, "omitted; the full output could not be saved …]");
    assert(bounded.startsWith("line 00000") && bounded.endsWith("line 00599 of the big hook output"), bounded);
    assert(bounded.length < 600, `the preview is ${bounded.length} characters`);
    assertEquals(full2, BIG);
    assertEquals(r2.systemMessages, [], "a failed spill must not fail the hook");
  },
});

/** Every file under `dir` (relative paths, sorted) with its content: what a planted target holds. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string) => {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await walk(p, r);
      else out.push(`${r}=${e.isFile ? await Deno.readTextFile(p) : "(link)"}`);
    }
  };
  await walk(dir, "");
  return out.sort();
}

/** A folder with a canary file, and one inside it named like the session's spill folder. */
async function victim(segment: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "mind-spill-victim-" });
  await Deno.writeTextFile(join(dir, "canary.txt"), "do not touch");
  await Deno.mkdir(join(dir, segment));
  await Deno.writeTextFile(join(dir, segment, "canary.txt"), "do not delete");
  return dir;
}

/** Two trusted hooks printing {@link BIG} with limit 100: both outputs are spilled. */
async function spillingHome() {
  const home = await makeHome();
  await writeHooksJson(home.path, {
    UserPromptSubmit: [group([
      cmd(printBig, { additionalContextLimit: 100 }),
      cmd(printBig, {
        additionalContextLimit: 100,
      }),
    ])],
  });
  await trustAll(home.path, home.path);
  return home;
}

for (const mode of ["fast path", "sandbox Worker"] as const) {
  const env = mode === "sandbox Worker" ? { MIND_HOOKS_SANDBOX: "always" } : undefined;

  Deno.test({
    name: `spill (${mode}): a planted <temp>/hook_outputs symlink is refused — preview without path, one warning; ` +
      "session end deletes nothing in its target",
    ignore: Deno.build.os === "windows",
    async fn() {
      await using home = await spillingHome();
      const sid = sessionId("planted");
      const target = await victim(safeSessionSegment(sid));
      try {
        const tempDir = join(home.path, "shared-tmp");
        await Deno.mkdir(tempDir);
        await Deno.symlink(target, join(tempDir, "hook_outputs"));
        const before = await snapshot(target);

        const r = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid }), ["--temp-dir", tempDir], {
          env,
        });
        assertEquals(r.runs.map((x) => x.status), ["completed", "completed"]);
        for (const preview of r.additionalContext) {
          assertEquals(savedPath(preview), null);
          assertStringIncludes(preview, "the full output could not be saved");
        }
        assertEquals(r.warnings.map((w) => w.code), ["W_SPILL_REFUSED"]);
        assertStringIncludes(r.warnings[0].message, `${join(tempDir, "hook_outputs")} is a symlink`);

        const end = await dispatch(home.path, event("SessionEnd", { session_id: sid }), ["--temp-dir", tempDir], {
          env,
        });
        assertEquals(end.runs, []);
        const cli = await runCli(["session-end", "--home", home.path, "--temp-dir", tempDir, "--session", sid], {
          env,
        });
        assertEquals(cli.code, 0, cli.stderr);
        assertEquals(await snapshot(target), before, "the planted target was written to or deleted from");
        assert((await Deno.lstat(join(tempDir, "hook_outputs"))).isSymlink);
      } finally {
        await Deno.remove(target, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "spill: a session folder that is a symlink is refused; session end removes only the link; " +
    "links inside a session folder are removed, never followed",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await spillingHome();
    const tempDir = join(home.path, "tmp");
    const sid = sessionId("linked");
    const segment = safeSessionSegment(sid);
    const target = await victim(segment);
    try {
      await Deno.mkdir(join(tempDir, "hook_outputs"), { recursive: true });
      await Deno.symlink(target, join(tempDir, "hook_outputs", segment));
      const before = await snapshot(target);
      const r = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid }), ["--temp-dir", tempDir]);
      assertEquals(r.warnings.map((w) => w.code), ["W_SPILL_REFUSED"]);
      assertEquals(r.additionalContext.map(savedPath), [null, null]);
      await dispatch(home.path, event("SessionEnd", { session_id: sid }), ["--temp-dir", tempDir]);
      assertEquals(await snapshot(target), before);
      await assertMissing(join(tempDir, "hook_outputs", segment));

      // A real session folder: spills land there (0700 folders, 0600 files); a link a hook put in
      // it is removed by session end without touching what it points at.
      const sid2 = sessionId("inner-link");
      const r2 = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid2 }), ["--temp-dir", tempDir]);
      assertEquals(r2.warnings, []);
      const saved = savedPath(r2.additionalContext[0])!;
      assertEquals((await Deno.stat(saved)).mode! & 0o777, 0o600);
      assertEquals((await Deno.stat(join(tempDir, "hook_outputs"))).mode! & 0o777, 0o700);
      assertEquals((await Deno.stat(join(tempDir, "hook_outputs", safeSessionSegment(sid2)))).mode! & 0o777, 0o700);
      await Deno.symlink(target, join(tempDir, "hook_outputs", safeSessionSegment(sid2), "inner"));
      await dispatch(home.path, event("SessionEnd", { session_id: sid2 }), ["--temp-dir", tempDir]);
      await assertMissing(join(tempDir, "hook_outputs", safeSessionSegment(sid2)));
      assertEquals(await snapshot(target), before);
    } finally {
      await Deno.remove(target, { recursive: true });
    }
  },
});

// Only root can hand a folder to another user; elsewhere the check is covered by the unit test of the refusal.
Deno.test({
  name: "spill: a spill root owned by another user is refused and left alone by session end",
  ignore: Deno.build.os === "windows" || Deno.uid() !== 0,
  async fn() {
    await using home = await spillingHome();
    const tempDir = join(home.path, "tmp");
    const sid = sessionId("foreign");
    const root = join(tempDir, "hook_outputs");
    await Deno.mkdir(join(root, safeSessionSegment(sid)), { recursive: true });
    await Deno.writeTextFile(join(root, safeSessionSegment(sid), "theirs.txt"), "theirs");
    await Deno.chown(root, 65534, 65534);
    await Deno.chmod(root, 0o777);
    const before = await snapshot(root);
    const r = await dispatch(home.path, event("UserPromptSubmit", { session_id: sid }), ["--temp-dir", tempDir]);
    assertEquals(r.warnings.map((w) => w.code), ["W_SPILL_REFUSED"]);
    assertStringIncludes(r.warnings[0].message, "is owned by another user (uid 65534)");
    assertEquals(r.additionalContext.map(savedPath), [null, null]);
    await dispatch(home.path, event("SessionEnd", { session_id: sid }), ["--temp-dir", tempDir]);
    assertEquals(await snapshot(root), before);
  },
});

async function assertMissing(path: string): Promise<void> {
  try {
    await Deno.lstat(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e;
  }
  throw new Error(`${path} still exists`);
}

/** A hook printing one JSON answer whose field `field` holds {@link BIG} (plus `extra` fields). */
function bigJsonHook(shape: "context" | "block", event: string): string {
  const answer = shape === "context"
    ? `{"hookSpecificOutput": {"hookEventName": "${event}", "additionalContext": big}}`
    : `{"decision": "block", "reason": big}`;
  const py = `import json; big = "\\n".join("line %05d of the big hook output" % i for i in range(600)); ` +
    `print(json.dumps(${answer}))`;
  return `${shq(PYTHON)} -c ${shq(py)}`;
}

Deno.test({
  name: "spill (sandboxed run of a trusted project, temp dir outside the home): SessionStart context, " +
    "PostToolUse feedback and Stop continuations are saved in full",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using home = await makeHome();
    await using project = await makeProject();
    // A temp root outside the home: only <temp>/hook_outputs is granted to the narrowed run.
    const tempDir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mind-spill-sandbox-" }));
    try {
      await writeHooksJson(project.mindDir, {
        SessionStart: [group([cmd(bigJsonHook("context", "SessionStart"), { additionalContextLimit: 100 })])],
        PostToolUse: [group([cmd(bigJsonHook("block", "PostToolUse"))])],
        Stop: [group([cmd(bigJsonHook("block", "Stop"), { additionalContextLimit: 100 })])],
      });
      await trustProject(home.path, project.path);
      const sid = sessionId("sandbox-spill");
      const texts: string[] = [];
      for (const name of ["SessionStart", "PostToolUse", "Stop"] as const) {
        const r = await dispatch(home.path, event(name, { session_id: sid, cwd: project.path }), [
          "--temp-dir",
          tempDir,
        ]);
        assertEquals(r.runs.map((x) => x.status), [name === "SessionStart" ? "completed" : "blocked"], name);
        texts.push(
          name === "SessionStart" ? r.additionalContext[0] : name === "Stop" ? r.continuationPrompt! : r.reason!,
        );
      }
      for (const text of texts) {
        const path = savedPath(text);
        assert(path !== null, `not saved: ${text.slice(0, 200)} … ${text.slice(-300)}`);
        assert(path.startsWith(join(tempDir, "hook_outputs", safeSessionSegment(sid)) + "/"), path);
        assertEquals(await Deno.readTextFile(path), BIG);
      }
      // Session end, in the same narrowed run, deletes the session's folder.
      await dispatch(home.path, event("SessionEnd", { session_id: sid, cwd: project.path }), ["--temp-dir", tempDir]);
      await assertMissing(join(tempDir, "hook_outputs", safeSessionSegment(sid)));

      // A temp root that does not exist yet is created, in the Worker as on the fast path.
      const missing = join(tempDir, "not-yet", "tmp");
      const sid2 = sessionId("sandbox-spill-missing");
      const r = await dispatch(home.path, event("Stop", { session_id: sid2, cwd: project.path }), [
        "--temp-dir",
        missing,
      ]);
      const saved = savedPath(r.continuationPrompt!);
      assert(saved !== null && saved.startsWith(join(missing, "hook_outputs") + "/"), r.continuationPrompt!);
      assertEquals(await Deno.readTextFile(saved), BIG);
    } finally {
      await Deno.remove(tempDir, { recursive: true });
    }
  },
});
