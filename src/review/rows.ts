/**
 * The pieces a review screen is built of: styled text segments, rows of them, and the two ways the
 * details pane lays out text (a labelled field, wrapped under its label; a wrapped paragraph). Every
 * text from a config file is sanitised here before it is measured (SPEC §15).
 * @module
 */
import { fit, wrap } from "./text.ts";
import { sanitize } from "../util/terminal_text.ts";

/** SGR styles used on screen. */
export type Style = "bold" | "dim" | "reverse" | "red" | "green" | "yellow" | "cyan" | "magenta";

/** A run of text with styles. */
export type Segment = { text: string; styles?: Style[] };
/** One screen row. */
export type Row = Segment[];

/** The width of a field's label column. */
export const LABEL_WIDTH = 10;

/** A labelled field of the details pane, wrapped under its label. */
export function field(label: string, value: string, width: number, styles: Style[] = []): Row[] {
  const lines = wrap(sanitize(value), Math.max(10, width - LABEL_WIDTH));
  return lines.map((l, i) => [
    { text: fit(i === 0 ? label : "", LABEL_WIDTH), styles: ["bold"] },
    { text: l, styles },
  ]);
}

/** A wrapped paragraph; continuation lines start with `indent`. */
export function text(value: string, width: number, styles: Style[] = [], indent = ""): Row[] {
  return wrap(sanitize(value), width, indent).map((l) => [{ text: l, styles }]);
}
