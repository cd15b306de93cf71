/**
 * Tests of the trust-state writer's text edits (§3.3): golden edits of real-world-shaped files (LF
 * and CRLF), layouts and refusals. Its files on disk (links, locks, concurrent and killed writers):
 * tests/state_writer_files_test.ts.
 *
 * Set `UPDATE_GOLDEN=1` to rewrite the `*.expected.toml` files after an intended change (then
 * review the diff by eye: those files are the spec of what the writer does to a user's file).
 */

import { assert, assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { h, lookup, S, tempConfig } from "./helpers/state_writer.ts";
import { parse as smolParse } from "smol-toml";
import { initSync, parse as tomlEditParse } from "@rainbowatcher/toml-edit-js";
import {
  patchHookStatesText,
  patchProjectTrustText,
  type StatePatch,
  type TextEditResult,
  tomlKeyPath,
  writeHookStates,
} from "../src/state/state_writer.ts";

const GOLDEN = new URL("../fixtures/toml_golden/", import.meta.url);
const WINDOWS = Deno.build.os === "windows";
const UPDATE = Deno.env.get("UPDATE_GOLDEN") === "1";

// toml_edit (Rust, spec-strict) as a second, independent parser of every result.
initSync();

type GoldenCase = {
  name: string;
  input: string;
  /** Hook keys whose tables this case may touch (for the "nothing else changed" check). */
  touched: string[];
  apply: (text: string) => TextEditResult;
  /** Other lines this case may change (comments under a removed table's header). */
  alsoChanged?: string[];
  /** Values the result must hold (path → value; undefined = absent). */
  expect: Array<[string[], unknown]>;
};

const P = (d: string) => ["projects", d, "trust_level"];
const states = (entries: Array<[string, StatePatch]>) => (t: string) => patchHookStatesText(t, new Map(entries));

const RW_PRE = "user:/home/a/.mind/config.toml:PreToolUse:0:0";
const RW_POST = "user:/home/a/.mind/config.toml:PostToolUse:0:0";
const RW_STOP = "project:/home/a/repo/.mind/hooks.json:Stop:0:0";
const RW_NEW = "project:/home/a/repo/.mind/hooks.json:PreToolUse:0:1";
const Q_LIT = 'plugin:/opt/plugins/my "quoted" plugin/hooks.json#0:Stop:0:0';
const Q_NEW = 'plugin:/opt/p/"x"\\y/é 🎉 ü:Stop:0:0';
const Q_CLI = "cli:cli-override:SessionStart:0:0";

const PF_PRE0 = "project:/home/a/repo/.mind/hooks.json:PreToolUse:0:0";
const PF_PRE1 = "project:/home/a/repo/.mind/hooks.json:PreToolUse:0:1";
const PF_PLUGIN = "plugin:/home/a/.mind/plugins/p/hooks/hooks.json:Stop:0:0";
const PF_CLAUDE = "claude-project:/home/a/repo/.claude/settings.json:Stop:0:0";
const PF_ODD = "project:/home/a/repo/.mind/hooks.json:SessionStart:0:0";
const ODD_PATH = '.mind/we"ird \\ é 🎉.py';

const CASES: GoldenCase[] = [
  {
    name: "real_world",
    input: "real_world",
    touched: [RW_PRE, RW_POST, RW_STOP, RW_NEW],
    // The removed trusted_hash line's trailing comment stays, on its own line.
    alsoChanged: ["# aligned"],
    apply: states([
      [RW_PRE, { enabled: false }],
      [RW_POST, { trustedHash: null }],
      [RW_STOP, { enabled: true }],
      [RW_NEW, { enabled: false, trustedHash: h("5") }],
    ]),
    expect: [
      [S(RW_PRE, "enabled"), false],
      [S(RW_PRE, "trusted_hash"), h("1")],
      [S(RW_POST, "enabled"), false],
      [S(RW_POST, "trusted_hash"), undefined],
      [S(RW_STOP), undefined],
      [S(RW_NEW), { enabled: false, trusted_hash: h("5") }],
      [S("fake:key"), undefined],
    ],
  },
  {
    name: "real_world_projects",
    input: "real_world",
    touched: [],
    apply: (t) => {
      let r = patchProjectTrustText(t, "/home/a/other", "trusted");
      if (r.ok) r = patchProjectTrustText(r.text, "/home/a/new repo", "trusted");
      if (r.ok) r = patchProjectTrustText(r.text, "/home/a/repo", null);
      return r;
    },
    expect: [[P("/home/a/other"), "trusted"], [P("/home/a/new repo"), "trusted"], [
      ["projects", "/home/a/repo"],
      undefined,
    ]],
  },
  {
    name: "empty",
    input: "empty",
    touched: [RW_NEW],
    apply: states([[RW_NEW, { enabled: false, trustedHash: h("a") }]]),
    expect: [[S(RW_NEW), { enabled: false, trusted_hash: h("a") }]],
  },
  {
    name: "quoted_keys",
    input: "quoted_keys",
    touched: [Q_LIT, Q_NEW, Q_CLI],
    apply: states([[Q_LIT, { trustedHash: h("b") }], [Q_NEW, { enabled: false }], [Q_CLI, { trustedHash: null }]]),
    expect: [
      [S(Q_LIT), { enabled: false, trusted_hash: h("b") }],
      [S(Q_NEW), { enabled: false }],
      [S(Q_CLI), undefined],
    ],
  },
  {
    name: "no_final_newline",
    input: "no_final_newline",
    touched: ["k:1", "k:2"],
    apply: states([["k:1", { trustedHash: h("c") }], ["k:2", { enabled: false }]]),
    expect: [[S("k:1"), { enabled: false, trusted_hash: h("c") }], [S("k:2"), { enabled: false }], [["other", "x"], 1]],
  },
  {
    name: "no_final_newline_project",
    input: "no_final_newline",
    touched: [],
    apply: (t) => patchProjectTrustText(t, "C:\\Users\\a\\repo", "untrusted"),
    expect: [[P("C:\\Users\\a\\repo"), "untrusted"]],
  },
  {
    name: "dotted",
    input: "dotted",
    touched: ["user:/h/c.toml:Stop:0:0", "user:/h/c.toml:Stop:0:1", "user:/h/c.toml:Stop:0:2"],
    apply: states([
      ["user:/h/c.toml:Stop:0:0", { trustedHash: h("d") }],
      ["user:/h/c.toml:Stop:0:1", { trustedHash: null }],
      ["user:/h/c.toml:Stop:0:2", { enabled: false }],
    ]),
    expect: [
      [S("user:/h/c.toml:Stop:0:0"), { enabled: false, trusted_hash: h("d") }],
      [S("user:/h/c.toml:Stop:0:1"), undefined],
      [S("user:/h/c.toml:Stop:0:2"), { enabled: false }],
    ],
  },
  {
    name: "removals",
    input: "removals",
    touched: ["a", "b", "c", "d"],
    apply: states([["a", { enabled: true }], ["b", { enabled: true }], ["c", { enabled: true }], ["d", {
      enabled: true,
    }]]),
    // "a" keeps its header, as an empty table, for the note under it; the others go.
    expect: [[S("a"), {}], [S("b"), undefined], [S("c"), undefined], [S("d"), undefined], [P("/p"), "trusted"]],
  },
  {
    // SPEC §3.3: every comment is kept. A removed key's trailing comment stays on its own line; an
    // emptied table with comments of its own keeps its header; one without goes.
    name: "comments",
    input: "comments",
    touched: [0, 1, 2, 3, 4].map((i) => `user:/h/.mind/hooks.json:Stop:0:${i}`),
    alsoChanged: ["# reviewed 2026-11-02", "  # pinned"],
    apply: states([0, 1, 2, 3, 4].map((i) => [`user:/h/.mind/hooks.json:Stop:0:${i}`, { trustedHash: null }])),
    expect: [
      [S("user:/h/.mind/hooks.json:Stop:0:0"), {}],
      [S("user:/h/.mind/hooks.json:Stop:0:3"), { enabled: false }],
      [S("user:/h/.mind/hooks.json:Stop:0:4"), undefined],
      [["tui", "theme"], "dark"],
    ],
  },
  {
    // SPEC §3.5: pinned files beside the hash. Added to a table that has none (its comment stays),
    // replaced on re-trust, removed with the hash on untrust, `{}` for a hook that pins nothing,
    // and keys that need escaping.
    name: "pinned_files",
    input: "pinned_files",
    touched: [PF_PRE0, PF_PRE1, PF_PLUGIN, PF_CLAUDE, PF_ODD],
    alsoChanged: ["# pinned"],
    apply: states([
      [PF_PRE0, { trustedFiles: { ".mind/check_tool.py": h("7"), ".mind/lib/policy.py": h("8") } }],
      [PF_PRE1, { trustedHash: h("9"), trustedFiles: { ".mind/check_tool.py": h("a") } }],
      [PF_PLUGIN, { trustedHash: null, trustedFiles: null }],
      [PF_CLAUDE, { trustedHash: h("b"), trustedFiles: {} }],
      [PF_ODD, { trustedHash: h("c"), trustedFiles: { [ODD_PATH]: h("d") } }],
    ]),
    expect: [
      [S(PF_PRE0), {
        trusted_hash: h("1"),
        trusted_files: { ".mind/check_tool.py": h("7"), ".mind/lib/policy.py": h("8") },
      }],
      [S(PF_PRE1), { enabled: false, trusted_hash: h("9"), trusted_files: { ".mind/check_tool.py": h("a") } }],
      [S(PF_PLUGIN), {}],
      [S(PF_CLAUDE), { trusted_hash: h("b"), trusted_files: {} }],
      [S(PF_ODD), { trusted_hash: h("c"), trusted_files: { [ODD_PATH]: h("d") } }],
      [P("/home/a/repo"), "trusted"],
    ],
  },
  {
    // Untrusting every pinned hook: both fields go; a disabled hook keeps `enabled = false`, and the
    // tables whose lines held comments keep their headers with the comments.
    name: "pinned_untrust",
    input: "pinned_files",
    touched: [PF_PRE0, PF_PRE1, PF_PLUGIN],
    alsoChanged: ["# reviewed", "# pinned"],
    apply: states([PF_PRE0, PF_PRE1, PF_PLUGIN].map((k) => [k, { trustedHash: null, trustedFiles: null }])),
    expect: [[S(PF_PRE0), {}], [S(PF_PRE1), { enabled: false }], [S(PF_PLUGIN), {}]],
  },
  {
    name: "pinned_first",
    input: "empty",
    touched: [PF_PRE0],
    apply: states([[PF_PRE0, { trustedHash: h("e"), trustedFiles: { ".mind/check_tool.py": h("f") } }]]),
    expect: [[S(PF_PRE0), { trusted_hash: h("e"), trusted_files: { ".mind/check_tool.py": h("f") } }]],
  },
  {
    name: "first_state",
    input: "first_state",
    touched: ["user:/h/c.toml:Stop:0:0"],
    apply: states([["user:/h/c.toml:Stop:0:0", { enabled: false, trustedHash: h("e") }]]),
    expect: [[S("user:/h/c.toml:Stop:0:0"), { enabled: false, trusted_hash: h("e") }], [["tui", "theme"], "dark"]],
  },
];

const crlf = (s: string) => s.replaceAll("\n", "\r\n");

/** Fixtures are LF files; a checkout that converted them to CRLF is undone here, so the LF and
 * CRLF variants of each case are exactly what their names say on every OS. */
async function readFixture(name: string): Promise<string> {
  return (await Deno.readTextFile(new URL(name, GOLDEN))).replaceAll("\r\n", "\n");
}

/**
 * Everything outside the touched tables is kept: a line diff (longest common subsequence) of
 * `before` and `after` may only remove or add blank lines, headers of touched tables and their
 * `enabled` / `trusted_hash` / `trust_level` lines. (The golden files pin the exact bytes; this
 * states the rule they follow.)
 */
function assertOnlyTouchedChanged(before: string, after: string, touched: string[], also: string[] = []): void {
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const changed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) changed.push(b[j++]);
    else changed.push(a[i++]);
  }
  const headers = new Set(
    touched.flatMap((k) => [`[${tomlKeyPath(["hooks", "state", k])}]`, `[hooks.state.${JSON.stringify(k)}]`]),
  );
  const allowed = (line: string) =>
    line.trim() === "" || also.includes(line) || headers.has(line.trim().replace(/\s+#.*$/, "")) ||
    /^\s*(enabled|trusted_hash|trusted_files|trust_level)\s*=/.test(line) || /^\[projects\./.test(line) ||
    /^state\.".*"\.(enabled|trusted_hash) =/.test(line);
  for (const line of changed) assert(allowed(line), `changed line outside the touched tables: ${JSON.stringify(line)}`);
}

/** The comments of a TOML text, in order: from each `#` outside a string to the end of its line
 * (fixture-grade: single-line strings; the multi-line string of real_world holds no `#`). */
function comments(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    let quote: string | null = null;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quote !== null) {
        if (ch === "\\" && quote === '"') i++;
        else if (ch === quote) quote = null;
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === "#") {
        out.push(line.slice(i).trimEnd());
        break;
      }
    }
  }
  return out;
}

