import { append } from '../../shared/lists'

/**
 * The `sql` tagged template: every interpolated value becomes a bound parameter; only other
 * fragments (and allow-listed identifiers through `sql.raw`) are spliced as text.
 */
export type SqlValue = string | number | bigint | Buffer | null

export class SqlFragment {
  constructor(
    readonly text: string,
    readonly values: readonly SqlValue[],
  ) {}
}

type Interpolated = SqlValue | SqlFragment | boolean

export function sql(strings: TemplateStringsArray, ...parts: Interpolated[]): SqlFragment {
  let text = strings[0] ?? ''
  const values: SqlValue[] = []
  parts.forEach((part, i) => {
    if (part instanceof SqlFragment) {
      text += part.text
      append(values, part.values)
    } else {
      text += '?'
      values.push(typeof part === 'boolean' ? (part ? 1 : 0) : part)
    }
    text += strings[i + 1] ?? ''
  })
  return new SqlFragment(text, values)
}

/** Trusted SQL text: identifiers and keywords chosen from allow-lists, never user input. */
sql.raw = (text: string): SqlFragment => new SqlFragment(text, [])

sql.join = (fragments: readonly SqlFragment[], separator = ', '): SqlFragment =>
  new SqlFragment(
    fragments.map((f) => f.text).join(separator),
    fragments.flatMap((f) => f.values),
  )

/** `(?, ?, ?)` for a list of values; an empty list is an error the caller must avoid. */
sql.list = (values: readonly SqlValue[]): SqlFragment => {
  if (values.length === 0) throw new Error('sql.list needs at least one value')
  return new SqlFragment(`(${values.map(() => '?').join(', ')})`, values)
}

sql.empty = new SqlFragment('', [])
