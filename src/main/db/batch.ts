import type { Statement } from 'better-sqlite3'
import type { Db } from './connection'
import type { SqlValue } from './sql'

/**
 * Buffers rows for one table and writes them with multi-row INSERTs: one statement call per
 * batch instead of per row, which is most of the cost of a bulk import in better-sqlite3.
 */
export class BatchInsert {
  private readonly buffer: SqlValue[] = []
  private readonly statements = new Map<number, Statement>()
  private pending = 0

  constructor(
    private readonly db: Db,
    private readonly head: string,
    private readonly width: number,
    /** Batches holding parent rows: written first, so foreign keys hold row by row. */
    private readonly parents: readonly BatchInsert[] = [],
    private readonly rowsPerBatch = 200,
    /** Text after the VALUES list, e.g. `ON CONFLICT DO NOTHING`. */
    private readonly tail = '',
  ) {}

  add(...values: SqlValue[]): void {
    if (values.length !== this.width) throw new Error(`${this.head}: expected ${this.width} values`)
    for (const value of values) this.buffer.push(value)
    if (++this.pending === this.rowsPerBatch) this.flush()
  }

  flush(): void {
    if (this.pending === 0) return
    for (const parent of this.parents) parent.flush()
    this.statement(this.pending).run(this.buffer)
    this.buffer.length = 0
    this.pending = 0
  }

  private statement(rows: number): Statement {
    let statement = this.statements.get(rows)
    if (!statement) {
      const row = `(${Array.from({ length: this.width }, () => '?').join(', ')})`
      statement = this.db.prepare(
        `${this.head} VALUES ${Array.from({ length: rows }, () => row).join(', ')} ${this.tail}`,
      )
      this.statements.set(rows, statement)
    }
    return statement
  }
}
