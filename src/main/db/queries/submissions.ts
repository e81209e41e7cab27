import type { Statement } from 'better-sqlite3'
import type { ImportedAnnotation, StoredSubmission } from '../../importers/types'
import { SubmissionFlag } from '../../../shared/glucose/flags'
import { HIDDEN } from '../../../shared/glucose/grammar'
import { BatchInsert } from '../batch'
import type { Db } from '../connection'
import { run } from '../connection'
import { sql } from '../sql'
import { nextBandId, replicaNumber, sharedRowId } from './team/ids'

export interface WriteCounts {
  submissions: number
  annotations: number
}

const RECOUNTED_FLAGS =
  SubmissionFlag.NoDimension | SubmissionFlag.SingleDimension | SubmissionFlag.AnnotationFlagged

/** The four cells of an annotation, as their columns are named in GLUCOSE files (`3_generalNL`). */
const ANNOTATION_CELLS = [
  'specificNL',
  'specificStructured',
  'generalNL',
  'generalStructured',
] as const
export type AnnotationCell = (typeof ANNOTATION_CELLS)[number]

/**
 * A cell that says something else than the same submission imported before (from another row,
 * another file or layout, or a pull). `here` is null when this row left the dimension escaped.
 */
export interface CellConflict {
  /** The row's source line (1-based; 0 for a pulled answer). */
  line: number
  sourceKey: string
  dimension: number
  cell: AnnotationCell
  here: string | null
  there: string | null
  /** Where the other one came from: `dim_3.csv:12`, or `an MTurk pull`. */
  origin: string
}

/** How many conflicts a writer keeps to report (it counts them all). */
const CONFLICTS_KEPT = 20

export interface SubmissionWriterOptions {
  /**
   * Rows that each hold one dimension of a submission (per-dimension files): a dimension a row
   * lacks says nothing. Otherwise a row holds all of its submission's filled dimensions.
   */
  partialRows?: boolean
  /**
   * How many submissions the writer keeps by key (default 65,536); past that it writes out what
   * it holds and forgets them, and finds an older one again in the project by its key.
   */
  remember?: number
}

const REMEMBERED_SUBMISSIONS = 65_536

/** Annotation ids are derived: a submission's annotations are one id range. */
export function annotationId(submissionId: number, dimension: number): number {
  return submissionId * 16 + dimension
}

/**
 * The submission a row goes into, with the dimensions it holds; `matched` when the key is another
 * layout's for a submission stored under its own key, `earlier` when the project held it before.
 */
interface SubmissionTarget {
  id: number
  dimensions: number
  matched?: true
  earlier?: true
}

/** Told of every written row that added annotations (an import's rating reconstruction). */
export interface WrittenRows {
  /** `dimensions`: a bit (1 << d) per annotation the row added to submission `submissionId`. */
  add(
    submissionId: number,
    dimensions: number,
    workerId: number | null,
    submittedAt: number | null,
    fileRating: number | null,
  ): void
}

/**
 * Writes imported submissions inside the caller's transaction. Keyed writes make re-imports add
 * nothing and let per-dimension files of one assignment merge into the same submission. Ids are
 * assigned here (the transaction holds the write lock), so every row can go out in batches.
 * Call `finish()` before the transaction ends.
 */
export class SubmissionWriter {
  private readonly workerIds = new Map<string, number>()
  private readonly storyIds = new Map<string, number>()
  /** Sentences written or found, as story id × 65536 + index. */
  private readonly knownSentences = new Set<number>()
  /**
   * Submissions this writer has seen, by source key, with the dimensions they hold; `matched`
   * when the key is another layout's for a submission stored under its own key.
   */
  private readonly submissions = new Map<string, SubmissionTarget>()
  /** Cells that disagree with what the project holds; nothing should be committed when any. */
  readonly conflicts: CellConflict[] = []
  conflictCount = 0
  /** Whether submissions written by this writer were forgotten (found in the project since). */
  private forgotten = false
  /** Submissions that gained annotations after their first row (per-dimension files). */
  private readonly merged = new Set<number>()
  /** Annotations added to submissions the project held before this writer (`added_annotations`). */
  private readonly addedToEarlier: number[] = []
  private readonly recountFlags: Statement
  private readonly projectWasEmpty: boolean
  private nextSubmissionId: number
  private readonly find: Record<
    'worker' | 'story' | 'submission' | 'dimensions' | 'sameWork' | 'cells' | 'origin',
    Statement
  >
  private readonly giveAssignment: Statement
  private readonly insert: Record<'worker' | 'story', Statement>
  private readonly backlogRange: Statement
  /** Annotations of submissions from this id on go into the search backlog as one range. */
  private backlogFrom: number
  private readonly batches: Record<
    'submissions' | 'annotations' | 'texts' | 'searchBacklog' | 'storyIndex' | 'sentences',
    BatchInsert
  >
  readonly counts: WriteCounts = { submissions: 0, annotations: 0 }

