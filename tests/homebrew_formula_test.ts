/**
 * The Homebrew formula the release generates from its SHA256SUMS (`deno task homebrew:formula`): one url and
 * digest per macOS/Linux target, exactly as published; refused when SHA256SUMS lacks an archive or is malformed.
 * Where Ruby is installed, the formula is also loaded for real against a stand-in of Homebrew's DSL, which
 * records what `on_macos`/`on_linux` × `on_arm`/`on_intel` declare.
 */
import { assertEquals, assertStringIncludes } from "./helpers/assert.ts";
import { REPO } from "./helpers/cli.ts";
import { archiveName, RELEASE, TARGETS } from "../scripts/release.ts";
import { homebrewFormula, parseSha256Sums } from "../scripts/homebrew_formula.ts";

const VERSION = "1.2.3";
const digest = (i: number) => String(i).repeat(64).slice(0, 64).replace(/[^0-9]/g, "a");
const SUMS = TARGETS.map((t, i) => `${digest(i + 1)}  ${archiveName(VERSION, t)}`).join("\n") + "\n";

async function run(cmd: string, args: string[], opts: { cwd?: string; stdin?: string } = {}) {
  const child = new Deno.Command(cmd, {
    args,
    cwd: opts.cwd,
    stdin: opts.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(opts.stdin));
    await w.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: new TextDecoder().decode(out.stdout), stderr: new TextDecoder().decode(out.stderr) };
}

async function hasRuby(): Promise<boolean> {
  try {
    return (await run("ruby", ["--version"])).code === 0;
  } catch {
    return false;
  }
}

/** Homebrew's formula DSL, reduced to recording what the formula declares (no Homebrew here). */
const DSL = `
require "json"
$decl = { "blocks" => {} }
$where = []
class Formula
  # Plain method definitions: the Ruby of older macOS runners (2.6) has no endless methods.
  def self.desc(v); $decl["desc"] = v; end
  def self.homepage(v); $decl["homepage"] = v; end
  def self.version(v); $decl["version"] = v; end
  def self.license(v); $decl["license"] = v; end
  def self.within(tag); $where.push(tag); yield; $where.pop; end
  def self.on_macos(&b); within("macos", &b); end
  def self.on_linux(&b); within("linux", &b); end
  def self.on_arm(&b); within("arm", &b); end
  def self.on_intel(&b); within("intel", &b); end
  def self.block; $decl["blocks"][$where.join("/")] ||= {}; end
  def self.url(v); block["url"] = v; end
  def self.sha256(v); block["sha256"] = v; end
  def self.test(&b); $decl["test"] = true; end
end
load ARGV[0]
$decl["install"] = MindHooks.instance_methods(false).include?(:install)
puts JSON.generate($decl)
`;

Deno.test("homebrew formula: a url and sha256 per macOS and Linux target, from SHA256SUMS", () => {
  const formula = homebrewFormula(parseSha256Sums(SUMS), VERSION);
  const url = (triple: string) =>
    `https://github.com/${RELEASE.repository}/releases/download/v${VERSION}/mind-hooks-${VERSION}-${triple}.tar.gz`;
  for (const [i, t] of TARGETS.entries()) {
    if (t.os === "win32") {
      assertEquals(formula.includes(t.triple), false, "no Windows archive in a Homebrew formula");
      continue;
    }
    assertStringIncludes(formula, `      url "${url(t.triple)}"\n      sha256 "${digest(i + 1)}"\n`);
  }
  assertStringIncludes(formula, `class MindHooks < Formula`);
  assertStringIncludes(formula, `  version "${VERSION}"`);
  assertStringIncludes(formula, `bin.install "mind-hooks"`);
  assertStringIncludes(formula, `generate_completions_from_executable(bin/"mind-hooks", "completions")`);
  assertStringIncludes(formula, `assert_match "mind-hooks #{version}", shell_output("#{bin}/mind-hooks --version")`);
});

Deno.test("homebrew formula: SHA256SUMS without an archive, or malformed, is refused", () => {
  const without = SUMS.split("\n").filter((l) => !l.includes("aarch64-apple-darwin")).join("\n");
  let msg = "";
  try {
    homebrewFormula(parseSha256Sums(without), VERSION);
  } catch (e) {
    msg = (e as Error).message;
  }
  assertEquals(msg, `SHA256SUMS has no line for mind-hooks-${VERSION}-aarch64-apple-darwin.tar.gz`);
  try {
    parseSha256Sums("abc  file\n");
    msg = "";
  } catch (e) {
    msg = (e as Error).message;
  }
  assertEquals(msg, `SHA256SUMS line 1 is not "<sha256>  <file>": "abc  file"`);
  // `sha256sum -b` marks binary files with `*`; upper-case hex is accepted and written lower-case.
  const sums = parseSha256Sums(`${"AB".repeat(32)} *x.tar.gz\n`);
  assertEquals([...sums], [["x.tar.gz", "ab".repeat(32)]]);
});

Deno.test("homebrew formula: the task writes it; Ruby loads it and sees every platform block", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mind-hooks-brew-" });
  try {
    await Deno.writeTextFile(`${dir}/SHA256SUMS`, SUMS);
    const r = await run(Deno.execPath(), [
      "task",
      "-q",
      "--config",
      `${REPO}/deno.json`,
      "homebrew:formula",
      "--sums",
      `${dir}/SHA256SUMS`,
      "--version",
      `v${VERSION}`,
      "--out",
      `${dir}/mind-hooks.rb`,
    ]);
    assertEquals(r.code, 0, r.stderr);
    const formula = await Deno.readTextFile(`${dir}/mind-hooks.rb`);
    assertEquals(formula, homebrewFormula(parseSha256Sums(SUMS), VERSION));
    const missing = await run(Deno.execPath(), [
      "task",
      "-q",
      "--config",
      `${REPO}/deno.json`,
      "homebrew:formula",
      "--sums",
      `${dir}/nope`,
    ]);
    assertEquals(missing.code, 1);
    assertStringIncludes(missing.stderr, `homebrew:formula: cannot read ${dir}/nope`);

    if (!await hasRuby()) {
      console.log("homebrew formula: Ruby is not installed here; the Ruby load skipped");
      return;
    }
    assertEquals((await run("ruby", ["-c", `${dir}/mind-hooks.rb`])).code, 0, "ruby -c");
    await Deno.writeTextFile(`${dir}/dsl.rb`, DSL);
    const loaded = await run("ruby", [`${dir}/dsl.rb`, `${dir}/mind-hooks.rb`]);
    assertEquals(loaded.code, 0, loaded.stderr);
    const decl = JSON.parse(loaded.stdout);
    const expected: Record<string, { url: string; sha256: string }> = {};
    for (const [i, t] of TARGETS.entries()) {
      if (t.os === "win32") continue;
      const key = `${t.os === "darwin" ? "macos" : "linux"}/${t.cpu === "arm64" ? "arm" : "intel"}`;
      expected[key] = {
        url: `${RELEASE.downloadUrl}/v${VERSION}/${archiveName(VERSION, t)}`,
        sha256: digest(i + 1),
      };
    }
    assertEquals(decl.blocks, expected);
    assertEquals([decl.version, decl.license, decl.homepage, decl.install, decl.test], [
      VERSION,
      "MIT",
      RELEASE.homepage,
      true,
      true,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
