import type { StoryMatch } from '../../../shared/contract/review'
import type { Db } from '../connection'
import { all } from '../connection'
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
  return all<StoryMatch>(
    db,
    sql`SELECT s.external_id AS storyId, substr(s.text, 1, ${OPENING_CHARS}) AS opening,
          (SELECT count(*) FROM annotations INDEXED BY ann_story WHERE story_id = s.id) AS annotations
        FROM stories s
        WHERE s.external_id >= ${prefix} AND s.external_id < ${`${prefix}\u{10FFFF}`}
        ORDER BY s.external_id LIMIT ${limit}`,
  )
}