  /** Whether the project is a team's replica (new rows take ids every replica shares). */
  private readonly team: boolean

  constructor(
    private readonly db: Db,
    private readonly changeSetId: number,
    private readonly sourceFileId: number | null,
    private readonly writtenRows?: WrittenRows,
    private readonly options: SubmissionWriterOptions = {},
  ) {
    const p = (text: string): Statement => db.prepare(text)
    const maxId = p('SELECT max(id) FROM submissions').pluck().get() as number | null
    this.projectWasEmpty = maxId === null
    // A team replica writes in its own band, so its rows travel under the same ids.
    this.nextSubmissionId = nextBandId(db, 'submissions') ?? (maxId ?? 0) + 1
    this.team = replicaNumber(db) !== null
    this.backlogFrom = this.nextSubmissionId
    this.find = {
      worker: p('SELECT id FROM workers WHERE external_id = ?').pluck(),
      story: p('SELECT id FROM stories WHERE external_id = ?').pluck(),
      submission: p('SELECT id FROM submissions WHERE source_key = ?').pluck(),
      dimensions: p(
        'SELECT dimension FROM annotations WHERE id BETWEEN ? * 16 AND ? * 16 + 15',
      ).pluck(),
      // The same work under the other layout's key: (experiment id, worker) in the release layout
      // is (unique id, worker) in per-dimension files and pulled answers (FORMATS §1.1).
      sameWork: p(`SELECT id FROM submissions
        WHERE story_id = ? AND sentence_index = ? AND worker_id = ? AND substr(source_key, 1, 2) = ?
          AND instr(source_key, '#') = 0 AND flags & ${SubmissionFlag.IdMismatch} = 0
        ORDER BY id LIMIT 1`).pluck(),
      cells: p(`SELECT specific_nl AS specificNL, specific_structured AS specificStructured,
          general_nl AS generalNL, general_structured AS generalStructured
        FROM annotation_texts WHERE annotation_id = ?`),
      origin: p(`SELECT f.name AS name, s.source_line AS line, s.assignment_id AS assignmentId
        FROM submissions AS s LEFT JOIN source_files AS f ON f.id = s.source_file_id
        WHERE s.id = ?`),
    }
    this.giveAssignment = p(
      'UPDATE submissions SET assignment_id = ? WHERE id = ? AND assignment_id IS NULL',
    )
    this.recountFlags = p(`UPDATE submissions AS s SET flags = (s.flags & ~${RECOUNTED_FLAGS})
        | CASE (SELECT count(*) FROM annotations AS a WHERE a.id BETWEEN s.id * 16 AND s.id * 16 + 15)
            WHEN 0 THEN ${SubmissionFlag.NoDimension} WHEN 1 THEN ${SubmissionFlag.SingleDimension} ELSE 0 END
        | CASE WHEN EXISTS (SELECT 1 FROM annotations AS a
            WHERE a.id BETWEEN s.id * 16 AND s.id * 16 + 15 AND a.flags != 0)
          THEN ${SubmissionFlag.AnnotationFlagged} ELSE 0 END
      WHERE s.id IN (SELECT value FROM json_each(?))`)
    this.insert = {
      worker: p('INSERT INTO workers (id, external_id) VALUES (?, ?)'),
      story: p('INSERT INTO stories (id, external_id, text) VALUES (?, ?, ?)'),
    }
    this.backlogRange = p(
      'INSERT INTO search_backlog (annotation_id) SELECT id FROM annotations WHERE id BETWEEN ? AND ?',
    )
    const submissions = new BatchInsert(
      db,
      `INSERT INTO submissions (id, source_key, assignment_id, worker_id, worker_ref, story_id,
        sentence_index, submitted_at, accepted_at, file_rating, declared_filled, source_file_id,
        source_line, change_set_id, flags, raw)`,
      16,
    )
    const annotations = new BatchInsert(
      db,
      `INSERT INTO annotations (id, submission_id, dimension, worker_id, story_id, sentence_index,
        submitted_at, file_rating, rating, rating_source, flags)`,
      11,
      [submissions],
    )
    this.batches = {
      submissions,
      annotations,
      texts: new BatchInsert(
        db,
        `INSERT INTO annotation_texts (annotation_id, specific_nl, specific_structured, general_nl,
          general_structured)`,
        5,
        [annotations],
      ),
      searchBacklog: new BatchInsert(db, 'INSERT INTO search_backlog (annotation_id)', 1),
      // Full-text tables take rows in batches: FTS5 writes out what it holds at every statement,
      // so one row per statement would cost a small index segment per row.
      storyIndex: new BatchInsert(db, 'INSERT INTO story_search (rowid, text)', 2, [], 500),
      sentences: new BatchInsert(
        db,
        'INSERT INTO sentences (story_id, idx, text)',
        3,
        [],
        2000,
        'ON CONFLICT DO NOTHING',
      ),
    }
  }

