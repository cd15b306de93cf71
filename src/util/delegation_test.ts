/** The one recogniser of mind-hooks' own entries (src/util/delegation.ts): every form install writes (issue 36). */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { isDelegation } from "./delegation.ts";

Deno.test("unit: the bare, the absolute and the fail-closed wrapped forms are mind-hooks' own entries", () => {
  const forms = [
    "mind-hooks dispatch --protocol claude",
    "/usr/local/bin/mind-hooks dispatch --protocol claude",
    "'/opt/my tools/mind-hooks' dispatch --protocol=claude",
    `sh -c 'if [ -x "/opt/u/.local/bin/mind-hooks" ]; then exec "/opt/u/.local/bin/mind-hooks" dispatch --protocol claude; fi; echo "mind-hooks not found" >&2; exit 2'`,
    "deno run -A /src/main.ts dispatch --home /h --protocol claude",
  ];
  for (const f of forms) {
    assertEquals(isDelegation(f, "claude"), true, f);
    assertEquals(isDelegation(f), true, f);
    assertEquals(isDelegation(f, "codex"), false, f);
  }
});

Deno.test("unit: a hook that only mentions dispatch, or runs the mind protocol, is not an entry", () => {
  for (
    const c of [
      "python3 .claude/check.py",
      "mind-hooks dispatch --protocol mind",
      "mind-hooks dispatch --protocol claudex",
      "echo redispatch --protocol claude",
      42,
    ]
  ) {
    assertEquals(isDelegation(c, "claude"), false, String(c));
  }
  assertEquals(isDelegation("mind-hooks dispatch --protocol mind"), false);
});
