/**
 * A small, strict XML reader for the tests (`mind-hooks test --junit`): it accepts only well-formed
 * XML 1.0 of the kind a report holds — a declaration, elements, attributes, character data, the five
 * predefined entities and numeric references — and throws, naming the offset, on anything else
 * (a tag left open, a mismatched end tag, an unescaped `<` or `&`, a duplicate attribute).
 * @module
 */

/** One element: its name, attributes and child elements (text joined). */
export type XmlElement = { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string };

const NAME = /[A-Za-z_:][\w:.-]*/y;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  return raw.replace(/&([^;]*);|&|</g, (m, ent: string | undefined) => {
    if (m === "<" || ent === undefined) throw new Error(`XML: bare ${m} at ${at}`);
    if (Object.hasOwn(ENTITIES, ent)) return ENTITIES[ent];
    const num = /^#(x[0-9a-fA-F]+|\d+)$/.exec(ent);
    if (!num) throw new Error(`XML: unknown entity &${ent}; at ${at}`);
    return String.fromCodePoint(parseInt(num[1].replace(/^x/, ""), num[1].startsWith("x") ? 16 : 10));
  });
}

/** Parses `text` into its root element; throws on anything not well-formed. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const name = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(text);
    if (!m) throw new Error(`XML: a name expected at ${i}`);
    i += m[0].length;
    return m[0];
  };
  if (text.startsWith("<?xml")) {
    const end = text.indexOf("?>");
    if (end < 0) throw new Error("XML: unterminated declaration");
    i = end + 2;
  }
  skipSpace();
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  while (i < text.length) {
    if (text.startsWith("</", i)) {
      i += 2;
      const n = name();
      skipSpace();
      if (text[i] !== ">") throw new Error(`XML: > expected at ${i}`);
      i++;
      const open = stack.pop();
      if (!open || open.name !== n) throw new Error(`XML: </${n}> closes ${open ? `<${open.name}>` : "nothing"}`);
      if (stack.length === 0) root = open;
    } else if (text[i] === "<") {
      if (root !== null) throw new Error(`XML: content after the root element at ${i}`);
      i++;
      const el: XmlElement = { name: name(), attrs: {}, children: [], text: "" };
      for (;;) {
        skipSpace();
        if (text.startsWith("/>", i) || text[i] === ">") break;
        const a = name();
        skipSpace();
        if (text[i] !== "=") throw new Error(`XML: = expected at ${i}`);
        i++;
        skipSpace();
        const q = text[i];
        if (q !== '"' && q !== "'") throw new Error(`XML: a quoted value expected at ${i}`);
        const end = text.indexOf(q, i + 1);
        if (end < 0) throw new Error(`XML: unterminated attribute at ${i}`);
        if (Object.hasOwn(el.attrs, a)) throw new Error(`XML: duplicate attribute ${a} at ${i}`);
        el.attrs[a] = decode(text.slice(i + 1, end), i);
        i = end + 1;
      }
      stack.at(-1)?.children.push(el);
      if (stack.length === 0 && root === null && text.startsWith("/>", i)) root = el;
      if (text.startsWith("/>", i)) i += 2;
      else {
        i++;
        stack.push(el);
      }
    } else {
      const end = text.indexOf("<", i);
      const raw = text.slice(i, end < 0 ? text.length : end);
      if (stack.length === 0) {
        if (raw.trim() !== "") throw new Error(`XML: text outside the root element at ${i}`);
      } else stack.at(-1)!.text += decode(raw, i);
      i += raw.length;
    }
  }
  if (stack.length > 0) throw new Error(`XML: <${stack.at(-1)!.name}> is never closed`);
  if (root === null) throw new Error("XML: no root element");
  return root;
}