/** SPEC §3.3: writes preserve every comment (in order). */
function assertCommentsKept(before: string, after: string): void {
  assertEquals(comments(after), comments(before), "every comment is kept");
}

for (const c of CASES) {
  // An empty file has no line ending to keep.
  for (const mode of c.input === "empty" ? ["lf"] as const : ["lf", "crlf"] as const) {
    Deno.test(`golden ${c.name} (${mode})`, async () => {
      const rawIn = await readFixture(`${c.input}.input.toml`);
      const input = mode === "crlf" ? crlf(rawIn) : rawIn;
      const r = c.apply(input);
      assert(r.ok, r.ok ? "" : r.error.message);
      if (UPDATE && mode === "lf") await Deno.writeTextFile(new URL(`${c.name}.expected.toml`, GOLDEN), r.text);
      assertCommentsKept(input, r.text);
      const rawExpected = await readFixture(`${c.name}.expected.toml`);
      const expected = mode === "crlf" ? crlf(rawExpected) : rawExpected;
      assertEquals(r.text, expected);
      if (mode === "crlf") assert(!/[^\r]\n/.test(r.text), "a lone LF in a CRLF file");
      assertOnlyTouchedChanged(input, r.text, c.touched, c.alsoChanged);

      const parsed = smolParse(r.text);
      tomlEditParse(r.text); // throws if the Rust parser disagrees
      for (const [path, value] of c.expect) assertEquals(lookup(parsed, path), value, path.join(" / "));

      // The pure function is idempotent: applying the same change again is a no-op.
      const again = c.apply(r.text);
      assert(again.ok);
      assertEquals(again.text, r.text);
    });
  }
}

