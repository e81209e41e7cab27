/**
 * Highlighting search matches in crowd text without HTML: the text is split into segments and the
 * page wraps matching segments in <mark> as React children. Pure; tested in tests/renderer.
 */
import { highlightRanges, highlightTerms } from '../../../shared/textSearch'

export interface Segment {
  text: string
  match: boolean
}

/** Splits `text` at `[start, end)` ranges (sorted, non-overlapping). Joining the segments gives `text` back. */
export function segmentsFromRanges(
  text: string,
  ranges: ReadonlyArray<readonly [number, number]>,
): Segment[] {
  const segments: Segment[] = []
  let at = 0
  for (const [start, end] of ranges) {
    if (start < at || end <= start) continue
    if (start > at) segments.push({ text: text.slice(at, start), match: false })
    segments.push({ text: text.slice(start, end), match: true })
    at = end
  }
  if (at < text.length || segments.length === 0)
    segments.push({ text: text.slice(at), match: false })
  return segments
}

/** The tokens of a full-text search (as the backend's FTS5 query reads them). */
export function fullTextTerms(search: string): string[] {
  return highlightTerms(search)
}

/** Whole-token matches of a full-text search, exactly as FTS5 matched them. */
export function highlightSearch(text: string, terms: readonly string[]): Segment[] {
  return segmentsFromRanges(text, highlightRanges(text, terms))
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Every occurrence of `needle` (case-insensitive substring: the "sentence contains" filter). */
export function highlightSubstring(text: string, needle: string): Segment[] {
  if (needle === '' || text === '') return [{ text, match: false }]
  const ranges: [number, number][] = []
  for (const m of text.matchAll(new RegExp(escapeRegExp(needle), 'giu'))) {
    if (m[0] !== '') ranges.push([m.index, m.index + m[0].length])
  }
  return segmentsFromRanges(text, ranges)
}
