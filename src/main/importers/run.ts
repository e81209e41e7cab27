import { basename } from 'node:path'
import type { FileImportResult, ImportFormat, ImportResult } from '../../shared/contract/imports'
import { type Db, TempStore, type TemporaryPragmas, withPragmas } from '../db/connection'
import { createChangeSet, describeChangeSet, discardChangeSet } from '../db/queries/changes/sets'
import { SubmissionWriter, completeSourceFile, insertSourceFile } from '../db/queries/submissions'
import { withIndexesRebuiltAfter, withoutPendingTrigger } from '../db/queries/bulk'
import { hasNoRatings } from '../db/queries/ratings/import'
import { CancelledError } from '../jobs/cancel'
import { FileRatingLog } from '../db/fileRatingLog'
import { reconstructFromLog } from '../ratings/timelinesFromLog'
import { reconstructImportedRatings } from '../ratings/importTimelines'
import { conflictError, offScale } from './conflicts'
import { readSetting } from '../db/queries/settings'
import { DEFAULT_RATING_SCALE, RATING_SCALE_SETTING } from '../../shared/ratings/scale'
import { type GlucoseFile, openGlucoseFile } from './glucose/open'
import { type FileRows, ReadAhead, canReadAhead } from './readAhead'
import { plural } from '../../shared/text'

export interface ImportFile {
  path: string
  /** The name the user knows the file by (an upload's original name in serve mode). */
  name?: string
  /** This file's format, chosen by the user; otherwise `ImportOptions.format`, or detected. */
  format?: ImportFormat
}

export interface ImportOptions {
  /** The format of every file without its own (`winnow import --format`); otherwise detected. */
  format?: ImportFormat
  year?: number
  author?: string
  /**
   * Read the rows on a second thread while this one writes; by default when the files hold at
   * least `READ_AHEAD_FROM_BYTES` (a thread costs more to start than a small file takes to read).
   */
  readAhead?: boolean
}

const READ_AHEAD_FROM_BYTES = 4 << 20

export interface ImportProgress {
  /** How far the import is, in `unit`s: bytes read over all files, or items (CROWDAQ's). */
  done: number
  total: number
  unit: 'bytes' | 'items'
  records: number
  file: string
  /** Once every file is read: the step the import is on before it commits. */
  step?: string
}

export interface ImportHooks {
  /** Called every few thousand records with bytes read over all files, then at each later step. */
  progress?(p: ImportProgress): void
  /** Polled between records and between the steps before the commit; true rolls everything back. */
  cancelled?(): boolean
}

const PROGRESS_EVERY = 2000

/** How an import's connection writes, for the import's duration. */
export const IMPORT_PRAGMAS = {
  /**
   * No checkpoint while it writes, so its commit does not also copy the whole WAL into the project
   * file while the user waits. The next commit on this connection (the search indexing that
   * follows an import), the app's idle checkpoint or closing the connection does that copy.
   */
  wal_autocheckpoint: 0,
  /**
   * No per-row foreign-key checks. The writers derive every reference from rows written or looked
   * up in the same transaction (submission and annotation ids they assign, workers and stories
   * they find or insert, the change set and source file the import created), so the checks can
   * only confirm what holds by construction, and they are a noticeable share of the import's
   * writes: one lookup per annotation for its submission and one for its text row.
   * `tests/import/references.test.ts` checks every layout's result with `PRAGMA foreign_key_check`.
   */
  foreign_keys: 0,
  /**
   * Temporary files on disk for the index rebuild's sort runs (see bulk.ts): faster than SQLite's
   * in-memory journal, and not held in the import's memory. They stay in the OS's file cache.
   */
  temp_store: TempStore.file,
} satisfies TemporaryPragmas

/**
 * Imports GLUCOSE files in one transaction: all of them or, on bad input or cancel, none.
 * Keyed writes make a re-import add nothing.
 */