Deno.test("writeHookStates writes the golden result to disk, keeping the file mode", async () => {
  const input = await readFixture("real_world.input.toml");
  const { dir, path } = await tempConfig(input);
  if (!WINDOWS) await Deno.chmod(path, 0o640);
  const r = await writeHookStates(
    path,
    new Map<string, StatePatch>([
      [RW_PRE, { enabled: false }],
      [RW_POST, { trustedHash: null }],
      [RW_STOP, { enabled: true }],
      [RW_NEW, { enabled: false, trustedHash: h("5") }],
    ]),
  );
  assertEquals(r, { ok: true, changed: true });
  assertEquals(await Deno.readTextFile(path), await readFixture("real_world.expected.toml"));
  if (!WINDOWS) assertEquals((await Deno.stat(path)).mode! & 0o777, 0o640);
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assertEquals(names, ["config.toml", "config.toml.lock"]); // no temp file left behind
  await Deno.remove(dir, { recursive: true });
});

Deno.test("disable then enable restores the original bytes (LF and CRLF)", () => {
  const base = '# c\nmodel = "x"\n\n[tui] # t\ntheme = "dark"\n';
  for (const text of [base, crlf(base), base.trimEnd(), ""]) {
    for (const key of ["plain", "a.b", 'q"uote', "back\\slash", "ünï cödé ✓", "project:/r/.mind/hooks.json:Stop:0:0"]) {
      const off = patchHookStatesText(text, new Map([[key, { enabled: false, trustedHash: h("f") }]]));
      assert(off.ok);
      assertEquals(lookup(smolParse(off.text), S(key)), { enabled: false, trusted_hash: h("f") });
      const on = patchHookStatesText(off.text, new Map([[key, { enabled: true, trustedHash: null }]]));
      assert(on.ok);
      // A file without final newline gains one when a table is appended and removed again.
      assertEquals(on.text, text === base.trimEnd() ? base : text, JSON.stringify(key));
    }
  }
});

