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
  PYTHON,
  sessionId,
  shq,
  trustAll,
  writeHooksJson,
} from "./helpers/cli.ts";

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
