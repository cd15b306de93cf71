/**
 * Tests of §10 spilling (`src/output/spill.ts`) and of session id sanitizing
 * (`src/util/session_id.ts`).
 */

import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/helpers/assert.ts";
import { dirname, join, resolve } from "node:path";
import { DEFAULT_CONTEXT_LIMIT } from "../config/handlers.ts";
import { estimateTokens, removeSessionSpill, spillDir, spillIfLarge, type SpillResult, utf8Length } from "./spill.ts";
import { MAX_SEGMENT_LENGTH, safeSessionSegment, sha256Hex } from "../util/session_id.ts";

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text).length;
const MIDDLE =
  /\[… (\d+) tokens \((\d+) bytes\) omitted; (?:full output saved to (.+) …|the full output could not be saved …)\]/;

/** Splits a preview into head, the middle line's numbers and path, and tail. */
function parsePreview(preview: string) {
  const match = MIDDLE.exec(preview);
  assert(match, `no middle line in preview: ${preview.slice(0, 200)}`);
  // joinPreview puts exactly one line break between a non-empty side and the middle line.
  const before = preview.slice(0, match.index);
  const after = preview.slice(match.index + match[0].length);
  const head = before === "" ? "" : before.slice(0, -1);
  const tail = after === "" ? "" : after.slice(1);
  assert(before === "" || before.endsWith("\n"));
  assert(after === "" || after.startsWith("\n"));
  return {
    head,
    tail,
    omittedTokens: Number(match[1]),
    omittedBytes: Number(match[2]),
    path: match[3] ?? null,
  };
}

/** Checks everything a spilled result promises about `text`. */
async function assertSpilled(
  text: string,
  result: SpillResult,
  limit: number,
): Promise<void> {
  assertEquals(result.spilled, true);
  assertEquals(result.tokens, Math.ceil(bytesOf(text) / 4));
  assert(
    estimateTokens(result.text) <= limit,
    `preview has ${estimateTokens(result.text)} tokens, limit ${limit}`,
  );
  assert(!result.text.includes("\uFFFD"), "preview holds U+FFFD");
  assert(
    !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
      .test(result.text),
    "preview holds a lone surrogate",
  );
  const { head, tail, omittedBytes, omittedTokens, path } = parsePreview(
    result.text,
  );
  assert(text.startsWith(head), "head is not a prefix of the text");
  assert(text.endsWith(tail), "tail is not a suffix of the text");
  assertEquals(omittedBytes, bytesOf(text) - bytesOf(head) - bytesOf(tail));
  assertEquals(omittedTokens, Math.ceil(omittedBytes / 4));
  assertEquals(path, result.path);
  if (result.path !== null) {
    assertEquals(await Deno.readTextFile(result.path), text);
  }
}

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "spill_test_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("estimateTokens is ceil(UTF-8 bytes / 4)", () => {
  assertEquals(DEFAULT_CONTEXT_LIMIT, 2500);
  assertEquals(estimateTokens(""), 0);
  assertEquals(estimateTokens("abcd"), 1);
  assertEquals(estimateTokens("abcde"), 2);
  assertEquals(estimateTokens("é"), 1); // 2 bytes
  assertEquals(estimateTokens("中文字"), 3); // 9 bytes
  assertEquals(estimateTokens("😀😀"), 2); // 8 bytes
  assertEquals(estimateTokens("😀a"), 2); // 5 bytes
});

Deno.test("utf8Length matches TextEncoder, lone surrogates included", () => {
  const samples = [
    "",
    "ascii",
    "é中😀",
    "\uD800",
    "a\uDC00b",
    "\uD83D\uD83D\uDE00",
    "\u07FF\u0800\uFFFF",
  ];
  for (const sample of samples) {
    assertEquals(utf8Length(sample), bytesOf(sample), JSON.stringify(sample));
  }
});

