import type { AnnotationFilter } from '../../../../shared/filter'
import { isEmptyFilter } from '../../../../shared/filter'
import type { Db } from '../../connection'
import { all, get, pluck, run } from '../../connection'
import { type SqlFragment, sql } from '../../sql'
import { lastRatingActivity } from '../ratings/rows'
import { constraintsOf } from '../review/count'
import { asOfPlan, drivingPlan } from '../review/plan'

/**
 * The rows a release reads: annotations (with their ratings as they stood in `past`, a past view
 * from ratingsAsOf.ts; null for the present), narrowed to a review filter when there is one. The
 * filter's matches are read once into a temp table, so the long read afterwards walks them in id
 * order whatever index found them.
 */
export interface ReleaseSource {
  /** FROM clause with alias `a` for annotations. */
  from: SqlFragment
  /** True when a filter narrows the annotations (a submission may then be read in part). */
  filtered: boolean
}

export function releaseSource(
  db: Db,
  filter: AnnotationFilter | undefined,
  past: SqlFragment | null,
): ReleaseSource {
  const relation = past ?? sql`annotations`
  if (!filter || isEmptyFilter(filter)) return { from: sql`${relation} AS a`, filtered: false }
  db.exec('CREATE TEMP TABLE IF NOT EXISTS release_selection (id INTEGER PRIMARY KEY)')
  db.exec('DELETE FROM temp.release_selection')
  const c = constraintsOf(db, filter)
  if (!c.none) {
    const plan = past ? asOfPlan(past, c) : drivingPlan(db, c)
    for (const branch of plan.branches) {
      run(
        db,
        sql`INSERT OR IGNORE INTO temp.release_selection SELECT a.id FROM ${plan.from} WHERE ${branch}`,
      )
    }
  }
  return {
    from: sql`temp.release_selection AS sel CROSS JOIN ${relation} AS a ON a.id = sel.id`,
    filtered: true,
  }
}

/** One annotation of a release, with its submission's columns (`raw` order of the statement). */
export type ReleaseRow = [
  annotationId: number,
  submissionId: number,
  dimension: number,
  rating: number | null,
  workerId: number | null,
  workerRef: string | null,
  storyId: number,
  sentenceIndex: number,
  submittedAt: number | null,
  specificNL: string,
  specificStructured: string | null,
  generalNL: string,
  generalStructured: string | null,
  /** The file's `number_filled_in`, kept as written. */
  declaredFilled: number | null,
  /** The submission's annotations in the project; null when the source is the whole project. */
  annotationsOfSubmission: number | null,
]

/** Every annotation of the source in id order (so a submission's annotations come together). */
export function releaseRows(db: Db, source: ReleaseSource): IterableIterator<ReleaseRow> {
  const query = sql`SELECT a.id, a.submission_id, a.dimension, a.rating, s.worker_id, s.worker_ref,
          s.story_id, s.sentence_index, s.submitted_at,
          t.specific_nl, t.specific_structured, t.general_nl, t.general_structured,
          s.declared_filled, ${
            source.filtered
              ? sql`(SELECT count(*) FROM annotations AS x
                  WHERE x.id BETWEEN s.id * 16 AND s.id * 16 + 15)`
              : sql`NULL`
          }
        FROM ${source.from}
        CROSS JOIN submissions AS s ON s.id = a.submission_id
        CROSS JOIN annotation_texts AS t ON t.annotation_id = a.id
        ORDER BY a.id`
  // A statement of its own (not the shared cache): `raw` changes the statement.
  const statement = db.prepare(query.text).raw(true)
  return statement.iterate(...query.values) as IterableIterator<ReleaseRow>
}

/** How many annotations the source holds (for progress). */
export function countReleaseSource(db: Db, source: ReleaseSource): number {
  return pluck<number>(db, sql`SELECT count(*) FROM ${source.from}`) ?? 0
}

/** Story ids (as the files write them) of the source's annotations with one of these ratings. */
export function storiesRated(db: Db, source: ReleaseSource, ratings: readonly number[]): string[] {
  if (ratings.length === 0) return []
  return all<{ id: string }>(
    db,
    sql`SELECT DISTINCT st.external_id AS id FROM ${source.from}
        CROSS JOIN stories AS st ON st.id = a.story_id
        WHERE a.rating IN ${sql.list(ratings)} ORDER BY 1`,
  ).map((r) => r.id)
}

export interface StoryText {
  externalId: string
  text: string
  sentences: string[]
}

