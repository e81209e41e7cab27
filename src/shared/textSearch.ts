/**
 * Full-text search terms as the user typed them, turned into a query SQLite's FTS5 cannot
 * misread, and into ranges the page highlights as plain text (never HTML).
 *
 * Tokens follow FTS5's default `unicode61` tokenizer: runs of letters, digits and private-use
 * characters; everything else separates. Quoted runs ("went to the") stay phrases.
 */

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu

/** Lower case without diacritics, as `unicode61` folds tokens before comparing them. */
export function foldToken(token: string): string {
  return token.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

function tokens(text: string): string[] {
  return [...text.matchAll(TOKEN)].map((m) => foldToken(m[0])).filter((t) => t !== '')
}

/**
 * The phrases of a search: each quoted run is one phrase, every other token is a phrase of its
 * own. An unbalanced quote runs to the end. All phrases must match (AND).
 */
export function searchPhrases(text: string): string[][] {
  const phrases: string[][] = []
  const parts = text.split('"')
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      const phrase = tokens(part)
      if (phrase.length > 0) phrases.push(phrase)
    } else {
      for (const token of tokens(part)) phrases.push([token])
    }
  })
  return phrases
}

/**
 * The FTS5 MATCH expression for a search: every phrase double-quoted, joined by spaces (implicit
 * AND). Tokens hold only letters and digits, so no quote or operator can reach FTS5. Null when
 * the search has no token at all (it can match nothing).
 */
export function ftsQuery(text: string): string | null {
  const phrases = searchPhrases(text)
  if (phrases.length === 0) return null
  return phrases.map((p) => `"${p.join(' ')}"`).join(' ')
}

/** The distinct folded tokens of a search: what the page highlights. */
export function highlightTerms(text: string): string[] {
  return [...new Set(searchPhrases(text).flat())]
}

/**
 * `[start, end)` ranges of whole tokens of `text` that equal one of `terms` after folding,
 * in order and non-overlapping. The page wraps these slices in marks as text nodes.
 */
export function highlightRanges(text: string, terms: readonly string[]): Array<[number, number]> {
  if (terms.length === 0) return []
  const wanted = new Set(terms.map(foldToken))
  const ranges: Array<[number, number]> = []
  for (const match of text.matchAll(TOKEN)) {
    if (wanted.has(foldToken(match[0]))) ranges.push([match.index, match.index + match[0].length])
  }
  return ranges
}
