import type { StoryMatch } from '../../../shared/contract/review'
import type { Db } from '../connection'
import { all, pluck } from '../connection'
import { sql } from '../sql'

/** Characters of a story shown beside its id in the type-ahead. */
const OPENING_CHARS = 80

/**
 * Type-ahead over story ids: the ids that start with `query` (the grid shows their first
 * characters), in order, each with its annotations and how the story opens.
 */
export function storyMatches(db: Db, query: string, limit: number): StoryMatch[] {
  const prefix = query.trim()
  if (!prefix) return []
  // A range on the unique index: every id that starts with `prefix` sorts between these two.
  const stories = all<{ id: number; externalId: string; opening: string }>(
    db,
    sql`SELECT id, external_id AS externalId, substr(text, 1, ${OPENING_CHARS}) AS opening
        FROM stories WHERE external_id >= ${prefix} AND external_id < ${`${prefix}\u{10FFFF}`}
        ORDER BY external_id LIMIT ${limit}`,
  )
  return stories.map((s) => ({
    storyId: s.externalId,
    opening: s.opening,
    annotations:
      pluck<number>(
        db,
        sql`SELECT count(*) FROM annotations INDEXED BY ann_story WHERE story_id = ${s.id}`,
      ) ?? 0,
  }))
}