export function importFiles(
  db: Db,
  files: readonly ImportFile[],
  options: ImportOptions = {},
  hooks: ImportHooks = {},
): ImportResult {
  // Every header is checked before anything is written.
  const opened: { file: ImportFile; glucose: GlucoseFile }[] = []
  let readAhead: ReadAhead | null = null
  try {
    for (const file of files) {
      const format = file.format ?? options.format
      opened.push({
        file,
        glucose: openGlucoseFile(file.path, {
          ...(format ? { format } : {}),
          ...(options.year ? { year: options.year } : {}),
          csv: { sha256: true },
        }),
      })
    }
    const totalBytes = opened.reduce((sum, o) => sum + o.glucose.reader.size, 0)
    if (options.readAhead ?? (totalBytes >= READ_AHEAD_FROM_BYTES && canReadAhead())) {
      readAhead = new ReadAhead(
        opened.map(({ file, glucose }) => ({
          path: file.path,
          format: glucose.format,
          ...(options.year ? { year: options.year } : {}),
        })),
      )
    }
    const ahead = readAhead
    const rowsOf = (index: number, glucose: GlucoseFile): FileRows =>
      ahead ? ahead.file(index) : readHere(glucose)
    const write = (): ImportResult => {
      const author = options.author ?? 'import'
      const changeSet = createChangeSet(db, { kind: 'import', author, description: 'Import' })
      const results: FileImportResult[] = []
      let bytesBefore = 0
      let records = 0
      const stopIfCancelled = (): void => {
        if (hooks.cancelled?.()) throw new CancelledError()
      }
      // Into a project without ratings, the writers log what they wrote and the timelines are
      // built from that log; otherwise a trigger lists the new rows and they are read back.
      const log = hasNoRatings(db) ? new FileRatingLog() : null
      const writeFiles = (): void => {
        opened.forEach(({ file, glucose }, index) => {
          const name = file.name ?? basename(file.path)
          const rows = rowsOf(index, glucose)
          const written = writeFile(db, {
            name,
            path: file.path,
            glucose,
            rows,
            year: options.year ?? null,
            changeSetId: changeSet.id,
            log,
            onRecord: () => {
              if (++records % PROGRESS_EVERY !== 0) return
              stopIfCancelled()
              hooks.progress?.({
                done: bytesBefore + rows.bytesRead(),
                total: totalBytes,
                unit: 'bytes',
                records,
                file: name,
              })
            },
          })
          stopIfCancelled()
          bytesBefore += glucose.reader.size
          results.push(written)
        })
      }
      const step = (name: string): void => {
        stopIfCancelled()
        hooks.progress?.({
          done: totalBytes,
          total: totalBytes,
          unit: 'bytes',
          records,
          file: '',
          step: name,
        })
      }
      // About 700 bytes of CSV per annotation in every GLUCOSE layout.
      withIndexesRebuiltAfter(
        db,
        totalBytes / 700,
        () => {
          if (log === null) return writeFiles()
          try {
            withoutPendingTrigger(db, writeFiles)
            // Ratings found in the files become worker timelines, in this change set.
            step('Building worker rating timelines')
            reconstructFromLog(db, changeSet, author, log)
          } finally {
            log.close()
          }
        },
        { beforeIndex: (built, total) => step(`Building indexes (${built + 1} of ${total})`) },
      )
      if (log === null) {
        step('Building worker rating timelines')
        reconstructImportedRatings(db, changeSet, author)
      }
      // The last moment a cancel can still leave the project as it was.
      stopIfCancelled()
      const submissions = results.reduce((n, r) => n + r.submissions, 0)
      const annotations = results.reduce((n, r) => n + r.annotations, 0)
      hooks.progress?.({ done: totalBytes, total: totalBytes, unit: 'bytes', records, file: '' })
      if (submissions === 0 && annotations === 0) {
        // Everything was already there: leave no empty change set behind.
        discardChangeSet(db, changeSet.id)
        return { files: results, submissions, annotations }
      }
      describeChangeSet(
        db,
        changeSet.id,
        `Imported ${results.map((r) => r.file).join(', ')}: ${plural(submissions, 'submission')}, ${plural(annotations, 'annotation')}`,
      )
      return { files: results, submissions, annotations }
    }
    return withPragmas(db, IMPORT_PRAGMAS, () => db.transaction(write).immediate())
  } finally {
    readAhead?.close()
    for (const o of opened) o.glucose.reader.close()
  }
}

/**
 * One file's rows written into the import's change set, its source-file row completed with its
 * hash, counts and warnings; `onRecord` runs after every record (progress, cancel).
 */
function writeFile(
  db: Db,
  file: {
    name: string
    path: string
    glucose: GlucoseFile
    rows: FileRows
    year: number | null
    changeSetId: number
    log: FileRatingLog | null
    onRecord(): void
  },
): FileImportResult {
  const { glucose, rows } = file
  const sourceFileId = insertSourceFile(db, {
    name: file.name,
    path: file.path,
    bytes: glucose.reader.size,
    format: glucose.format,
    year: file.year,
    changeSetId: file.changeSetId,
  })
  const writer = new SubmissionWriter(db, file.changeSetId, sourceFileId, file.log ?? undefined, {
    partialRows: glucose.format === 'glucose-dimension',
  })
  let records = 0
  const onScale = scaleValues(db)
  for (const record of rows.rows()) {
    if (record.fileRating !== null && !onScale.has(record.fileRating)) {
      throw offScale(file.path, glucose.header, record.line, record.fileRating, [...onScale])
    }
    writer.write(record)
    records++
    file.onRecord()
  }
  writer.finish()
  if (writer.conflictCount > 0) {
    throw conflictError(file.path, glucose.header, writer.conflicts, writer.conflictCount)
  }
  const warnings = rows.warnings().map((w) => w.message)
  completeSourceFile(db, sourceFileId, {
    sha256: rows.sha256(),
    records,
    counts: writer.counts,
    warnings,
  })
  return {
    file: file.name,
    format: glucose.format,
    records,
    submissions: writer.counts.submissions,
    annotations: writer.counts.annotations,
    warnings,
  }
}

/**
 * The values of the project's scale, read without zod (imports also run on worker threads); the
 * app validates the setting when it is written.
 */
function scaleValues(db: Db): Set<number> {
  const saved = readSetting(db, RATING_SCALE_SETTING)
  const levels = Array.isArray(saved) ? (saved as { value?: unknown }[]) : []
  const values = levels.map((l) => l.value).filter((v): v is number => typeof v === 'number')
  return new Set(values.length > 0 ? values : DEFAULT_RATING_SCALE.map((l) => l.value))
}

/** A file's rows read on this thread, as the import reads small files. */
function readHere(glucose: GlucoseFile): FileRows {
  return {
    rows: () => glucose.records(),
    bytesRead: () => glucose.reader.bytesRead(),
    sha256: () => glucose.reader.sha256(),
    warnings: () => glucose.warnings,
  }
}
