/**
 * The evaluator's preprocessing of a predicted answer (Python semantics): lower-case, the first 50
 * characters (code points, not UTF-16 units), then `str.strip()` (Python's whitespace, which is
 * not JavaScript's: no U+FEFF, but U+001C–U+001F and U+0085).
 */
export function normalizePrediction(answer: string, limit = 50): string {
  const chars = Array.from(answer.toLowerCase())
  return pythonStrip(chars.slice(0, limit).join(''))
}

const PY_SPACE = new Set(
  Array.from(
    '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000',
  ),
)

function pythonStrip(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && PY_SPACE.has(text.charAt(start))) start++
  while (end > start && PY_SPACE.has(text.charAt(end - 1))) end--
  return text.slice(start, end)
}

/**
 * A looser key for clustering suggestions (not the scorer's): lower-case, punctuation and
 * articles dropped, spaces collapsed, a final plural `s` removed.
 */
export function looseAnswerKey(answer: string): string {
  const words = answer
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'a' && w !== 'an' && w !== 'the')
  return words
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .join(' ')
}