Deno.test("a state table known only through a sub-table gets its own header", () => {
  const text = '[hooks.state."k".extra]\nnote = "x"\n';
  const r = patchHookStatesText(text, new Map([["k", { enabled: false }]]));
  assert(r.ok, r.ok ? "" : r.error.message);
  assertEquals(r.text, text + "\n[hooks.state.k]\nenabled = false\n");
  assertEquals(lookup(smolParse(r.text), S("k")), { extra: { note: "x" }, enabled: false });
});

Deno.test("an explicit [hooks.state] parent stays when its last child goes", () => {
  const r = patchHookStatesText(
    '[hooks.state]\n# parent\n\n[hooks.state."e"]\nenabled = false\n',
    new Map([["e", {}]]),
  );
  assert(r.ok);
  assertEquals(r.text, '[hooks.state]\n# parent\n\n[hooks.state."e"]\nenabled = false\n'); // empty patch: no change
  const e = patchHookStatesText(
    '[hooks.state]\n# parent\n\n[hooks.state."e"]\nenabled = false\n',
    new Map([["e", { enabled: true }]]),
  );
  assert(e.ok);
  assertEquals(e.text, "[hooks.state]\n# parent\n");
});

Deno.test("bulk: 1,000 keys trusted, half disabled, all untrusted in three patches", () => {
  const keys = Array.from({ length: 1000 }, (_, i) => `project:/r/.mind/hooks.json:PreToolUse:${i}:0`);
  const base = '# mine\nmodel = "x"\n\n[tui]\ntheme = "dark"\n';
  const trust = patchHookStatesText(base, new Map(keys.map((k, i) => [k, { trustedHash: h((i % 16).toString(16)) }])));
  assert(trust.ok);
  assert(trust.text.startsWith(base), "new tables go after the existing content");
  const half = patchHookStatesText(
    trust.text,
    new Map(keys.filter((_, i) => i % 2 === 0).map((k) => [k, { enabled: false }])),
  );
  assert(half.ok);
  const parsed = smolParse(half.text);
  for (const [i, k] of keys.entries()) {
    const want = i % 2 === 0
      ? { enabled: false, trusted_hash: h((i % 16).toString(16)) }
      : { trusted_hash: h((i % 16).toString(16)) };
    assertEquals(lookup(parsed, S(k)), want, k);
  }
  const untrust = patchHookStatesText(half.text, new Map(keys.map((k) => [k, { trustedHash: null }])));
  assert(untrust.ok);
  const left = lookup(smolParse(untrust.text), ["hooks", "state"]) as Record<string, unknown>;
  assertEquals(Object.keys(left).length, 500);
  const all = patchHookStatesText(untrust.text, new Map(keys.map((k) => [k, { enabled: true }])));
  assert(all.ok);
  assertEquals(all.text, base);
});

