/** `layerHost` (src/config/foreign_layout.ts): the host that runs a layer itself, a fact of the layout (issue 36). */
import { assertEquals } from "../../tests/helpers/assert.ts";
import { type ForeignLayer, layerHost, LAYOUT } from "./foreign_layout.ts";

Deno.test("unit: layerHost names the host that runs a layer itself, from the layout (not a string check)", () => {
  for (const host of Object.keys(LAYOUT) as ForeignLayer[]) {
    assertEquals(layerHost(LAYOUT[host].layer), host);
    assertEquals(layerHost(LAYOUT[host].userLayer), host);
  }
  assertEquals(layerHost("gemini-project"), "gemini");
  assertEquals(layerHost("copilot-user"), "copilot");
  assertEquals(layerHost("project"), null);
  assertEquals(layerHost("user"), null);
});
