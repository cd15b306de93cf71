/**
 * Small helpers for parsed JSON/TOML values whose keys a stranger chose.
 * @module
 */

/** A JSON object as read from the wire. */
export type JsonObject = Record<string, unknown>;

/** A path to a value inside a parsed JSON or TOML document: object keys and array indexes. */
export type ValuePath = (string | number)[];

/** True for a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** What each jsonc-parser error code means, said for people (the codes are the parser's own names). */
const JSONC_SENTENCES: Readonly<Record<string, string>> = {
  InvalidSymbol: "unexpected text",
  InvalidNumberFormat: "this is not a valid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected a colon after the property name",
  CommaExpected: "expected a comma between the values",
  CloseBraceExpected: "expected } to close the object",
  CloseBracketExpected: "expected ] to close the list",
  EndOfFileExpected: "unexpected text after the end of the document",
  InvalidCommentToken: "this comment is not valid",
  UnexpectedEndOfComment: "a /* comment is not closed",
  UnexpectedEndOfString: 'a string is not closed (missing ")',
  UnexpectedEndOfNumber: "a number ends too early",
  InvalidUnicode: "a \\u escape needs four hex digits",
  InvalidEscapeCharacter: "this escape is not valid in a string",
  InvalidCharacter: "a control character in a string must be escaped",
};

/**
 * A jsonc-parser error (its code's name, as `printParseErrorCode` gives it) as a sentence; the
 * text it stopped at is quoted when that is the problem (`unexpected text "'Stop'"`).
 */
export function jsoncErrorSentence(code: string, at = ""): string {
  const sentence = Object.hasOwn(JSONC_SENTENCES, code) ? JSONC_SENTENCES[code] : "the JSON is not valid here";
  if (code !== "InvalidSymbol" || at === "") return sentence;
  const quotes = at.startsWith("'") ? " (JSON strings take double quotes)" : "";
  // JSON.stringify leaves U+2028/U+2029 as they are: escaped too, so the warning stays one line.
  const quoted = JSON.stringify(at.slice(0, 20)).replace(
    /[\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16)}`,
  );
  return `${sentence} ${quoted}${quotes}`;
}