Deno.test("other shapes the writer refuses instead of breaking the file", () => {
  const refusals: Array<[string, string]> = [
    ['[hooks]\nstate = "oops"\n', "inline value"],
    ["[[hooks.state]]\nx = 1\n", "array of tables"],
    ['[hooks.state."k".enabled]\nx = 1\n', "is a table"],
    ['[hooks.state."k"]\nenabled.x = 1\n', "is a table"],
    ["hooks = { state = { k = { enabled = true } } }\n", "inline value"],
  ];
  for (const [text, why] of refusals) {
    const r = patchHookStatesText(text, new Map([["k", { enabled: false }]]));
    assert(!r.ok, text);
    assertEquals(r.error.kind, "parse");
    assertStringIncludes(r.error.message, why);
  }
});

Deno.test("tricky layouts: look-alike headers in strings, arrays, dates, BOM, whitespace", () => {
  const text = "\uFEFF" + [
    "a = '''",
    '[hooks.state."k"]',
    "enabled = true'''",
    'b = """quote: \\""""""',
    "c = [",
    "  [ 1, 2 ], # [hooks.state.k]",
    "  { x = 1 },",
    "]",
    "d = 1979-05-27 07:32:00Z",
    "e = { k = 1,",
    "  v = [2] }",
    "[ hooks . state . k ]   # spaced header",
    "  trusted_hash = 'sha256:old'  ",
    "",
  ].join("\n");
  const r = patchHookStatesText(text, new Map([["k", { enabled: false, trustedHash: h("9") }]]));
  assert(r.ok, r.ok ? "" : r.error.message);
  assert(r.text.startsWith(text.slice(0, text.indexOf("[ hooks"))), "everything before the table unchanged");
  assert(r.text.endsWith(`  enabled = false\n  trusted_hash = "${h("9")}"  \n`), JSON.stringify(r.text));
  const parsed = smolParse(r.text) as Record<string, unknown>;
  assertEquals(lookup(parsed, S("k")), { enabled: false, trusted_hash: h("9") });
  assertEquals(parsed.a, '[hooks.state."k"]\nenabled = true');
});