  write(submission: StoredSubmission): void {
    const workerId =
      submission.workerExternalId === null ? null : this.workerId(submission.workerExternalId)
    // A pulled answer that names no story is stored without one; it can have no annotations.
    const storyId =
      submission.storyExternalId === null
        ? null
        : this.storyId(submission.storyExternalId, submission.storyText)
    if (
      storyId === null &&
      (submission.annotations.length > 0 || submission.sentences.length > 0)
    ) {
      throw new Error(`${submission.sourceKey}: annotations need a story`)
    }
    for (const sentence of submission.sentences) {
      const key = (storyId ?? 0) * 65536 + sentence.index
      if (this.knownSentences.has(key)) continue
      this.batches.sentences.add(storyId, sentence.index, sentence.text)
      this.knownSentences.add(key)
    }
    const target = this.submissionFor(submission, workerId, storyId)
    const fresh = target.dimensions === 0
    if (target.matched && !this.options.partialRows) this.checkEscaped(submission, target)
    let added = 0
    for (const a of submission.annotations) {
      const bit = 1 << a.dimension
      if (target.dimensions & bit) {
        this.checkCells(submission, target.id, a)
        continue
      }
      if (!fresh) this.merged.add(target.id)
      target.dimensions |= bit
      added |= bit
      const id = annotationId(target.id, a.dimension)
      if (target.earlier) this.addedToEarlier.push(id)
      this.batches.annotations.add(
        id,
        target.id,
        a.dimension,
        workerId,
        storyId,
        submission.sentenceIndex,
        submission.submittedAt,
        submission.fileRating,
        // Until rating timelines are built, the file's value is the effective one.
        submission.fileRating,
        submission.fileRating === null ? 0 : 1,
        a.flags,
      )
      this.batches.texts.add(
        id,
        a.specificNL,
        a.specificStructured,
        a.generalNL,
        a.generalStructured,
      )
      // Submissions made since the last `finish()` join the backlog as one range there.
      if (target.id < this.backlogFrom) this.batches.searchBacklog.add(id)
      this.counts.annotations++
    }
    this.writtenRows?.add(target.id, added, workerId, submission.submittedAt, submission.fileRating)
  }

  /** How many submissions the writer holds by key now. */
  get remembered(): number {
    return this.submissions.size
  }

  /**
   * Keeps the submissions held by key bounded (a key and its entry cost ~150 bytes: 300 MB for the
   * two million submissions of ten million annotations): once full, the rows go out and the keys
   * are looked up in the project instead.
   */
  private bound(): void {
    if (this.submissions.size < (this.options.remember ?? REMEMBERED_SUBMISSIONS)) return
    for (const batch of Object.values(this.batches)) batch.flush()
    this.submissions.clear()
    this.forgotten = true
  }