Deno.test("text at or below the limit comes back unchanged and nothing is written", async () => {
  await withTempDir(async (tempDir) => {
    const limit = 100;
    for (const text of ["a".repeat(400), "a".repeat(399), "中".repeat(133)]) {
      const result = await spillIfLarge(text, {
        limit,
        tempDir,
        sessionId: "s1",
      });
      assertEquals(result, {
        text,
        spilled: false,
        path: null,
        tokens: estimateTokens(text),
        refused: null,
      });
    }
    assertEquals([...Deno.readDirSync(tempDir)], []);
  });
});

Deno.test("one byte over the limit spills: preview within the limit, full text on disk", async () => {
  await withTempDir(async (tempDir) => {
    const limit = 100;
    const text = "a".repeat(401);
    const result = await spillIfLarge(text, {
      limit,
      tempDir,
      sessionId: "s1",
    });
    await assertSpilled(text, result, limit);
    assert(result.path);
    assertEquals(dirname(result.path), spillDir(tempDir, "s1"));
    assertMatch(result.path, /[0-9a-f-]{36}\.txt$/);
    assertEquals(
      dirname(dirname(result.path)),
      resolve(tempDir, "hook_outputs"),
    );
  });
});

Deno.test("a large text keeps a head and a tail near half the budget each", async () => {
  await withTempDir(async (tempDir) => {
    const text = Array.from(
      { length: 5000 },
      (_, i) => `line ${i} ${"x".repeat(i % 50)}`,
    ).join("\n");
    const result = await spillIfLarge(text, {
      limit: DEFAULT_CONTEXT_LIMIT,
      tempDir,
      sessionId: "s",
    });
    await assertSpilled(text, result, DEFAULT_CONTEXT_LIMIT);
    const { head, tail } = parsePreview(result.text);
    assert(head.startsWith("line 0 "));
    assert(tail.endsWith(`line 4999 ${"x".repeat(4999 % 50)}`));
    for (const part of [head, tail]) {
      assert(bytesOf(part) > 4000, `part too small: ${bytesOf(part)}`);
    }
    // Cuts land on line boundaries when one is near: whole lines on both sides.
    assertEquals(text[head.length], "\n");
    assertEquals(text[text.length - tail.length - 1], "\n");
  });
});

Deno.test("cuts never split a multi-byte character or a surrogate pair", async () => {
  await withTempDir(async (tempDir) => {
    const units = ["😀", "中", "é", "𝄞a", "中😀é"];
    const limit = 40;
    for (const unit of units) {
      // Shift the text by 0..3 ASCII bytes so both cuts meet every offset inside a character.
      for (let pad = 0; pad < 4; pad++) {
        for (let tailPad = 0; tailPad < 4; tailPad++) {
          const text = "a".repeat(pad) + unit.repeat(200) + "b".repeat(tailPad);
          const result = await spillIfLarge(text, {
            limit,
            tempDir,
            sessionId: "mb",
          });
          await assertSpilled(text, result, limit);
        }
      }
    }
  });
});

Deno.test("cuts keep emoji ZWJ sequences whole", async () => {
  await withTempDir(async (tempDir) => {
    const family = "👨‍👩‍👧‍👦";
    for (let pad = 0; pad < 4; pad++) {
      const text = "a".repeat(pad) + family.repeat(100);
      const result = await spillIfLarge(text, {
        limit: 60,
        tempDir,
        sessionId: "zwj",
      });
      await assertSpilled(text, result, 60);
      const { head, tail } = parsePreview(result.text);
      assertEquals(
        (head.length - pad) % family.length,
        0,
        "head cut a ZWJ sequence",
      );
      assertEquals(tail.length % family.length, 0, "tail cut a ZWJ sequence");
    }
  });
});

