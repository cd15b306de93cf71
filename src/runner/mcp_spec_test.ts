/**
 * Reading one `[mcp_servers.<name>]` entry (src/runner/mcp_spec.ts, SPEC §2.7): secrets a user-side
 * definition names come from the environment; a malformed entry is a failure with its sentence.
 */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { serverSpec } from "./mcp_spec.ts";

Deno.test("serverSpec: a user-side definition takes env_http_headers and env_vars from the environment", () => {
  Deno.env.set("MIND_TEST_ORG", "org-7");
  Deno.env.set("MIND_TEST_CACHE", "/c");
  try {
    assertEquals(
      serverSpec("web", {
        url: "http://127.0.0.1:9/mcp",
        env_http_headers: { "X-Org": "MIND_TEST_ORG", "X-No": "UNSET_X" },
      }),
      {
        ok: true,
        value: { kind: "http", url: "http://127.0.0.1:9/mcp", headers: { "X-Org": "org-7" }, toolTimeoutSec: null },
      },
    );
    const stdio = serverSpec("local", { command: "srv", env: { A: "1" }, env_vars: ["MIND_TEST_CACHE", "UNSET_X"] });
    assertEquals(stdio.ok && "env" in stdio.value ? stdio.value.env : null, { A: "1", MIND_TEST_CACHE: "/c" });
    assertEquals(serverSpec("bad", { command: "srv", env_vars: "MIND_TEST_CACHE" }), {
      ok: false,
      error: "[mcp_servers.bad] env_vars must be a list of variable names",
    });
  } finally {
    Deno.env.delete("MIND_TEST_ORG");
    Deno.env.delete("MIND_TEST_CACHE");
  }
});
