/**
 * Checks the GitHub workflows against what the project promises about them: the CI matrix and its steps; the
 * release's five targets, each compiled and run on its own runner (`--version`, `doctor`, the demo's dispatch);
 * archives holding the binary, LICENSE and README.md; SHA256SUMS; build provenance; publishing only after CI
 * passed on the tag (ci.yml called as a job the publish job needs); the npm packages and the Homebrew formula
 * built by their tasks; every action pinned by a full commit SHA with its release tag beside it; every
 * `deno task` they call exists; the binary always compiled with the permission set declared in deno.json
 * (`-P --no-prompt`, never `-A`/`--allow-*`); and the release version taken from deno.json only.
 *
 * The workflows cannot run here (no GitHub, no network for `denort`), so this is what keeps them
 * from drifting away from deno.json and scripts/release.ts between releases.
 */
import { parse as parseYaml } from "yaml";
import { assert, assertEquals } from "./helpers/assert.ts";
import { parse as parseJsonc } from "jsonc-parser";
import { TARGETS } from "../scripts/release.ts";
import { entryModule } from "../main.ts";

const ROOT = new URL("../", import.meta.url);
const read = (rel: string) => Deno.readTextFileSync(new URL(rel, ROOT));

// deno-lint-ignore no-explicit-any
type Any = any;

type Step = {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
};
type Job = {
  name?: string;
  "runs-on"?: string;
  uses?: string;
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  strategy?: { "fail-fast"?: boolean; matrix?: Record<string, unknown> };
  env?: Record<string, string>;
  steps?: Step[];
};
type Workflow = {
  name: string;
  on: Any;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
};

function loadWorkflow(rel: string): Workflow {
  const doc = parseYaml(read(rel)) as Workflow;
  if (!doc || typeof doc !== "object" || !doc.jobs) {
    throw new Error(`${rel}: no jobs`);
  }
  return doc;
}

const WORKFLOWS = [".github/workflows/ci.yml", ".github/workflows/release.yml"];
const ci = loadWorkflow(WORKFLOWS[0]);
const release = loadWorkflow(WORKFLOWS[1]);

const stepsOf = (job: Job): Step[] => job.steps ?? [];
/** A job's shell scripts, with `\`-continued lines joined into one. */
const jobScripts = (job: Job): string[] =>
  stepsOf(job).flatMap((s) => (s.run ? [s.run.replace(/\\\r?\n\s*/g, " ")] : []));
