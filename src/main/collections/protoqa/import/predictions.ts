import { extname } from 'node:path'
import { showValue } from '../../../importers/errors'
import { type TextFile, textLines } from './text'
import { JsonSource } from './values'

/**
 * A prediction file, in either published shape (FORMATS.md §6.1): a `.json` object of ranked
 * lists (`{"r1q1": ["age", …]}`), or JSON lines, each `{"question_id", "ranked_answers"}` or
 * `{"r1q1": […]}`. Answers are kept as written (`""`, mixed case): the scorer normalises them.
 */
export function readPredictions(file: TextFile): Map<string, string[]> {
  const trimmed = file.text.trimStart()
  const wholeObject =
    extname(file.path).toLowerCase() === '.json' ||
    (trimmed.startsWith('{') && !trimmed.includes('\n') && !/"ranked_answers"/.test(trimmed))
  const out = new Map<string, string[]>()
  const add = (src: JsonSource, id: string, list: unknown, path: string[]): void => {
    const key = id.trim()
    if (key === '') src.fail(path, 'expected a question id, found an empty one')
    if (out.has(key)) src.fail(path, `question ${showValue(key)} is listed twice`)
    out.set(key, src.strings(list, path))
  }
  if (wholeObject) {
    const src = new JsonSource(file.path, file.text, 1)
    const top = src.object(src.parse(), [])
    for (const [id, list] of Object.entries(top)) add(src, id, list, [id])
    return out
  }
  for (const { line, text } of textLines(file.text)) {
    const src = new JsonSource(file.path, text, line)
    const row = src.object(src.parse(), [])
    if ('question_id' in row || 'ranked_answers' in row) {
      const id = src.string(row.question_id, ['question_id'])
      add(src, id, row.ranked_answers, ['ranked_answers'])
    } else {
      const entries = Object.entries(row)
      if (entries.length !== 1)
        src.fail([], 'expected {"question_id", "ranked_answers"} or one question id and its list')
      const [id, list] = entries[0] ?? ['', []]
      add(src, id, list, [id])
    }
  }
  return out
}