Deno.test("limit 0 never spills", async () => {
  await withTempDir(async (tempDir) => {
    const text = "z".repeat(1_000_000);
    const result = await spillIfLarge(text, {
      limit: 0,
      tempDir,
      sessionId: "s",
    });
    assertEquals(result.spilled, false);
    assertEquals(result.text, text);
    assertEquals(result.tokens, 250_000);
    assertEquals([...Deno.readDirSync(tempDir)], []);
  });
});

Deno.test("an unwritable temp dir still yields a bounded preview, without a path", async () => {
  await withTempDir(async (dir) => {
    const notADir = join(dir, "file");
    await Deno.writeTextFile(notADir, "I am a file");
    const text = "0123456789\n".repeat(2000);
    const result = await spillIfLarge(text, {
      limit: 100,
      tempDir: notADir,
      sessionId: "s",
    });
    await assertSpilled(text, result, 100);
    assertEquals(result.path, null);
    assertMatch(result.text, /the full output could not be saved/);
    assert(!result.text.includes(notADir));
  });
});

Deno.test("a limit too small for the middle line gives just that line", async () => {
  await withTempDir(async (tempDir) => {
    const text = "q".repeat(100);
    const result = await spillIfLarge(text, {
      limit: 1,
      tempDir,
      sessionId: "s",
    });
    assertEquals(result.spilled, true);
    const parsed = parsePreview(result.text);
    assertEquals(parsed.head, "");
    assertEquals(parsed.tail, "");
    assertEquals(parsed.omittedBytes, 100);
    assertEquals(await Deno.readTextFile(result.path!), text);
  });
});

/** Ids meant to escape the folder, break file names or collide after sanitizing. */
const HOSTILE_IDS = [
  "",
  ".",
  "..",
  "...",
  "../",
  "../../etc/passwd",
  "..\\..\\windows",
  "/abs/path",
  "\\\\server\\share",
  "a/b",
  "a\\b",
  "a_b",
  "a\0b",
  "a\u0001b",
  "a\nb",
  "a b",
  "a~b",
  "a_b~0000000000000000",
  ".hidden",
  "trailing.",
  "CON",
  "con.txt",
  "nul",
  "a\uD800",
  "a\uDBFF",
  "a\uFFFD",
  "中文",
  "😀",
  "x".repeat(MAX_SEGMENT_LENGTH),
  "x".repeat(MAX_SEGMENT_LENGTH + 1),
  "x".repeat(10_000),
  "x".repeat(10_000) + "y",
  "sid_0190f5c2-1a2b-7c3d-8e4f-0123456789ab",
];

Deno.test("safeSessionSegment: safe, deterministic and collision-free on hostile ids", () => {
  const seen = new Map<string, string>();
  for (const id of HOSTILE_IDS) {
    const segment = safeSessionSegment(id);
    assertMatch(segment, /^[A-Za-z0-9._~-]+$/, JSON.stringify(id));
    assert(segment.length <= MAX_SEGMENT_LENGTH);
    assert(
      !segment.startsWith("."),
      `dot-led segment for ${JSON.stringify(id)}`,
    );
    assertEquals(safeSessionSegment(id), segment);
    const previous = seen.get(segment);
    assertEquals(
      previous,
      undefined,
      `${JSON.stringify(id.slice(0, 30))} and ${JSON.stringify(previous?.slice(0, 30))} share ${segment}`,
    );
    seen.set(segment, id);
  }
  // Plain ids are kept verbatim.
  for (
    const id of [
      "sid_abc",
      "0190f5c2-1a2b-7c3d-8e4f-0123456789ab",
      "01ARZ3NDEKTSV4RRFFQ69G5FAV",
    ]
  ) {
    assertEquals(safeSessionSegment(id), id);
  }
});

