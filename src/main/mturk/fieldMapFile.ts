/**
 * Mapping files for HITs whose form fields are not named like the release columns: a JSON object
 * `{"form field": "release column", …}`. Read from a file the user chose (the page, through a
 * granted file; the command line, `--mapping FILE`) and remembered in the project's settings, so
 * every later pull of the project reads its HITs the same way. Every refusal names the file and
 * the fields at fault, and changes nothing.
 */
import { readFileSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import { z } from 'zod'
import { UserError } from '../../shared/contract/errors'
import type { MTurkFieldMapping } from '../../shared/contract/mturk'
import { changeSetting } from '../changes/settings'
import type { Db } from '../db/connection'
import { readSetting } from '../db/queries/settings'
import { type FieldMap, checkFieldMap } from './glucose-map'

const MAPPING_KEY = 'mturk.fieldMap'
/** Far more than any form has fields. */
const MAX_BYTES = 1 << 20
const MAX_FIELDS = 1_000

export interface NamedFieldMap {
  /** The file's name, as the user knows it. */
  name: string
  map: FieldMap
}

function refuse(name: string, problems: readonly string[], field?: string): never {
  throw new UserError({
    type: 'input',
    code: 'bad-field-mapping',
    message: `${name}: ${problems.join('; ')}`,
    file: name,
    ...(field !== undefined ? { field } : {}),
  })
}

/** The mapping in a file, checked: a JSON object of form field → known release column. */
export function readFieldMapFile(path: string, name = basename(path)): NamedFieldMap {
  let text: string
  try {
    if (statSync(path).size > MAX_BYTES) refuse(name, ['larger than 1 MB; not a mapping file'])
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if (error instanceof UserError) throw error
    refuse(name, [`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`])
  }
  return checkedFieldMap(name, text)
}

/** A mapping file's text, checked; `name` is what errors call it. */
function checkedFieldMap(name: string, text: string): NamedFieldMap {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    refuse(name, [`not JSON (${(error as Error).message})`])
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    refuse(name, ['expected a JSON object {"form field": "release column", …}'])
  }
  const entries = Object.entries(value)
  if (entries.length === 0) refuse(name, ['maps no fields'])
  if (entries.length > MAX_FIELDS) refuse(name, [`maps more than ${MAX_FIELDS} fields`])
  const notText = entries.filter(([, column]) => typeof column !== 'string')
  if (notText.length > 0) {
    refuse(
      name,
      notText.map(([field]) => `${field}: the column must be a name in quotes`),
      notText[0]?.[0],
    )
  }
  const map = Object.fromEntries(entries) as Record<string, string>
  const problems = checkFieldMap(map)
  if (problems.length > 0) {
    const first = problems[0] ?? ''
    const firstField = Object.keys(map).find(
      (field) => first.startsWith(`${field}:`) || first.startsWith(`${field} and `),
    )
    refuse(name, problems, firstField)
  }
  return { name, map }
}

const stored = z.object({
  name: z.string(),
  map: z.record(z.string(), z.string()),
})

/** The project's mapping; null when its HITs use the release column names (the default). */
export function projectFieldMap(db: Db): NamedFieldMap | null {
  const parsed = stored.safeParse(readSetting(db, MAPPING_KEY))
  if (!parsed.success) return null
  return checkFieldMap(parsed.data.map).length === 0 ? parsed.data : null
}

/** Keeps the mapping (null: the release column names again) as a change set. */
export function rememberFieldMap(db: Db, mapping: NamedFieldMap | null, author: string): void {
  changeSetting(db, {
    key: MAPPING_KEY,
    value: mapping,
    author,
    description: mapping
      ? `MTurk field mapping: ${mapping.name}`
      : 'MTurk field mapping: the release column names',
  })
}

/** The mapping as the page shows it. */
export function fieldMappingView(mapping: NamedFieldMap | null): MTurkFieldMapping | null {
  if (!mapping) return null
  return {
    name: mapping.name,
    fields: Object.entries(mapping.map).map(([field, column]) => ({ field, column })),
  }
}
