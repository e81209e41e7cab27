/** A span-from-text value (FORMATS.md §5.3): offsets into its context's `text`, end exclusive. */
export interface SpanValue {
  start: number
  end: number
  surface: string
}

/** What CROWDAQ records for a span not chosen yet. */
export const UNSET_SPAN: SpanValue = { start: -1, end: -1, surface: '' }

/**
 * The span between two offsets of a text, in whichever order a selection gave them (a selection
 * made backwards ends where it started). Null when the span is empty or reaches outside the text.
 */
export function spanOf(text: string, a: number, b: number): SpanValue | null {
  const start = Math.min(a, b)
  const end = Math.max(a, b)
  if (!Number.isInteger(start) || !Number.isInteger(end)) return null
  if (start < 0 || end > text.length || start === end) return null
  return { start, end, surface: text.slice(start, end) }
}

/** How a chosen span reads on the page: its surface and its offsets. */
export function spanLabel(span: SpanValue): string {
  return `“${span.surface}” (${span.start}–${span.end})`
}
