/**
 * The http handler type (SPEC §2.2 r4): which URLs it takes, the managed allow-list, header
 * interpolation of `allowedEnvVars` only, and its normalized (hashed) form — headers as written.
 */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { normalizeHandler } from "../handlers.ts";
import type { Warning } from "../warnings.ts";
import { interpolateHeaders, isLoopback, urlAllowed, urlProblem, urlReach } from "./http.ts";
import { HANDLER_MODULES } from "./registry.ts";

Deno.test("http: https anywhere, http to a loopback address only, no credentials in the URL", () => {
  assertEquals(
    [
      "https://hooks.example/x",
      "http://127.0.0.1:8080/h",
      "http://localhost/h",
      "http://[::1]:9/h",
      "http://hooks.example/x",
      "http://127.0.0.1.evil.example/",
      "ftp://hooks.example/",
      "https://u:p@hooks.example/",
      "not a url",
    ].map((u) => urlProblem(u) === null),
    [true, true, true, true, false, false, false, false, false],
  );
  assertEquals([isLoopback("127.9.9.9"), isLoopback("[::1]"), isLoopback("10.0.0.1")], [true, true, false]);
  assertEquals([urlReach("https://h.example/x"), urlReach("http://127.0.0.1:8080/")], [
    "h.example:443",
    "127.0.0.1:8080",
  ]);
});

Deno.test("http: the managed allow-list matches whole URLs, * as any run of characters", () => {
  const allowed = ["https://hooks.corp.example/*"];
  assertEquals(urlAllowed("https://hooks.corp.example/guard", allowed), true);
  assertEquals(urlAllowed("https://hooks.corp.example.evil.io/guard", allowed), false);
  assertEquals(urlAllowed("https://evil.io/?https://hooks.corp.example/", allowed), false);
  assertEquals(urlAllowed("https://x.example/", []), false);
});

Deno.test("http: only allowedEnvVars are interpolated into headers; others stay literal", () => {
  const env = (n: string) => ({ TOKEN: "s3cret", OTHER: "leak" } as Record<string, string>)[n];
  assertEquals(
    interpolateHeaders(
      { Authorization: "Bearer $TOKEN", X: "${TOKEN}-${OTHER}-$OTHER", Y: "$MISSING" },
      ["TOKEN", "MISSING"],
      env,
    ),
    { Authorization: "Bearer s3cret", X: "s3cret-${OTHER}-$OTHER", Y: "" },
  );
});

Deno.test("http: normalized with headers as written, 30 s by default; a bad URL or header skips it", () => {
  const norm = (raw: Record<string, unknown>) => {
    const warnings: Warning[] = [];
    return { h: normalizeHandler("PreToolUse", raw, "w", [], "f", warnings), codes: warnings.map((w) => w.code) };
  };
  assertEquals(
    norm({ type: "http", url: "https://h.example/x", headers: { A: "Bearer $T" }, allowedEnvVars: ["T"] }),
    {
      h: {
        type: "http",
        url: "https://h.example/x",
        headers: { A: "Bearer $T" },
        allowedEnvVars: ["T"],
        timeout: 30,
      },
      codes: [],
    },
  );
  assertEquals(norm({ type: "http", url: "http://h.example/x" }), { h: null, codes: ["W_BAD_FIELD"] });
  assertEquals(norm({ type: "http", url: "https://h.example", headers: { A: 1 } }), {
    h: null,
    codes: ["W_BAD_FIELD"],
  });
  assertEquals(norm({ type: "http", url: "https://h.example", allowedEnvVars: ["a-b"] }), {
    h: null,
    codes: ["W_BAD_FIELD"],
  });
  const h = norm({ type: "http", url: "https://h.example:8443/x" }).h!;
  const m = HANDLER_MODULES.http;
  assertEquals(h.type === "http" ? [m.reviewWarnings(h), m.netReach(h, null), m.summary(h)] : null, [
    ["sends each event to h.example:8443"],
    ["h.example:8443"],
    "http POST https://h.example:8443/x",
  ]);
});
