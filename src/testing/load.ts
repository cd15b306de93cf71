/**
 * Finding and reading `mind-hooks test` files (SPEC §16): every `*.toml` under the project's
 * `.mind/tests/` by default, else the FILEs and DIRs given; each read as TOML and checked against the
 * zod schema (src/testing/test_file.ts). A bad file is one sentence naming its file, line and column.
 * @module
 */
import { lineStarts, parseTomlText, positionAt } from "../config/files.ts";
import { tomlOffsets } from "../config/positions.ts";
import { pathKey } from "../util/toml_tree.ts";
import { join } from "../util/paths.ts";
import { fail, ok, type Result } from "../util/result.ts";
import { type TestFile, testFileSchema } from "./test_file.ts";

/** One test file, read and checked. */
export type LoadedTests = { path: string; file: TestFile };

/** Every `*.toml` under `dir` (sorted, so runs are in a stable order). */
async function tomlFilesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...await tomlFilesUnder(p));
    else if (e.isFile && e.name.endsWith(".toml")) out.push(p);
  }
  return out.sort();
}

/**
 * The test files of a run: each given FILE, and the `*.toml` under each given DIR; with none given,
 * those under `<project>/.mind/tests/` (none when there is no such folder).
 */
export async function testFiles(given: readonly string[], projectRoot: string | null): Promise<Result<string[]>> {
  if (given.length === 0) {
    if (projectRoot === null) return ok([]);
    try {
      return ok(await tomlFilesUnder(join(projectRoot, ".mind", "tests")));
    } catch {
      return ok([]);
    }
  }
  const out: string[] = [];
  for (const p of given) {
    try {
      const info = await Deno.stat(p);
      out.push(...(info.isDirectory ? await tomlFilesUnder(p) : [p]));
    } catch {
      return fail(`${p}: no such file or directory`);
    }
  }
  return ok(out);
}

/** Reads and checks one test file; the error names the file, line and column of what is wrong. */
export async function loadTestFile(path: string): Promise<Result<LoadedTests>> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    return fail(`${path}: cannot read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = parseTomlText(text, path);
  if (!parsed.ok) {
    const w = parsed.error;
    return fail(`${path}:${w.line ?? 1}:${w.column ?? 1}: ${w.message}`);
  }
  const z = await import("zod");
  const checked = testFileSchema(z).safeParse(parsed.value);
  if (checked.success) return ok({ path, file: checked.data });
  const issue = checked.error.issues[0];
  const at = issue.path.filter((s): s is string | number => typeof s !== "symbol");
  // The key's own place when it is there, else the nearest enclosing table's (a missing key).
  const offsets = tomlOffsets(text);
  const starts = lineStarts(text);
  let where = { line: 1, column: 1 };
  for (let len = at.length; len >= 1; len--) {
    const off = offsets.get(pathKey(at.slice(0, len)));
    if (off !== undefined) {
      where = positionAt(starts, off);
      break;
    }
  }
  const name = at.map((s) => typeof s === "number" ? `[${s}]` : `.${s}`).join("").replace(/^\./, "");
  return fail(`${path}:${where.line}:${where.column}: ${name ? `${name}: ` : ""}${issueText(issue)}`);
}

/** One zod issue as a short phrase. */
function issueText(issue: { code: string; message: string; keys?: string[] }): string {
  if (issue.code === "unrecognized_keys" && issue.keys) return `unknown key ${issue.keys.join(", ")}`;
  return issue.message.replace(/\s+/g, " ");
}
