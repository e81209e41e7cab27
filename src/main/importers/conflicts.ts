import { basename } from 'node:path'
import type { CellConflict } from '../db/queries/submissions'
import { locateFieldOnLine } from './csv'
import { InputError, showValue } from './errors'
import { QUALITY_COLUMNS } from './glucose/columns'
import { ratingKey } from '../../shared/ratings/key'

/**
 * The refusal of an import whose rows say something else than the same submissions already in
 * the project or earlier in the import: located at the first differing cell, listing the others.
 */
export function conflictError(
  path: string,
  header: readonly string[],
  conflicts: readonly CellConflict[],
  count: number,
): InputError {
  const first = conflicts[0] as CellConflict
  const column = (c: CellConflict) => header.indexOf(`${c.dimension}_${c.cell}`)
  const index = column(first)
  const at =
    index === -1 ? { line: first.line, column: 0 } : locateFieldOnLine(path, first.line, index)
  const describe = (c: CellConflict) =>
    c.here === null
      ? `dimension ${c.dimension} is escaped here but filled in ${c.origin} (${showValue(c.there ?? '')})`
      : `${showValue(c.here)} here, ${showValue(c.there ?? '')} in ${c.origin}`
  const others = conflicts
    .slice(1)
    .map((c) => `line ${c.line} ${c.dimension}_${c.cell}: ${describe(c)}`)
  const more = count - conflicts.length
  return new InputError(
    'conflicting-cells',
    `the same submission (${first.sourceKey}) was imported before with other cells: ${describe(first)}` +
      (others.length ? `; also ${others.join('; ')}` : '') +
      (more > 0 ? `; and ${more} more` : '') +
      `. Nothing was imported from ${basename(path)} or the files imported with it.`,
    {
      path,
      ...at,
      ...(index === -1 ? {} : { field: header[index] }),
    },
  )
}

/** A file rating that is not a step of the project's scale: refused where it stands. */
export function offScale(
  path: string,
  header: readonly string[],
  line: number,
  value: number,
  scale: readonly number[],
): InputError {
  const index = header.findIndex((name) => (QUALITY_COLUMNS as readonly string[]).includes(name))
  const at = index === -1 ? { line, column: 0 } : locateFieldOnLine(path, line, index)
  return new InputError(
    'bad-value',
    `the rating ${ratingKey(value)} is not on this project's scale (${scale.map(ratingKey).join(', ')}); ` +
      'change the scale first if the file is right. Nothing was imported.',
    { path, ...at, ...(index === -1 ? {} : { field: header[index] }) },
  )
}
