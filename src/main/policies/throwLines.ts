import { parse } from 'sucrase/dist/parser/index.js'
import { TokenType } from 'sucrase/dist/parser/tokenizer/types.js'
import { THROW_MARKER } from './prelude'

/** The compiled script with its `throw` statements marked, and how to undo the columns' shift. */
export interface MarkedThrows {
  code: string
  /** The file's column of a column the engine reports on `line` of the marked code. */
  column(line: number, column: number): number
}

/**
 * Makes every `throw X` statement `throw MARKER(line), X`: the comma runs the marker, which
 * records the line, then throws X as before. The engine records no place for a thrown value that
 * is not an Error, so this is how `throw { message: 5 }` is reported at its line.
 */
export function markThrows(code: string): MarkedThrows {
  let out = ''
  let from = 0
  let line = 1
  let lineStart = 0
  // Per line, the file's column after each marked `throw` and the length of the text put there.
  const marks = new Map<number, { column: number; length: number }[]>()
  for (const token of parse(code, false, false, false).tokens) {
    if (token.type !== TokenType._throw) continue
    for (let i = from; i < token.start; i++) {
      if (code.charCodeAt(i) === 10) {
        line++
        lineStart = i + 1
      }
    }
    const text = ` ${THROW_MARKER}(${line}),`
    out += code.slice(from, token.end) + text
    from = token.end
    const list = marks.get(line) ?? []
    list.push({ column: token.end - lineStart + 1, length: text.length })
    marks.set(line, list)
  }
  out += code.slice(from)
  return {
    code: out,
    column: (at, column) => {
      let shift = 0
      for (const mark of marks.get(at) ?? []) {
        const start = mark.column + shift
        if (column <= start) break
        shift += Math.min(mark.length, column - start)
      }
      return column - shift
    },
  }
}
