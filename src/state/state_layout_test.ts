/**
 * Unit tests of the one TOML syntax tree (src/util/toml_tree.ts) and of the layout the state
 * writer reads from it (src/state/state_layout.ts): offsets by value path, the byte-order mark,
 * and strings too long for the parser to build (it spreads every code point into one call).
 */
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { parseTomlTree, pathKey, valueOffsets } from "../util/toml_tree.ts";
import { tomlLayout } from "./state_layout.ts";
import { patchHookStatesText } from "./state_writer.ts";
import { parse as smolParse } from "smol-toml";

/** The offsets of `text` as `[path, line:column]` pairs, in the map's order. */
function positions(text: string): [string, string][] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  const at = (off: number) => {
    const line = starts.findLastIndex((s) => s <= off);
    return `${line + 1}:${off - starts[line] + 1}`;
  };
  return [...valueOffsets(parseTomlTree(text))].map(([k, off]) => [k, at(off)]);
}

Deno.test("toml tree: a key/value at its key, an element at its start, a table at its header, parents at first sight", () => {
  const text = [
    "hooks.SessionStart = [{ hooks = [{ type = 'agent' }] }]",
    "[[hooks.Stop]]",
    "[[hooks.Stop.hooks]]",
    '"command" = 7',
  ].join("\n");
  assertEquals(positions(text), [
    [pathKey(["hooks"]), "1:1"],
    [pathKey(["hooks", "SessionStart"]), "1:1"],
    [pathKey(["hooks", "SessionStart", 0]), "1:23"],
    [pathKey(["hooks", "SessionStart", 0, "hooks"]), "1:25"],
    [pathKey(["hooks", "SessionStart", 0, "hooks", 0]), "1:34"],
    [pathKey(["hooks", "SessionStart", 0, "hooks", 0, "type"]), "1:36"],
    [pathKey(["hooks", "Stop"]), "2:1"],
    [pathKey(["hooks", "Stop", 0]), "2:1"],
    [pathKey(["hooks", "Stop", 0, "hooks"]), "3:1"],
    [pathKey(["hooks", "Stop", 0, "hooks", 0]), "3:1"],
    [pathKey(["hooks", "Stop", 0, "hooks", 0, "command"]), "4:1"],
  ]);
});

Deno.test("toml tree: a byte-order mark keeps every offset", () => {
  const text = "\uFEFF[t] # c\r\nk = 1\r\n";
  assertEquals(positions(text), [[pathKey(["t"]), "1:2"], [pathKey(["t", "k"]), "2:1"]]);
  const layout = tomlLayout(text);
  assertEquals(layout.items.map((i) => [i.kind, i.start, i.end]), [["header", 1, 10], ["kv", 10, 17]]);
  assertEquals(layout.eol, "\r\n");
});

Deno.test("toml tree: strings of 200,000 characters of every kind are read (their ranges, not their values)", () => {
  const long = "x".repeat(200_000);
  const text = [
    `a = "${long}"`,
    `b = '${long}'`,
    `c = """\n${long}\n${long}"""`,
    `d = '''${long}'''`,
    `e = ["${long}", { f = "${"\\u00e9".repeat(50_000)}" }] # after`,
    `[t]`,
    `g = 1`,
  ].join("\n");
  smolParse(text); // valid TOML
  const got = new Map(positions(text));
  assertEquals(got.get(pathKey(["b"])), "2:1");
  assertEquals(got.get(pathKey(["d"])), "6:1");
  assertEquals(got.get(pathKey(["e", 1, "f"])), "7:200012");
  assertEquals(got.get(pathKey(["t", "g"])), "9:1");
  const layout = tomlLayout(text);
  assertEquals(layout.kvs.map((kv) => [kv.path.join("."), kv.comment]), [
    ["a", null],
    ["b", null],
    ["c", null],
    ["d", null],
    ["e", "# after"],
    ["t.g", null],
  ]);
  const c = layout.kvs[2];
  assertEquals(text.slice(c.valueStart, c.valueEnd), `"""\n${long}\n${long}"""`);

  // And the writer edits such a file, every long string kept.
  const r = patchHookStatesText(text, new Map([["k", { enabled: false }]]));
  assert(r.ok, r.ok ? "" : r.error.message);
  assertEquals(r.text, `${text}\n\n[hooks.state.k]\nenabled = false`);
});
