// docs/benchmarks.md: the benchmarks that report there replace their own section with each run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { format, resolveConfig } from 'prettier'
import { append } from '../../src/shared/lists'

export const BENCHMARKS_DOC = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'docs',
  'benchmarks.md',
)
const HISTORY = '## History'

/**
 * Writes `report`, which starts with its `## ` heading, in place of the section under that
 * heading. The run it replaces moves to the top of the subsection of the same name under
 * "## History", so no measured figure is lost; a section not there yet goes after the section
 * its heading extends ("## Review queries at ten million" after "## Review queries"), or else
 * before the history.
 * The file is then formatted as Prettier would (the reports' tables are not padded).
 */
export async function writeSection(report: string, docs = BENCHMARKS_DOC): Promise<void> {
  const text = existsSync(docs) ? readFileSync(docs, 'utf8') : '# Benchmarks\n'
  const lines = text.trimEnd().split('\n')
  const fresh = report.trimEnd().split('\n')
  const heading = fresh[0] ?? ''
  if (!heading.startsWith('## ')) throw new Error('a report starts with its "## " heading')
  const start = lines.indexOf(heading)
  if (start < 0) {
    const at = placeFor(lines, heading)
    if (at < 0) append(lines, ['', ...fresh])
    else replaceLines(lines, at, 0, [...fresh, ''])
  } else {
    const next = lines.findIndex((line, i) => i > start && line.startsWith('## '))
    const end = next < 0 ? lines.length : next
    const previous = lines.slice(start + 1, end).map((l) => (l.startsWith('### ') ? `#${l}` : l))
    replaceLines(lines, start, end - start, [...fresh, ''])
    moveToHistory(lines, `#${heading}`, previous)
  }
  const formatted = await format(lines.join('\n'), {
    ...(await resolveConfig(docs)),
    filepath: docs,
  })
  writeFileSync(docs, formatted)
}

/** Where a new section under `heading` goes: after the section it extends, or before the history. */
function placeFor(lines: string[], heading: string): number {
  const history = lines.indexOf(HISTORY)
  const before = history < 0 ? lines.length : history
  const extended = lines.findIndex(
    (line, i) => i < before && line.startsWith('## ') && heading.startsWith(`${line} `),
  )
  if (extended < 0) return history
  const next = lines.findIndex((line, i) => i > extended && line.startsWith('## '))
  return next < 0 ? lines.length : next
}

/** Puts `run` first under `subheading` in the history, adding either where missing. */
function moveToHistory(lines: string[], subheading: string, run: string[]): void {
  const body = trimBlank(run)
  if (body.length === 0) return
  let history = lines.indexOf(HISTORY)
  if (history < 0) {
    lines.push('', HISTORY)
    history = lines.length - 1
  }
  const at = lines.indexOf(subheading, history)
  if (at < 0) append(lines, ['', subheading, '', ...body])
  else replaceLines(lines, at + 1, 0, ['', ...body])
}

/** `lines` with `count` of them from `start` replaced by `added`, as `splice` without a spread. */
function replaceLines(lines: string[], start: number, count: number, added: string[]): void {
  const tail = lines.splice(start).slice(count)
  append(lines, added)
  append(lines, tail)
}

function trimBlank(block: string[]): string[] {
  let from = 0
  let to = block.length
  while (from < to && block[from]?.trim() === '') from++
  while (to > from && block[to - 1]?.trim() === '') to--
  return block.slice(from, to)
}