  /** Writes what is still buffered; the writer can be used again afterwards. */
  finish(): void {
    for (const batch of Object.values(this.batches)) batch.flush()
    if (this.nextSubmissionId > this.backlogFrom) {
      this.backlogRange.run(
        annotationId(this.backlogFrom, 0),
        annotationId(this.nextSubmissionId, 0),
      )
      this.backlogFrom = this.nextSubmissionId
    }
    // A per-dimension row only knows its own dimension; the merged submission knows them all.
    if (this.merged.size > 0) {
      this.recountFlags.run(JSON.stringify([...this.merged]))
      this.merged.clear()
    }
    if (this.addedToEarlier.length > 0) {
      recordAddedAnnotations(this.db, this.addedToEarlier, this.changeSetId)
      this.addedToEarlier.length = 0
    }
  }

  /** A dimension the project holds for this submission that this whole row leaves escaped. */
  private checkEscaped(submission: StoredSubmission, target: { id: number; dimensions: number }) {
    let here = 0
    for (const a of submission.annotations) here |= 1 << a.dimension
    for (let d = 1; d <= 10; d++) {
      if (!(target.dimensions & (1 << d)) || here & (1 << d)) continue
      const there = this.find.cells.get(annotationId(target.id, d)) as
        Record<AnnotationCell, string | null> | undefined
      this.conflict(submission, target.id, d, 'specificNL', null, there?.specificNL ?? null)
    }
  }

  /** The cells of a dimension the submission already holds must say the same. */
  private checkCells(submission: StoredSubmission, targetId: number, a: ImportedAnnotation): void {
    // The other row may still be buffered (rows of one file).
    this.batches.texts.flush()
    const there = this.find.cells.get(annotationId(targetId, a.dimension)) as
      Record<AnnotationCell, string | null> | undefined
    if (!there) return
    for (const cell of ANNOTATION_CELLS) {
      const mine = a[cell]
      // A layout without Structured cells (the test set) says nothing about them, nor does the
      // test set without answers (`answered`) about the text.
      const theirs = there[cell]
      if (mine === null || theirs === null || mine === theirs) continue
      if (mine === HIDDEN || theirs === HIDDEN) continue
      this.conflict(submission, targetId, a.dimension, cell, mine, theirs)
    }
  }

  private conflict(
    submission: StoredSubmission,
    targetId: number,
    dimension: number,
    cell: AnnotationCell,
    here: string | null,
    there: string | null,
  ): void {
    this.conflictCount++
    if (this.conflicts.length >= CONFLICTS_KEPT) return
    const origin = this.find.origin.get(targetId) as
      { name: string | null; line: number | null; assignmentId: string | null } | undefined
    this.conflicts.push({
      line: submission.line,
      sourceKey: submission.sourceKey,
      dimension,
      cell,
      here,
      there,
      origin:
        origin?.name != null
          ? `${origin.name}:${origin.line ?? 0}`
          : `an MTurk pull (assignment ${origin?.assignmentId ?? '?'})`,
    })
  }

  private submissionFor(
    submission: StoredSubmission,
    workerId: number | null,
    storyId: number | null,
  ): SubmissionTarget {
    const seen = this.submissions.get(submission.sourceKey)
    if (seen) return seen
    this.bound()
    const existing =
      this.projectWasEmpty && !this.forgotten
        ? undefined
        : (this.find.submission.get(submission.sourceKey) as number | undefined)
    if (existing !== undefined) {
      const entry = {
        id: existing,
        dimensions: this.dimensionsOf(existing),
        earlier: true as const,
      }
      this.submissions.set(submission.sourceKey, entry)
      return entry
    }
    const same = this.projectWasEmpty ? undefined : this.sameWork(submission, workerId, storyId)
    if (same !== undefined) {
      const entry = {
        id: same,
        dimensions: this.dimensionsOf(same),
        matched: true as const,
        earlier: true as const,
      }
      this.submissions.set(submission.sourceKey, entry)
      if (submission.assignmentId !== null) this.giveAssignment.run(submission.assignmentId, same)
      return entry
    }
    const entry = { id: this.nextSubmissionId++, dimensions: 0 }
    this.submissions.set(submission.sourceKey, entry)
    this.batches.submissions.add(
      entry.id,
      submission.sourceKey,
      submission.assignmentId,
      workerId,
      submission.workerRef,
      storyId,
      submission.sentenceIndex,
      submission.submittedAt,
      submission.acceptedAt,
      submission.fileRating,
      submission.declaredFilled,
      this.sourceFileId,
      submission.line,
      this.changeSetId,
      submission.flags,
      submission.raw,
    )
    this.counts.submissions++
    return entry
  }

