/** Cell rules of the release's CSV: RFC 4180 quoting, and OWASP's guard against formulas. */

const NEEDS_QUOTES = /[",\r\n]/

/** A field as RFC 4180 writes it: quoted (quotes doubled) only when it holds `"`, `,` or a line break. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

const FORMULA_START = /^[=+\-@\t\r]/

/**
 * A cell a spreadsheet program would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab
 * or a carriage return) gets a leading `'`, so it is shown as text (OWASP, CSV injection). It
 * changes the text, so it is an option, off by default.
 */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text
}
