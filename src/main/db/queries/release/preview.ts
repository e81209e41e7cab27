import type { Db } from '../../connection'
import { all, run } from '../../connection'
import { sql } from '../../sql'
import type { ReleaseSource } from './rows'

/** Counts of one tier and held-out part (null: not held out) of a release's source. */
export interface PreviewGroup {
  tier: number
  held: 'test' | 'dev' | null
  rows: number
  annotations: number
  stories: number
  workers: number
}

/**
 * What a release of `source` would hold, counted by tier (through the chosen rating → tier map)
 * and by held-out part (stories by their ids as the files write them). Rows are submissions and
 * workers are told apart as the files name them (id, or the raw reference of a worker unknown
 * to the project), so the counts are the ones the export writes.
 */
export function previewGroups(
  db: Db,
  source: ReleaseSource,
  tierOfRating: ReadonlyMap<number, number>,
  held: { test: ReadonlySet<string>; dev: ReadonlySet<string> },
): PreviewGroup[] {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS release_preview_tiers
             (rating REAL PRIMARY KEY, tier INTEGER NOT NULL)`)
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS release_preview_held
             (story_id INTEGER PRIMARY KEY, part TEXT NOT NULL)`)
  try {
    for (const [rating, tier] of tierOfRating) {
      run(db, sql`INSERT INTO temp.release_preview_tiers VALUES (${rating}, ${tier})`)
    }
    for (const [part, stories] of [
      ['test', held.test],
      ['dev', held.dev],
    ] as const) {
      for (const story of stories) {
        run(
          db,
          sql`INSERT OR IGNORE INTO temp.release_preview_held
              SELECT id, ${part} FROM stories WHERE external_id = ${story}`,
        )
      }
    }
    return all<PreviewGroup>(
      db,
      sql`SELECT m.tier AS tier, h.part AS held,
            count(DISTINCT a.submission_id) AS rows, count(*) AS annotations,
            count(DISTINCT a.story_id) AS stories,
            count(DISTINCT coalesce(w.external_id, s.worker_ref, '')) AS workers
          FROM ${source.from}
          CROSS JOIN temp.release_preview_tiers AS m ON m.rating = a.rating
          CROSS JOIN submissions AS s ON s.id = a.submission_id
          LEFT JOIN workers AS w ON w.id = s.worker_id
          LEFT JOIN temp.release_preview_held AS h ON h.story_id = a.story_id
          GROUP BY m.tier, h.part`,
    )
  } finally {
    db.exec('DELETE FROM temp.release_preview_tiers; DELETE FROM temp.release_preview_held')
  }
}

/** Annotations of the source no tier takes, by effective rating (null: unrated). */
export function previewUntiered(
  db: Db,
  source: ReleaseSource,
  tierOfRating: ReadonlyMap<number, number>,
): { rating: number | null; annotations: number }[] {
  const ratings = [...tierOfRating.keys()]
  return all<{ rating: number | null; annotations: number }>(
    db,
    sql`SELECT a.rating AS rating, count(*) AS annotations FROM ${source.from}
        WHERE a.rating IS NULL ${ratings.length > 0 ? sql`OR a.rating NOT IN ${sql.list(ratings)}` : sql`OR 1`}
        GROUP BY a.rating`,
  )
}
