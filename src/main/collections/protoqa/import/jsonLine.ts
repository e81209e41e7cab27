/**
 * Where a JSON text goes wrong, for messages that name a column: `JSON.parse` says so only for
 * some errors. A small scanner walks the text as JSON's grammar does and returns the offset of
 * the first character that cannot be there (the text's length when it ends too soon).
 */
export function jsonErrorOffset(text: string): number {
  let i = 0
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++
  }
  const fail = (): never => {
    throw new Stop(i)
  }
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text.charAt(i) !== ch) fail()
      i++
    }
  }
  const string = (): void => {
    i++
    for (;;) {
      if (i >= text.length) fail()
      const ch = text.charCodeAt(i)
      if (ch === 34) {
        i++
        return
      }
      if (ch < 32) fail()
      if (ch === 92) {
        i++
        const e = text.charAt(i)
        if (e === 'u') {
          for (let k = 1; k <= 4; k++) {
            if (!/[0-9a-fA-F]/.test(text.charAt(i + k))) {
              i += k
              fail()
            }
          }
          i += 5
        } else if ('"\\/bfnrt'.includes(e) && e !== '') i++
        else fail()
      } else i++
    }
  }
  const number = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i))
    if (!m || m[0] === '-' || m[0] === '') fail()
    i += m?.[0].length ?? 0
  }
  const value = (): void => {
    ws()
    const ch = text.charAt(i)
    if (ch === '{') {
      i++
      ws()
      if (text.charAt(i) === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        if (text.charAt(i) !== '"') fail()
        string()
        ws()
        if (text.charAt(i) !== ':') fail()
        i++
        value()
        ws()
        if (text.charAt(i) === ',') i++
        else if (text.charAt(i) === '}') {
          i++
          return
        } else fail()
      }
    } else if (ch === '[') {
      i++
      ws()
      if (text.charAt(i) === ']') {
        i++
        return
      }
      for (;;) {
        value()
        ws()
        if (text.charAt(i) === ',') i++
        else if (text.charAt(i) === ']') {
          i++
          return
        } else fail()
      }
    } else if (ch === '"') string()
    else if (ch === 't') literal('true')
    else if (ch === 'f') literal('false')
    else if (ch === 'n') literal('null')
    else number()
  }
  try {
    value()
    ws()
    if (i < text.length) fail()
    return -1
  } catch (error) {
    if (error instanceof Stop) return Math.min(error.offset, text.length)
    throw error
  }
}

class Stop extends Error {
  constructor(readonly offset: number) {
    super('JSON stops here')
  }
}

/** 1-based line and column (in characters) of an offset into a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let start = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    start = i + 1
  }
  return { line, column: Array.from(text.slice(start, offset)).length + 1 }
}