Deno.test("hostile session ids spill inside their own folder only", async () => {
  await withTempDir(async (tempDir) => {
    const root = resolve(tempDir, "hook_outputs");
    const text = "h".repeat(1000);
    const folders = new Set<string>();
    for (const sessionId of HOSTILE_IDS) {
      const result = await spillIfLarge(text, {
        limit: 10,
        tempDir,
        sessionId,
      });
      assert(
        result.path,
        `not saved for ${JSON.stringify(sessionId.slice(0, 30))}`,
      );
      const folder = dirname(result.path);
      assertEquals(dirname(folder), root);
      assertEquals(folder, spillDir(tempDir, sessionId));
      assertEquals(await Deno.readTextFile(result.path), text);
      folders.add(folder);
    }
    assertEquals(folders.size, HOSTILE_IDS.length);
    assertEquals([...Deno.readDirSync(tempDir)].map((e) => e.name), [
      "hook_outputs",
    ]);
  });
});

Deno.test("removeSessionSpill deletes only that session's folder and tolerates a missing one", async () => {
  await withTempDir(async (tempDir) => {
    const text = "r".repeat(1000);
    const a = await spillIfLarge(text, {
      limit: 10,
      tempDir,
      sessionId: "../a",
    });
    const b = await spillIfLarge(text, { limit: 10, tempDir, sessionId: "b" });
    await removeSessionSpill(tempDir, "../a");
    await assertRejects(Deno.stat(dirname(a.path!)), Deno.errors.NotFound);
    assertEquals(await Deno.readTextFile(b.path!), text);
    await removeSessionSpill(tempDir, "../a");
    await removeSessionSpill(join(tempDir, "missing"), "x");
  });
});

Deno.test("spilled files are private to their owner", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await withTempDir(async (tempDir) => {
    const result = await spillIfLarge("s".repeat(1000), {
      limit: 10,
      tempDir,
      sessionId: "p",
    });
    assertEquals((await Deno.stat(result.path!)).mode! & 0o077, 0);
    assertEquals((await Deno.stat(dirname(result.path!))).mode! & 0o077, 0);
  });
});

Deno.test("safeSessionSegment: the hash suffix is SHA-256 of the id's UTF-16LE code units, fixed values", () => {
  // Segments name transcript, spill and async folders on disk, so they must never change between versions.
  // Expected values computed independently (Python: hashlib.sha256(id.encode("utf-16-le", "surrogatepass"))).
  assertEquals(
    ["a/b", "../../etc/passwd", "中文", "a\uD800", "x".repeat(97)].map(safeSessionSegment),
    [
      "a_b~6df7cee24c7627c8",
      "__.._etc_passwd~833ba4aa8a803031",
      "__~3101a057c4ab0cd9",
      "a_~2eb7307d8e858515",
      "x".repeat(79) + "~fd8c10d8c02aabf9",
    ],
  );
});

Deno.test("sha256Hex matches Web Crypto across padding boundaries", async () => {
  for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 20_001]) {
    const data = crypto.getRandomValues(new Uint8Array(length));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
    const expected = [...digest].map((b) => b.toString(16).padStart(2, "0"))
      .join("");
    assertEquals(sha256Hex(data), expected, `length ${length}`);
  }
});

Deno.test(
  "without permission to read the uid (an embedding host), spilling refuses with a reason instead of guessing",
  {
    ignore: Deno.build.os === "windows",
  },
  async () => {
    await withTempDir(async (tempDir) => {
      const script = join(tempDir, "probe.ts");
      const spill = new URL("./spill.ts", import.meta.url).href;
      await Deno.writeTextFile(
        script,
        `import { spillIfLarge } from ${JSON.stringify(spill)};
       const r = await spillIfLarge("s".repeat(1000), { limit: 10, tempDir: ${
          JSON.stringify(tempDir)
        }, sessionId: "u" });
       console.log(JSON.stringify({ path: r.path, refused: r.refused }));`,
      );
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", `--allow-read`, `--allow-write=${tempDir}`, script],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert(out.success, new TextDecoder().decode(out.stderr));
      const r = JSON.parse(new TextDecoder().decode(out.stdout));
      assertEquals(r.path, null);
      assertMatch(r.refused, /cannot be checked/);
    });
  },
);