  private dimensionsOf(submissionId: number): number {
    let dimensions = 0
    for (const d of this.find.dimensions.all(submissionId, submissionId) as number[]) {
      dimensions |= 1 << d
    }
    return dimensions
  }

  /**
   * The submission another layout stored for the same worker's answer to the same sentence:
   * a release row (`e:` key) for an assignment (`a:` key), or the other way round. Renamed
   * repeats (`#2`) and rows whose experiment id disagrees with their story are never matched.
   */
  private sameWork(
    submission: StoredSubmission,
    workerId: number | null,
    storyId: number | null,
  ): number | undefined {
    const key = submission.sourceKey
    if (workerId === null || storyId === null || key.includes('#')) return undefined
    if (submission.flags & SubmissionFlag.IdMismatch) return undefined
    const other = key.startsWith('a:') ? 'e:' : key.startsWith('e:') ? 'a:' : undefined
    if (other === undefined) return undefined
    return this.find.sameWork.get(storyId, submission.sentenceIndex, workerId, other) as
      number | undefined
  }

  private workerId(externalId: string): number {
    let id = this.workerIds.get(externalId)
    if (id === undefined) {
      id =
        (this.find.worker.get(externalId) as number | undefined) ??
        Number(this.insert.worker.run(this.newId('worker', externalId), externalId).lastInsertRowid)
      this.workerIds.set(externalId, id)
    }
    return id
  }

  /** Null lets SQLite choose; a team replica names the row by its external id. */
  private newId(kind: 'worker' | 'story', externalId: string): number | null {
    return this.team ? sharedRowId(this.db, kind, externalId) : null
  }

  private storyId(externalId: string, text: string): number {
    let id = this.storyIds.get(externalId)
    if (id === undefined) {
      id = this.find.story.get(externalId) as number | undefined
      if (id === undefined) {
        id = Number(
          this.insert.story.run(this.newId('story', externalId), externalId, text).lastInsertRowid,
        )
        this.batches.storyIndex.add(id, text)
      }
      this.storyIds.set(externalId, id)
    }
    return id
  }
}

/**
 * Records `ids` as annotations change set `changeSetId` added, those of submissions another change
 * set wrote (an import's own files merge into its own submissions).
 */
export function recordAddedAnnotations(
  db: Db,
  ids: readonly (number | string | null)[],
  changeSetId: number,
): void {
  run(
    db,
    sql`INSERT OR IGNORE INTO added_annotations (annotation_id, change_set_id)
        SELECT j.value, ${changeSetId} FROM json_each(${JSON.stringify(ids)}) j
        WHERE (SELECT s.change_set_id FROM submissions s WHERE s.id = j.value >> 4) != ${changeSetId}`,
  )
}

export interface NewSourceFile {
  name: string
  path: string
  bytes: number
  format: string
  year: number | null
  changeSetId: number
}

/** The file's row, before its rows are written; `completeSourceFile` adds its hash and counts. */
export function insertSourceFile(db: Db, file: NewSourceFile): number {
  const result = run(
    db,
    sql`INSERT INTO source_files (id, name, path, sha256, bytes, format, year, imported_at,
          change_set_id, records, submissions_added, annotations_added, warnings)
        VALUES (${nextBandId(db, 'source_files')}, ${file.name}, ${file.path}, '', ${file.bytes}, ${file.format},
          ${file.year}, ${Date.now()}, ${file.changeSetId}, 0, 0, 0, '[]')`,
  )
  return Number(result.lastInsertRowid)
}

export function completeSourceFile(
  db: Db,
  id: number,
  done: { sha256: string; records: number; counts: WriteCounts; warnings: string[] },
): void {
  run(
    db,
    sql`UPDATE source_files SET sha256 = ${done.sha256}, records = ${done.records},
          submissions_added = ${done.counts.submissions},
          annotations_added = ${done.counts.annotations},
          warnings = ${JSON.stringify(done.warnings)}
        WHERE id = ${id}`,
  )
}
