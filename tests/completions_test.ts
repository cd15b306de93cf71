/**
 * `mind-hooks completions bash|zsh|fish`: the bash script is sourced in a real bash and its completion function
 * called the way bash's `complete` calls it (COMP_WORDS/COMP_CWORD); the fish script is asked for completions
 * with `complete -C`; the zsh script is parsed and registered with compinit. Every command of `--help` is in
 * the table, and a wrong shell is a one-line usage error.
 */
import { assert, assertEquals } from "./helpers/assert.ts";
import { runCli } from "./helpers/cli.ts";
import { COMPLETION_SPEC } from "../src/cli/completions.ts";

async function which(cmd: string): Promise<boolean> {
  try {
    return (await new Deno.Command("sh", { args: ["-c", `command -v ${cmd}`], stdout: "null" }).output()).success;
  } catch {
    return false;
  }
}

async function script(shell: string): Promise<string> {
  const r = await runCli(["completions", shell]);
  assertEquals([r.code, r.stderr], [0, ""]);
  return r.stdout;
}

async function shellOut(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, stderr);
  return new TextDecoder().decode(out.stdout);
}

Deno.test({
  name: "completions bash: sourced in bash, the function completes commands, sub-commands, options and values",
  ignore: Deno.build.os === "windows",
  async fn() {
    if (!await which("bash")) return console.log("completions: no bash here; skipped");
    const dir = await Deno.makeTempDir({ prefix: "mind-hooks-compl-" });
    try {
      await Deno.writeTextFile(`${dir}/mind-hooks.bash`, await script("bash"));
      await Deno.mkdir(`${dir}/cwd/some-dir`, { recursive: true });
      await Deno.writeTextFile(`${dir}/cwd/some-file`, "");
      /** What `_mind_hooks` offers for the words typed so far (the last one is being completed). */
      const complete = async (...words: string[]) =>
        (await shellOut("bash", [
          "-c",
          `cd ${dir}/cwd && source ${dir}/mind-hooks.bash && COMP_WORDS=("$@") && COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)) && ` +
          `_mind_hooks && printf '%s\\n' "\${COMPREPLY[@]}"`,
          "_",
          "mind-hooks",
          ...words,
        ])).split("\n").filter((l) => l !== "");
      assertEquals(await complete("in"), ["install"]);
      assertEquals(await complete("s"), ["serve", "session-end", "schema"]);
      assertEquals(await complete("install", ""), ["claude", "codex", "gemini", "copilot"]);
      assertEquals(await complete("install", "claude", "--u"), ["--user", "--uninstall"]);
      assertEquals(await complete("completions", ""), ["bash", "zsh", "fish"]);
      assertEquals(await complete("project", "un"), ["untrust"]);
      assertEquals(await complete("schema", "input", "PreT"), ["PreToolUse"]);
      assertEquals(await complete("dispatch", "--protocol", "c"), ["claude", "codex", "copilot"]);
      assertEquals(await complete("dispatch", "--protocol", "g"), ["gemini"]);
      assertEquals(await complete("list", "--home", "so"), ["some-dir"]);
      assertEquals(await complete("validate", "some-f"), ["some-file"]);
      assertEquals(await complete("list", "--j"), ["--json"]);
      // The registration itself.
      const reg = await shellOut("bash", ["-c", `source ${dir}/mind-hooks.bash && complete -p mind-hooks`]);
      assertEquals(reg.trim(), "complete -o bashdefault -o default -F _mind_hooks mind-hooks");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "completions fish and zsh: fish completes through complete -C; zsh parses and registers _mind-hooks",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "mind-hooks-compl-" });
    try {
      if (await which("fish")) {
        await Deno.writeTextFile(`${dir}/mind-hooks.fish`, await script("fish"));
        const fish = async (line: string) =>
          (await shellOut("fish", ["--no-config", "-c", `source ${dir}/mind-hooks.fish; complete -C '${line}'`]))
            .split("\n").filter((l) => l !== "").map((l) => l.split("\t")[0]);
        assertEquals(await fish("mind-hooks ins"), ["install"]);
        assertEquals(await fish("mind-hooks install "), ["claude", "codex", "copilot", "gemini"]);
        assertEquals(await fish("mind-hooks schema output Sub"), ["SubagentStart", "SubagentStop"]);
        assert((await fish("mind-hooks install claude --")).includes("--force"), "install options");
      } else console.log("completions: no fish here; the fish case skipped");
      if (await which("zsh")) {
        await Deno.writeTextFile(`${dir}/_mind-hooks`, await script("zsh"));
        await shellOut("zsh", ["-n", `${dir}/_mind-hooks`]);
        const registered = await shellOut("zsh", [
          "-f",
          "-c",
          `autoload -U compinit && compinit -u -D && source ${dir}/_mind-hooks && print -r -- $_comps[mind-hooks]`,
        ]);
        assertEquals(registered.trim(), "_mind-hooks");
      } else console.log("completions: no zsh here; the zsh case skipped");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("completions: every command of --help is completed; a wrong shell is a usage error", async () => {
  const help = (await runCli(["--help"])).stdout;
  const commands = [...help.matchAll(/^ {2}mind-hooks ([a-z-]+)/gm)].map((m) => m[1]).filter((c) => c !== "--version");
  const listed = new Set(commands.flatMap((c) => c === "untrust" ? ["untrust", "enable", "disable"] : [c]));
  assertEquals([...listed].sort(), Object.keys(COMPLETION_SPEC).sort());
  const cases: [string[], string][] = [
    [[], "mind-hooks: completions needs a shell: bash, zsh or fish\nusage: mind-hooks completions bash|zsh|fish\n"],
    [["tcsh"], 'mind-hooks: completions: unknown shell "tcsh" (bash, zsh or fish)\n'],
    [["bash", "zsh"], "mind-hooks: completions takes one shell (got 2 arguments)\n"],
  ];
  for (const [bad, stderr] of cases) {
    const r = await runCli(["completions", ...bad]);
    assertEquals([r.code, r.stdout, r.stderr], [1, "", stderr]);
  }
});
