/**
 * Checks the GitHub workflows against what the project promises about them: the CI matrix and its
 * steps, the five release targets, that every `deno task` they call exists in deno.json, that the
 * binary is always compiled with the permission set declared in deno.json (`-P --no-prompt`, never
 * `-A`/`--allow-*`), and that the release version comes from deno.json only.
 *
 * The workflows cannot run here (no GitHub, no network for `denort`), so this is what keeps them
 * from drifting away from deno.json between releases.
 */
import { parse as parseYaml } from "yaml";
import { parse as parseJsonc } from "jsonc-parser";

const ROOT = new URL("../", import.meta.url);
const read = (rel: string) => Deno.readTextFileSync(new URL(rel, ROOT));

// deno-lint-ignore no-explicit-any
type Any = any;

type Step = {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
};
type Job = {
  "runs-on": string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown> };
  env?: Record<string, string>;
  steps: Step[];
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

const steps = (wf: Workflow): Step[] => Object.values(wf.jobs).flatMap((j) => j.steps);
/** Every shell script of a workflow, with `\`-continued lines joined into one. */
const scripts = (wf: Workflow): string[] =>
  steps(wf).flatMap((s) => (s.run ? [s.run.replace(/\\\r?\n\s*/g, " ")] : []));
/** The shell lines (after joining continuations) of all scripts that contain `needle`. */
const linesWith = (wf: Workflow, needle: RegExp): string[] =>
  scripts(wf).flatMap((s) => s.split("\n")).filter((l) => needle.test(l) && !/^\s*#/.test(l));

function denoJson(): Any {
  return parseJsonc(read("deno.json"));
}

function assert(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}
function assertEquals(actual: unknown, expected: unknown, msg = ""): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${msg}\n  actual:   ${a}\n  expected: ${e}`);
}

/** Tasks deno.json must define whether or not a workflow calls them (the local CI entry points). */
const REQUIRED_TASKS = ["test", "ci"];

const RELEASE_TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

Deno.test("workflows parse, and every job checks out and installs Deno 2.9.x first", () => {
  for (const wf of [ci, release]) {
    for (const [id, job] of Object.entries(wf.jobs)) {
      const setup = job.steps.filter((s) => s.uses?.startsWith("denoland/setup-deno@"));
      for (const s of setup) {
        assertEquals(s.with?.["deno-version"], "v2.9.x", `${wf.name}/${id}`);
      }
      const runsDeno = job.steps.some((s) => /\bdeno\s/.test(s.run ?? ""));
      if (!runsDeno) continue;
      const checkout = job.steps.findIndex((s) => s.uses?.startsWith("actions/checkout@"));
      const setupAt = job.steps.findIndex((s) => s.uses?.startsWith("denoland/setup-deno@"));
      const firstDeno = job.steps.findIndex((s) => /\bdeno\s/.test(s.run ?? ""));
      assert(
        checkout >= 0 && checkout < firstDeno,
        `${wf.name}/${id}: checkout before deno`,
      );
      assert(
        setupAt >= 0 && setupAt < firstDeno,
        `${wf.name}/${id}: setup-deno before deno`,
      );
    }
  }
});

Deno.test("third-party actions are pinned to a release, not a branch", () => {
  for (const s of [...steps(ci), ...steps(release)]) {
    if (!s.uses) continue;
    const ref = s.uses.split("@")[1] ?? "";
    assert(
      /^(v\d+(\.\d+)*|[0-9a-f]{40})$/.test(ref),
      `unpinned action: ${s.uses}`,
    );
  }
});

Deno.test("ci: push and pull_request on ubuntu, macos and windows", () => {
  assert("push" in ci.on && "pull_request" in ci.on, "ci triggers");
  const job = ci.jobs.test;
  assertEquals(job["runs-on"], "${{ matrix.os }}");
  assertEquals(
    [...(job.strategy?.matrix?.os as string[])].sort(),
    ["macos-latest", "ubuntu-latest", "windows-latest"],
  );
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
      [
        "dispatch",
        /"\$bin" dispatch --home "\$home" < fixtures\/events\/pre_tool_use\.json/,
      ],
      ["empty home", /mkdir -p "\$home"/],
    ] as const
  ) assert(re.test(all), `ci.yml lacks the ${what} step`);
  // The fmt check must see LF files on Windows too: autocrlf is turned off before checkout.
  const job = ci.jobs.test.steps;
  const lf = job.findIndex((s) => /core\.autocrlf false/.test(s.run ?? ""));
  const checkout = job.findIndex((s) => s.uses?.startsWith("actions/checkout@"));
  assert(lf >= 0 && lf < checkout, "autocrlf disabled before checkout");
});

Deno.test("files the ci workflow runs exist", () => {
  const missing = ["main.ts", "mod.ts", "fixtures/events/pre_tool_use.json"]
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

Deno.test("release: tag-triggered, all five targets, archives, SHA256SUMS, GitHub release", () => {
  assertEquals(release.on?.push?.tags, ["v*"]);
  assertEquals(Object.keys(release.on), ["push"], "release runs on tags only");
  const build = release.jobs.build;
  assertEquals(
    [...(build.strategy?.matrix?.target as string[])].sort(),
    [...RELEASE_TARGETS].sort(),
  );
  assertEquals(build.env?.TARGET, "${{ matrix.target }}");
  const compile = linesWith(release, /\bdeno compile\b/);
  assertEquals(compile.length, 1, "one compile command");
  assert(/--target "\$TARGET"/.test(compile[0]), "compile uses --target");
  assert(/-o "dist\/\$name\$exe"/.test(compile[0]), "compile output name");
  const all = scripts(release).join("\n");
  assert(
    all.includes('name="mind-hooks-$VERSION-$TARGET"'),
    "binary name mind-hooks-<version>-<target>",
  );
  assert(/\*windows\*\) exe="\.exe"/.test(all), ".exe on Windows");
  assert(/zip -9 "\$NAME\.zip"/.test(all), "zip for Windows");
  assert(/tar -czf "\$NAME\.tar\.gz"/.test(all), "tar.gz elsewhere");
  assert(
    /sha256sum mind-hooks-"\$VERSION"-\* > SHA256SUMS/.test(all),
    "SHA256SUMS",
  );
  assert(
    /gh release create "\$TAG" dist\/\*/.test(all),
    "assets attached to the release",
  );
  assertEquals(release.jobs.publish.permissions, { contents: "write" });
  assertEquals(
    release.permissions,
    { contents: "read" },
    "write only where publishing",
  );
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
});

Deno.test("compiles use the declared permission set (-P --no-prompt), never -A or --allow-*", () => {
  const compiles = [
    ...linesWith(ci, /\bdeno compile\b/),
    ...linesWith(release, /\bdeno compile\b/),
  ];
  assertEquals(compiles.length, 2, "one compile in ci, one in release");
  for (const line of compiles) {
    const tokens = line.trim().split(/\s+/);
    assert(
      tokens.includes("-P") || tokens.includes("--permission-set"),
      `no -P: ${line}`,
    );
    assert(tokens.includes("--no-prompt"), `no --no-prompt: ${line}`);
  }
  // Nowhere in either workflow: these would widen or bypass the declared set.
  for (const wf of WORKFLOWS) {
    for (const line of read(wf).split("\n")) {
      const tokens = line.trim().split(/\s+/);
      for (const t of tokens) {
        // --allow-* covers --allow-all and --allow-ffi, and any flag that would add to the set.
        assert(
          t !== "-A" && !/^--allow-/.test(t),
          `${wf}: ${t} in "${line.trim()}"`,
        );
      }
    }
  }
});

Deno.test("deno.json declares the default permission set the compiles load, without ffi", () => {
  const set = denoJson().permissions?.default;
  assert(set && typeof set === "object", "deno.json permissions.default");
  assert(!set.all && !set.ffi, "permission set grants all or ffi");
});

Deno.test("release version comes from deno.json and must equal the tag", () => {
  const job = release.jobs.version;
  const step = job.steps.find((s) => s.name === "Read version from deno.json");
  assert(step?.run, "version step");
  assert(
    /Deno\.readTextFileSync\("deno\.json"\)\)\.version/.test(step.run),
    "reads deno.json .version",
  );
  assert(
    /"\$TAG" != "v\$version"/.test(step.run),
    "compares the tag with v + version",
  );
  assert(/exit 1/.test(step.run), "fails on mismatch");
  assertEquals((step as Any).env?.TAG, "${{ github.ref_name }}");
  // Downstream jobs take the version from that step, never from the tag or a literal.
  for (const id of ["build", "publish"]) {
    assertEquals(
      release.jobs[id].env?.VERSION,
      "${{ needs.version.outputs.version }}",
      id,
    );
    const needs = [release.jobs[id].needs].flat();
    assert(needs.includes("version"), `${id} needs version`);
  }
  const text = read(WORKFLOWS[1]);
  const version = denoJson().version as string;
  assert(
    typeof version === "string" && version.length > 0,
    "deno.json has a version",
  );
  assert(!text.includes(version), `release.yml hard-codes ${version}`);
  assert(
    !/GITHUB_REF_NAME#v|ref_name#v|\$\{TAG#v\}/.test(text),
    "version derived from the tag",
  );
});

Deno.test({
  name: "the version check accepts only v + deno.json version",
  // The release job runs on Linux; Windows has no bash we can rely on outside the runner's shell.
  ignore: Deno.build.os === "windows",
  async fn() {
    // Runs the workflow's own script with bash against a scratch deno.json.
    const step = release.jobs.version.steps.find((s) => s.name === "Read version from deno.json")!;
    const dir = await Deno.makeTempDir();
    // The script calls `deno`: make it the one running these tests.
    const denoDir = Deno.execPath().replace(/[\\/][^\\/]+$/, "");
    const PATH = `${denoDir}:${Deno.env.get("PATH") ?? ""}`;
    try {
      await Deno.writeTextFile(
        `${dir}/deno.json`,
        JSON.stringify({ version: "1.2.3" }),
      );
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
        assert(
          r.stdout.includes("::error::"),
          `no error annotation for ${bad}`,
        );
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
