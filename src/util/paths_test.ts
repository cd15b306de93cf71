/** `isInside` (src/util/paths.ts): a root and what lies below it, in POSIX and Windows forms. */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { isInside } from "./paths.ts";

Deno.test("isInside: a root and what lies below it, never a sibling sharing its prefix (POSIX and Windows forms)", () => {
  assertEquals(
    [["/a", "/a"], ["/a", "/a/b"], ["/a", "/ab"], ["/a/", "/a/b"], ["/", "/x"], ["C:\\a", "C:\\a\\b"], [
      "C:\\a",
      "C:\\ab",
    ]].map(([root, inner]) => isInside(root, inner)),
    [true, true, false, true, true, true, false],
  );
});