/** One story with its sentences (by index), or undefined when there is none of that id. */
export function storyById(db: Db, id: number): StoryText | undefined {
  const story = get<{ external_id: string; text: string }>(
    db,
    sql`SELECT external_id, text FROM stories WHERE id = ${id}`,
  )
  if (!story) return undefined
  const sentences: string[] = []
  for (const s of all<{ idx: number; text: string }>(
    db,
    sql`SELECT idx, text FROM sentences WHERE story_id = ${id}`,
  )) {
    sentences[s.idx] = s.text
  }
  return { externalId: story.external_id, text: story.text, sentences }
}

export function workerIdsById(db: Db): Map<number, string> {
  return new Map(
    all<{ id: number; external_id: string }>(db, sql`SELECT id, external_id FROM workers`).map(
      (w) => [w.id, w.external_id],
    ),
  )
}

/**
 * The pseudonym of every worker: small integers from 1, kept in the project so a worker keeps
 * theirs from one release to the next. Workers without one get the next numbers, in id order.
 */
export function workerPseudonyms(db: Db): Map<number, number> {
  db.transaction(() => {
    run(
      db,
      sql`INSERT INTO worker_pseudonyms (worker_id, pseudonym)
          SELECT w.id, (SELECT coalesce(max(pseudonym), 0) FROM worker_pseudonyms)
                       + row_number() OVER (ORDER BY w.id)
          FROM workers AS w WHERE w.id NOT IN (SELECT worker_id FROM worker_pseudonyms)`,
    )
  }).immediate()
  return new Map(
    all<{ worker_id: number; pseudonym: number }>(
      db,
      sql`SELECT worker_id, pseudonym FROM worker_pseudonyms`,
    ).map((r) => [r.worker_id, r.pseudonym]),
  )
}

export interface SourceFileRecord {
  name: string
  sha256: string
  bytes: number
  format: string
  importedAt: number
  records: number
}

export function sourceFileRecords(db: Db): SourceFileRecord[] {
  return all<SourceFileRecord>(
    db,
    sql`SELECT name, sha256, bytes, format, imported_at AS importedAt, records
        FROM source_files ORDER BY id`,
  )
}

export interface ChangeSetRecord {
  id: number
  kind: string
  author: string
  /** Epoch ms. */
  createdAt: number
  description: string
  reverts: number | null
  /** The change set that reverted this one, by the moment of the release. */
  revertedBy: number | null
  /** Annotations whose effective rating it changed, when recorded. */
  changed: number | null
  /** For a policy's change set: the policy's name and the SHA-256 of its script. */
  policyName: string | null
  policySha256: string | null
}

/**
 * Every change set of ratings recorded by `asOf` (epoch ms; all for the present), oldest first:
 * imports, ratings, policies, MTurk actions and their reverts. Triage, audits (the datasheet lists
 * audits apart), settings (the manifest holds them) and CROWDAQ or ProtoQA edits are left out,
 * and so are their reverts.
 */
const RATING_KINDS = ['import', 'manual', 'bulk', 'policy', 'revert', 'mturk']

export function changeSetsUpTo(db: Db, asOf: number | undefined): ChangeSetRecord[] {
  const until = asOf ?? Number.MAX_SAFE_INTEGER
  return all<ChangeSetRecord>(
    db,
    sql`SELECT c.id, c.kind, c.author, c.created_at AS createdAt, c.description, c.reverts,
          (SELECT min(r.id) FROM change_sets AS r WHERE r.reverts = c.id AND r.created_at <= ${until})
            AS revertedBy,
          e.changed, p.name AS policyName, p.sha256 AS policySha256
        FROM change_sets AS c LEFT JOIN rating_effects AS e ON e.change_set_id = c.id
          LEFT JOIN policy_runs AS p ON p.change_set_id = c.id
        WHERE c.created_at <= ${until}
          AND c.kind IN ${sql.list(RATING_KINDS)}
          AND NOT EXISTS (SELECT 1 FROM change_entries x WHERE x.change_set_id IN (c.id, c.reverts))
          AND (c.reverts IS NULL
            OR (SELECT t.kind FROM change_sets t WHERE t.id = c.reverts) IN ${sql.list(RATING_KINDS)})
        ORDER BY c.id`,
  )
}

/** The moment ratings last changed (epoch ms), or null when nothing was ever rated. */
export function ratingSnapshot(db: Db, asOf: number | undefined): number | null {
  const last = lastRatingActivity(db)
  const latest = last > 0 ? last : null
  if (asOf === undefined) return latest
  return latest === null ? null : Math.min(asOf, latest)
}

export function recordExport(
  db: Db,
  record: { createdAt: number; author: string; folder: string; manifest: unknown },
): void {
  db.transaction(() => {
    run(
      db,
      sql`INSERT INTO exports (created_at, author, folder, manifest)
          VALUES (${record.createdAt}, ${record.author}, ${record.folder}, ${JSON.stringify(record.manifest)})`,
    )
  }).immediate()
}