/** Every shell script of a workflow. */
const scripts = (wf: Workflow): string[] => Object.values(wf.jobs).flatMap(jobScripts);
/** The shell lines (after joining continuations) of all scripts that contain `needle`. */
const linesWith = (wf: Workflow, needle: RegExp): string[] =>
  scripts(wf).flatMap((s) => s.split("\n")).filter((l) => needle.test(l) && !/^\s*#/.test(l));
const needsOf = (job: Job): string[] => [job.needs ?? []].flat();

function denoJson(): Any {
  return parseJsonc(read("deno.json"));
}

/** Tasks deno.json must define whether or not a workflow calls them (the local CI entry points). */
const REQUIRED_TASKS = ["test", "ci"];

Deno.test("workflows parse, and every job checks out and installs Deno 2.9.x before running deno", () => {
  for (const wf of [ci, release]) {
    for (const [id, job] of Object.entries(wf.jobs)) {
      if (job.uses) continue; // a called workflow: checked on its own
      const js = stepsOf(job);
      assert(js.length > 0, `${wf.name}/${id}: no steps`);
      for (const s of js.filter((s) => s.uses?.startsWith("denoland/setup-deno@"))) {
        assertEquals(s.with?.["deno-version"], "v2.9.x", `${wf.name}/${id}`);
      }
      const runsDeno = js.some((s) => /\bdeno\s/.test(s.run ?? ""));
      if (!runsDeno) continue;
      const checkout = js.findIndex((s) => s.uses?.startsWith("actions/checkout@"));
      const setupAt = js.findIndex((s) => s.uses?.startsWith("denoland/setup-deno@"));
      const firstDeno = js.findIndex((s) => /\bdeno\s/.test(s.run ?? ""));
      assert(checkout >= 0 && checkout < firstDeno, `${wf.name}/${id}: checkout before deno`);
      assert(setupAt >= 0 && setupAt < firstDeno, `${wf.name}/${id}: setup-deno before deno`);
    }
  }
});

Deno.test("every action is pinned by a full commit SHA, with the release tag it stands for beside it", () => {
  // The SHAs were read from the actions' own repositories at the tags named in the comments.
  const known: Record<string, [string, string]> = {
    "actions/checkout": ["3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"],
    "denoland/setup-deno": ["667a34cdef165d8d2b2e98dde39547c9daac7282", "v2.0.4"],
    "actions/upload-artifact": ["bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"],
    "actions/download-artifact": ["3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "v8.0.1"],
    "actions/attest-build-provenance": ["a2bbfa25375fe432b6a289bc6b6cd05ecd0c4c32", "v4.1.0"],
    "actions/setup-node": ["820762786026740c76f36085b0efc47a31fe5020", "v7.0.0"],
  };
  let count = 0;
  for (const wf of WORKFLOWS) {
    for (const line of read(wf).split("\n")) {
      const m = /^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/.exec(line);
      if (!m) continue;
      const [ref, rest] = [m[1], m[2]];
      if (ref.startsWith("./")) continue; // a workflow of this repository, at the same commit
      count++;
      const [action, sha] = ref.split("@");
      assert(/^[0-9a-f]{40}$/.test(sha ?? ""), `${wf}: ${ref} is not pinned by a full commit SHA`);
      const tag = /^\s*# (v\d+\.\d+\.\d+)\s*$/.exec(rest)?.[1];
      assert(tag, `${wf}: ${ref} has no "# vX.Y.Z" comment naming the release it pins`);
      assert(known[action], `${wf}: ${action} is not in the list of verified pins; add its SHA and tag here`);
      assertEquals([sha, tag], known[action], `${wf}: ${action}`);
    }
  }
  assert(count >= 10, "the workflows use actions");
});

Deno.test("ci: branches, pull requests and calls from the release, on ubuntu, macos and windows", () => {
  assertEquals(Object.keys(ci.on).sort(), ["pull_request", "push", "workflow_call"]);
  // Tags run CI through the release workflow (which waits for it), not twice.
  assertEquals(ci.on.push, { branches: ["**"] });
  const job = ci.jobs.test;
  assertEquals(job["runs-on"], "${{ matrix.os }}");
  assertEquals([...(job.strategy?.matrix?.os as string[])].sort(), ["macos-latest", "ubuntu-latest", "windows-latest"]);
  // When called, github.workflow is the caller's name: the called CI never cancels a branch push's CI, or itself.
  assert(read(WORKFLOWS[0]).includes("group: ci-${{ github.workflow }}-${{ github.ref }}"), "concurrency group");
});

Deno.test("ci: fmt, lint, check, tests and the compiled-binary smoke test", () => {
  const all = scripts(ci).join("\n");
  for (
    const [what, re] of [
      ["fmt", /^\s*deno fmt --check\s*$/m],
      ["lint", /^\s*deno lint\s*$/m],
      ["check", /^\s*deno check main\.ts mod\.ts\s*$/m],
      ["tests", /^\s*deno task test\s*$/m],
      ["compile", /deno compile .*-o "\$bin" main\.ts/],
      ["--version", /"\$bin" --version/],
      ["dispatch", /"\$bin" dispatch --home "\$home" < fixtures\/events\/pre_tool_use\.json/],
      ["empty home", /mkdir -p "\$home"/],
    ] as const
  ) assert(re.test(all), `ci.yml lacks the ${what} step`);
  // The fmt check must see LF files on Windows too: autocrlf is turned off before checkout.
  const job = stepsOf(ci.jobs.test);
  const lf = job.findIndex((s) => /core\.autocrlf false/.test(s.run ?? ""));
  const checkout = job.findIndex((s) => s.uses?.startsWith("actions/checkout@"));
  assert(lf >= 0 && lf < checkout, "autocrlf disabled before checkout");
});

Deno.test("files the workflows run exist", () => {
  const missing = [
    "main.ts",
    "mod.ts",
    "fixtures/events/pre_tool_use.json",
    "fixtures/demo/demo.ts",
    "install.sh",
    "install.ps1",
    "LICENSE",
    "README.md",
    "CHANGELOG.md",
    "scripts/release.ts",
  ]
    .filter((f) => {
      try {
        Deno.statSync(new URL(f, ROOT));
        return false;
      } catch {
        return true;
      }
    });
  assertEquals(missing, [], "missing files");
});

Deno.test("release: tag-triggered; each target compiled and run on its own runner", () => {
  assertEquals(release.on?.push?.tags, ["v*"]);
  assertEquals(Object.keys(release.on), ["push"], "release runs on tags only");
  const build = release.jobs.build;
  assertEquals(build["runs-on"], "${{ matrix.runner }}");
  assertEquals(
    build.strategy?.matrix?.include,
    TARGETS.map((t) => ({ target: t.triple, runner: t.runner })),
    "the matrix is scripts/release.ts's TARGETS: target triple and its native runner",
  );
  assertEquals(build.env?.TARGET, "${{ matrix.target }}");
  const compile = linesWith(release, /\bdeno compile\b/);
  assertEquals(compile.length, 1, "one compile command");
  assert(/--target "\$TARGET"/.test(compile[0]), "compile uses --target");
  assert(/-o "dist\/stage\/mind-hooks\$exe"/.test(compile[0]), "the binary is mind-hooks (.exe), not renamed later");
  const all = jobScripts(build).join("\n");
  assert(/\*windows\*\) exe="\.exe"; ext="zip"/.test(all), ".exe and zip on Windows");
  // The binary runs on the runner that built it, before it is archived: --version, doctor, the demo's dispatch.
  const runIt = stepsOf(build).findIndex((s) => /"\$bin" --version/.test(s.run ?? ""));
  const archive = stepsOf(build).findIndex((s) => /tar -czf|Compress-Archive/.test(s.run ?? ""));
  assert(runIt >= 0 && runIt < archive, "the binary runs before it is archived");
  const run = stepsOf(build)[runIt].run!;
  assert(/"\$out" != "mind-hooks \$VERSION"/.test(run), "--version must print the published version");
  assert(/"\$bin" doctor --home "\$home"/.test(run), "doctor");
  assert(/MIND_HOOKS_BIN="\$bin" deno task demo/.test(run), "the demo's dispatch, run by the binary");
  assert(/grep -q '"decision": "deny"'/.test(run), "the demo's deny is checked");
  assert(read("fixtures/demo/demo.ts").includes('Deno.env.get("MIND_HOOKS_BIN")'), "demo.ts takes MIND_HOOKS_BIN");
});

Deno.test("release: archives hold mind-hooks (.exe), LICENSE and README.md at the top level, checked unpacked", () => {
  const build = release.jobs.build;
  const all = jobScripts(build).join("\n");
  assert(/cp LICENSE README\.md dist\/stage\//.test(all), "LICENSE and README.md staged");
  assert(/tar -czf "dist\/\$ARCHIVE" -C dist\/stage mind-hooks LICENSE README\.md/.test(all), "tar.gz layout");
  assert(
    /Compress-Archive -Path dist\/stage\/mind-hooks\.exe, dist\/stage\/LICENSE, dist\/stage\/README\.md/.test(all),
    "zip layout",
  );
  assert(/printf '%s\\n' LICENSE README\.md "mind-hooks\$EXE"/.test(all), "the unpacked listing is checked");
  assert(/test "\$\("unpacked\/mind-hooks\$EXE" --version\)" = "mind-hooks \$VERSION"/.test(all), "unpacked runs");
  assertEquals(stepsOf(build).at(-1)?.with?.name, "archive-${{ matrix.target }}");
});

Deno.test("release: publish needs CI on the tag and every build; SHA256SUMS, provenance, then the release", () => {
  assertEquals(release.jobs.ci, { name: "CI on the tag", needs: "version", uses: "./.github/workflows/ci.yml" });
  const publish = release.jobs.publish;
  assertEquals(needsOf(publish).sort(), ["build", "ci", "version"]);
  assertEquals(publish.permissions, { contents: "write", "id-token": "write", attestations: "write" });
  assertEquals(release.permissions, { contents: "read" }, "write only where publishing");
  const ps = stepsOf(publish);
  const at = (re: RegExp) => ps.findIndex((s) => re.test(s.run ?? "") || re.test(s.uses ?? ""));
  const sums = at(/sha256sum mind-hooks-"\$VERSION"-\* > SHA256SUMS/);
  const formula = at(
    /deno task homebrew:formula --sums dist\/SHA256SUMS --version "\$VERSION" --out dist\/mind-hooks\.rb/,
  );
  const installers = at(/cp install\.sh install\.ps1 dist\//);
  const attest = at(/^actions\/attest-build-provenance@/);
  const create = at(/gh release create "\$TAG" dist\/\*/);
  assert(sums >= 0 && formula > sums && installers >= 0 && attest > installers && create > attest, "order");
  assertEquals(ps[attest].with, { "subject-path": "dist/*" });
  assert(/test "\$\(wc -l < SHA256SUMS\)" -eq 5/.test(ps[sums].run!), "one line per target");
  assert(/deno task release:notes "\$VERSION" > "\$RUNNER_TEMP\/notes\.md"/.test(ps[create].run!), "notes");
  assert(/--notes-file "\$RUNNER_TEMP\/notes\.md"/.test(ps[create].run!), "the CHANGELOG section is the notes");
  // Nothing else writes anything public before publish; npm and the tap come after it.
  for (const id of ["npm", "homebrew"]) assert(needsOf(release.jobs[id]).includes("publish"), `${id} needs publish`);
  const writers = Object.entries(release.jobs).filter(([, j]) => j.permissions?.contents === "write").map(([i]) => i);
  assertEquals(writers, ["publish"]);
  const version = release.jobs.version;
  assert(
    stepsOf(version).some((s) => /^deno task release:notes "\$VERSION"$/.test(s.run ?? "")),
    "the tag needs its CHANGELOG section",
  );
});

Deno.test("ci.yml can be called by the release workflow", () => {
  assert("workflow_call" in ci.on, "ci.yml has workflow_call");
  assertEquals(ci.permissions, { contents: "read" }, "the called CI needs no more than the caller grants");
});

Deno.test("release: npm packages from deno task npm:build with provenance; the Homebrew tap from the release's formula", () => {
  const npm = release.jobs.npm;
  assertEquals(npm.permissions, { contents: "read", "id-token": "write" });
  const nscripts = jobScripts(npm).join("\n");
  assert(/^deno task npm:build --binaries bin --out npm$/m.test(nscripts), "one task builds every package");
  assert(/unzip -q "\$archive" mind-hooks\.exe -d "bin\/\$target"/.test(nscripts), "Windows binary from the zip");
  assert(/tar -xzf "\$archive" -C "bin\/\$target" mind-hooks/.test(nscripts), "others from the tar.gz");
  assert(
    /for dir in npm\/mind-hooks-\*\/ npm\/mind-hooks\/; do/.test(nscripts),
    "platform packages before the launcher",
  );
  assert(/npm publish --provenance --access public --tag "\$tag" "\.\/\$dir"/.test(nscripts), "npm provenance");
  assertEquals(npm.env?.NODE_AUTH_TOKEN, "${{ secrets.NPM_TOKEN }}");
  const brew = jobScripts(release.jobs.homebrew).join("\n");
  assert(/gh release download "\$TAG" .*--pattern mind-hooks\.rb/.test(brew), "the formula the release published");
  assert(/RELEASE\.homebrewTap/.test(brew), "the tap comes from scripts/release.ts");
  assert(/cp formula\/mind-hooks\.rb tap\/Formula\/mind-hooks\.rb/.test(brew), "written to Formula/");
});

Deno.test("every deno task the workflows call, and the required ones, exist in deno.json", () => {
  const called = new Set<string>(REQUIRED_TASKS);
  for (const wf of WORKFLOWS) {
    for (const m of read(wf).matchAll(/\bdeno\s+task\s+([A-Za-z0-9:_.-]+)/g)) {
      called.add(m[1]);
    }
  }
  const tasks = Object.keys(denoJson().tasks ?? {});
  const missing = [...called].filter((t) => !tasks.includes(t)).sort();
  assertEquals(missing, [], "tasks missing from deno.json");
  for (const t of ["npm:build", "homebrew:formula", "release:notes", "demo"]) assert(called.has(t), `${t} is used`);
});

Deno.test("compiles use the declared permission set (-P --no-prompt), never -A or --allow-*", () => {
  const compiles = [
    ...linesWith(ci, /\bdeno compile\b/),
    ...linesWith(release, /\bdeno compile\b/),
  ];
  // ci: the smoke test's binary, the bench job's binary and its hello-world baseline; release: one.
  assertEquals(compiles.length, 4, "three compiles in ci, one in release");
  for (const line of compiles) {
    const tokens = line.trim().split(/\s+/);
    assert(tokens.includes("-P") || tokens.includes("--permission-set"), `no -P: ${line}`);
    assert(tokens.includes("--no-prompt"), `no --no-prompt: ${line}`);
  }
  // Nowhere in either workflow: these would widen or bypass the declared set.
  for (const wf of WORKFLOWS) {
    for (const line of read(wf).split("\n")) {
      const tokens = line.trim().split(/\s+/);
      for (const t of tokens) {
        // --allow-* covers --allow-all and --allow-ffi, and any flag that would add to the set.
        assert(t !== "-A" && !/^--allow-/.test(t), `${wf}: ${t} in "${line.trim()}"`);
      }
    }
  }
});

Deno.test("compiles --include every module main.ts loads by a computed specifier (bundle and sources)", () => {
  // `deno compile` embeds only statically analysable modules; main.ts picks its module at run time.
  const env = (v?: string) => ({ get: (k: string) => k === "MIND_HOOKS_BUNDLE" ? v : undefined });
  const loaded = [...new Set([entryModule(env()), entryModule(env("off"))])].map((m) => m.replace(/^\.\//, "")).sort();
  assertEquals(loaded, ["src/cli/main.ts", "src/generated/dispatch_bundle.js"]);
  const mainText = read("main.ts");
  for (const m of loaded) assert(mainText.includes(`"./${m}"`), `main.ts names ${m}`);
  const ofMain = /\bdeno compile\b.*\smain\.ts\s*$/;
  const compiles = [...linesWith(ci, ofMain), ...linesWith(release, ofMain)];
  assertEquals(compiles.length, 3, "two compiles of main.ts in ci (smoke test, bench), one in release");
  for (const line of compiles) {
    const tokens = line.trim().split(/\s+/);
    const included = tokens.flatMap((t, i) => t === "--include" ? [tokens[i + 1]] : []).sort();
    assertEquals(included, loaded, `includes of: ${line.trim()}`);
  }
});

Deno.test({
  name: "a compile with the workflows' flags embeds both modules main.ts may load (and one without them does not)",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // denort cannot be downloaded here: any executable stands in for it, and the module payload deno compile
    // appends is what a compiled binary loads its modules from.
    const dir = await Deno.makeTempDir({ prefix: "mind-compile-includes-" });
    try {
      await Deno.copyFile("/bin/true", `${dir}/base`);
      const tokens = linesWith(ci, /\bdeno compile\b.*\smain\.ts\s*$/)[0].trim().split(/\s+/);
      const includes = tokens.flatMap((t, i) => t === "--include" ? ["--include", tokens[i + 1]] : []);
      const compile = async (flags: string[], out: string) => {
        const r = await new Deno.Command(Deno.execPath(), {
          args: ["compile", "-q", "-P", "--no-prompt", "--no-check", ...flags, "-o", out, "main.ts"],
          cwd: decodeURIComponent(ROOT.pathname),
          env: { DENORT_BIN: `${dir}/base` },
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert(r.success, new TextDecoder().decode(r.stderr));
        return new TextDecoder("latin1").decode(await Deno.readFile(out));
      };
      // A line of each module that no other module holds.
      const markers = [
        read("src/generated/dispatch_bundle.js").split("\n", 1)[0],
        "// The sandbox Worker's main module is this module",
      ];
      assert(read("src/cli/main.ts").includes(markers[1]), "the marker is in src/cli/main.ts");
      const withFlags = await compile(includes, `${dir}/with`);
      assertEquals(markers.map((m) => withFlags.includes(m)), [true, true], "embedded with the flags");
      const without = await compile([], `${dir}/without`);
      assertEquals(markers.map((m) => without.includes(m)), [false, false], "the control: not without them");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("ci: the bench job runs deno task bench from source and on the compiled binary against a compiled hello", () => {
  const job = ci.jobs.bench;
  assertEquals(job["runs-on"], "ubuntu-latest");
  const lines = jobScripts(job).flatMap((s) => s.split("\n")).map((l) => l.trim());
  const compileMain = lines.findIndex((l) => /^deno compile .* -o "\$RUNNER_TEMP\/mind-hooks" main\.ts$/.test(l));
  const compileHello = lines.findIndex((l) =>
    /^deno compile -P --no-prompt -o "\$RUNNER_TEMP\/hello" bench\/hello\.ts$/.test(l)
  );
  const fromSource = lines.findIndex((l) => /^deno task bench --install-host$/.test(l));
  const compiled = lines.findIndex((l) =>
    l === 'deno task bench --bin "$RUNNER_TEMP/mind-hooks" --hello-bin "$RUNNER_TEMP/hello"'
  );
  assert(compileMain >= 0 && compileHello >= 0 && fromSource >= 0 && compiled > compileMain, lines.join("\n"));
  // The options the job passes are the bench's own.
  const bench = read("bench/run.ts");
  for (const o of ["bin", "hello-bin", "install-host"]) {
    assert(bench.includes(`"${o}": { type:`) || bench.includes(`${o}: { type:`), o);
  }
});

Deno.test("ci: the dispatch bundle is checked against its sources before the tests", () => {
  const steps = stepsOf(ci.jobs.test);
  const check = steps.findIndex((s) => /^deno task bundle:gen --check$/m.test(s.run ?? ""));
  const test = steps.findIndex((s) => /^deno task test$/m.test(s.run ?? ""));
  assert(check >= 0 && check < test, "bundle:gen --check runs before the tests");
});

Deno.test("deno.json declares the default permission set the compiles load, without ffi", () => {
  const set = denoJson().permissions?.default;
  assert(set && typeof set === "object", "deno.json permissions.default");
  assert(!set.all && !set.ffi, "permission set grants all or ffi");
});

Deno.test("release version comes from deno.json and must equal the tag", () => {
  const job = release.jobs.version;
  const step = stepsOf(job).find((s) => s.name === "Read version from deno.json");
  assert(step?.run, "version step");
  assert(/Deno\.readTextFileSync\("deno\.json"\)\)\.version/.test(step.run), "reads deno.json .version");
  assert(/"\$TAG" != "v\$version"/.test(step.run), "compares the tag with v + version");
  assert(/exit 1/.test(step.run), "fails on mismatch");
  assertEquals(step.env?.TAG, "${{ github.ref_name }}");
  // Downstream jobs take the version from that step, never from the tag or a literal.
  for (const id of ["build", "publish", "npm", "homebrew"]) {
    assertEquals(release.jobs[id].env?.VERSION, "${{ needs.version.outputs.version }}", id);
    assert(needsOf(release.jobs[id]).includes("version"), `${id} needs version`);
  }
  const text = read(WORKFLOWS[1]);
  const version = denoJson().version as string;
  assert(typeof version === "string" && version.length > 0, "deno.json has a version");
  assert(!text.includes(version), `release.yml hard-codes ${version}`);
  assert(!/GITHUB_REF_NAME#v|ref_name#v|\$\{TAG#v\}/.test(text), "version derived from the tag");
  // Nor the repository: it is github.repository here, release.repository for everything derived.
  assert(!text.includes(denoJson().release.repository), "release.yml hard-codes the repository");
});

Deno.test({
  name: "the version check accepts only v + deno.json version",
  // The release job runs on Linux; Windows has no bash we can rely on outside the runner's shell.
  ignore: Deno.build.os === "windows",
  async fn() {
    // Runs the workflow's own script with bash against a scratch deno.json.
    const step = stepsOf(release.jobs.version).find((s) => s.name === "Read version from deno.json")!;
    const dir = await Deno.makeTempDir();
    // The script calls `deno`: make it the one running these tests.
    const denoDir = Deno.execPath().replace(/[\\/][^\\/]+$/, "");
    const PATH = `${denoDir}:${Deno.env.get("PATH") ?? ""}`;
    try {
      await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ version: "1.2.3" }));
      const run = async (tag: string) => {
        const out = await new Deno.Command("bash", {
          args: ["-c", step.run!],
          cwd: dir,
          env: { TAG: tag, GITHUB_OUTPUT: `${dir}/out`, PATH },
          stdout: "piped",
          stderr: "piped",
        }).output();
        return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
      };
      const ok = await run("v1.2.3");
      assertEquals(ok.code, 0, ok.stdout);
      assertEquals(await Deno.readTextFile(`${dir}/out`), "version=1.2.3\n");
      for (const bad of ["v1.2.4", "1.2.3", "v1.2.3-rc.1", "vv1.2.3"]) {
        const r = await run(bad);
        assertEquals(r.code, 1, `tag ${bad} accepted`);
        assert(r.stdout.includes("::error::"), `no error annotation for ${bad}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
