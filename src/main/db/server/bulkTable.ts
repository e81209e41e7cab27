/** A column's type as COPY's text format carries it; a `uid` is a change set's global id. */
export type BulkType = 'int' | 'real' | 'text' | 'uid'

/** A table that travels by COPY: its name and its columns, in the order both sides write them. */
export interface BulkTable {
  name: string
  columns: readonly { name: string; type: BulkType }[]
}

/** One cell of a row on its way. */
export type BulkValue = string | number | null

/** A key value written into SQL text, as SQLite and PostgreSQL both read it. */
export function keyLiteral(v: BulkValue): string {
  if (v === null) return 'NULL'
  if (typeof v === 'number') return String(Math.trunc(v))
  return `'${v.replace(/'/g, "''")}'`
}
