/**
 * An unpinnable hook in `review` (SPEC §3.5 r3), in a real terminal (tmux): its details mark it
 * (`⚠ cannot tell which files this runs: …`), and the confirmation says so before the user answers;
 * `y` records the construct beside the hash. Without tmux these tests are skipped with a printed reason.
 */
import { assert, assertEquals, assertMatch } from "./helpers/assert.ts";
import { cli, makeWorld, read, Tmux, tmuxAvailable } from "../fixtures/review/harness.ts";

const HAVE_TMUX = await tmuxAvailable();
if (!HAVE_TMUX) console.log("review_unpinnable_tmux_test: tmux is not installed; skipping");

const MARK = "⚠ cannot tell which files this runs: $(printf check)";

Deno.test({
  name: "review (tmux): an unpinnable hook is marked, and the confirmation says so before y records it",
  ignore: !HAVE_TMUX,
  async fn() {
    const w = await makeWorld();
    await Deno.writeTextFile(`${w.repo}/.mind/check.sh`, "cat >/dev/null\n");
    await Deno.writeTextFile(
      `${w.repo}/.mind/hooks.json`,
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "sh .mind/$(printf check).sh" }] }] } }),
    );
    assertEquals((await cli(["project", "trust", w.repo, ...w.opts])).code, 0);
    const t = await Tmux.start(w, ["review", ...w.opts]);
    try {
      const details = await t.waitFor((x) => x.includes("sh .mind/$(printf check).sh"), "the review screen");
      assert(details.includes(MARK), details);
      assert(!details.includes("no file (its command runs none inside the root)"), details);
      await t.keys("t");
      const s = await t.waitFor((x) => x.includes("Trust 1 hook?"), "the confirmation");
      assert(s.includes(`Pins    ${MARK}`), s);
      assert(!s.includes("no file (its command runs none inside the root)"), s);
      await t.keys("y");
      await t.waitFor((x) => x.includes("trusted .mind/hooks.json:Stop:0:0"), "the trust message");
      assertMatch(await read(`${w.home}/config.toml`), /unpinnable = "\$\(printf check\)"/);
      await t.keys("q");
      await t.waitFor((x) => x.includes("EXIT=0"), "the exit");
    } finally {
      await t.kill();
      await w.cleanup();
    }
  },
});
