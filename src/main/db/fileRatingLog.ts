import type Database from 'better-sqlite3'
import type { FileRatingGroup } from './queries/ratings/import'
import type { WrittenRows } from './queries/submissions'
import { openScratch } from './scratch'

/** A row a first import wrote: its submission, the dimensions it added, and what rates them. */
export interface LoggedRow {
  submissionId: number
  /** A bit (1 << d) per dimension the row added. */
  dimensions: number
  workerId: number | null
  submittedAt: number | null
  value: number | null
}

/** A file value pinned to one annotation as an item rating, in the order they are written. */
export interface Pin {
  annotationId: number
  value: number
}

/** Rows per page when the log is read back: the memory of a page, whatever the log's length. */
export const LOG_PAGE = 65_536

const SCHEMA = `
  CREATE TABLE log(submission INTEGER NOT NULL, dimensions INTEGER NOT NULL,
                   worker INTEGER, at INTEGER, value REAL);
  CREATE TABLE pins(pass INTEGER NOT NULL, worker INTEGER NOT NULL, at INTEGER NOT NULL,
                    annotation INTEGER NOT NULL, value REAL NOT NULL);
`

/**
 * The file ratings a first import wrote, one entry per written row, in a private temporary database
 * on disk (`openScratch`): the import's memory stays flat however many rows its files have (40
 * bytes a row in memory would be 87 MB at ten million annotations). The reconstruction reads it
 * back in pages and in SQLite's sorts, which spill to disk too.
 */
export class FileRatingLog implements WrittenRows {
  private readonly db: Database.Database
  private readonly insert: Database.Statement<
    [number, number, number | null, number | null, number | null]
  >
  private readonly insertPin: Database.Statement<[number, number, number, number, number]>
  private entries = 0

  constructor(
    private readonly pageRows = LOG_PAGE,
    cacheMb = 8,
  ) {
    this.db = openScratch(SCHEMA, cacheMb)
    this.insert = this.db.prepare('INSERT INTO log VALUES (?, ?, ?, ?, ?)')
    this.insertPin = this.db.prepare('INSERT INTO pins VALUES (?, ?, ?, ?, ?)')
  }

  get length(): number {
    return this.entries
  }

  /** `dimensions`: a bit per dimension written (1 << d); rows that wrote none are not logged. */
  add(
    submissionId: number,
    dimensions: number,
    workerId: number | null,
    submittedAt: number | null,
    value: number | null,
  ): void {
    if (dimensions === 0) return
    this.insert.run(submissionId, dimensions, workerId, submittedAt, value)
    this.entries++
  }

  /** Distinct (worker, time, value) of the rows that have all three, by worker, time and value. */
  *groups(): Generator<FileRatingGroup> {
    yield* this.db
      .prepare<[], FileRatingGroup>(
        `SELECT DISTINCT worker AS workerId, at AS submittedAt, value FROM log
         WHERE worker IS NOT NULL AND at IS NOT NULL AND value IS NOT NULL
         ORDER BY 1, 2, 3`,
      )
      .iterate()
  }

  /**
   * The logged rows in the order they were written, a page at a time; between pages the caller
   * may `pin` (no statement of the log stays open while it runs).
   */
  *pages(): Generator<LoggedRow[]> {
    type Row = [number, number, number, number | null, number | null, number | null]
    const page = this.db
      .prepare<[number, number], Row>(
        'SELECT rowid, submission, dimensions, worker, at, value FROM log WHERE rowid > ? ORDER BY rowid LIMIT ?',
      )
      .raw()
    for (let after = 0; ;) {
      const rows = page.all(after, this.pageRows)
      const last = rows[rows.length - 1]
      if (!last) return
      after = last[0]
      yield rows.map(([, submissionId, dimensions, workerId, submittedAt, value]) => ({
        submissionId,
        dimensions,
        workerId,
        submittedAt,
        value,
      }))
    }
  }

  /**
   * Keeps `pins` to write as item ratings: those of a worker's time (`on`) ordered by worker, time
   * and annotation, then those without one by annotation.
   */
  pin(pins: readonly Pin[], on?: { workerId: number; submittedAt: number }): void {
    for (const p of pins) {
      this.insertPin.run(
        on ? 0 : 1,
        on?.workerId ?? 0,
        on?.submittedAt ?? 0,
        p.annotationId,
        p.value,
      )
    }
  }

  /** The pinned values, in the order `pin` states. */
  *pins(): Generator<Pin> {
    yield* this.db
      .prepare<[], Pin>(
        'SELECT annotation AS annotationId, value FROM pins ORDER BY pass, worker, at, annotation',
      )
      .iterate()
  }

  /** Closes and deletes the log; again does nothing. */
  close(): void {
    if (this.db.open) this.db.close()
  }
}
