import {
  type SavedView,
  type SavedViewInput,
  savedViewSchema,
} from '../../../../shared/contract/review'
import type { Db } from '../../connection'
import { all, run } from '../../connection'
import { sql } from '../../sql'

/**
 * Named grid views (filter, sort, column layout) saved in the project. A stored view that no
 * longer parses (an older filter vocabulary) is left out of the list rather than breaking it.
 */
export function listViews(db: Db): SavedView[] {
  const rows = all<{ name: string; body: string; savedAt: number }>(
    db,
    sql`SELECT name, body, saved_at AS savedAt FROM review_views ORDER BY name COLLATE NOCASE, name`,
  )
  const views: SavedView[] = []
  for (const row of rows) {
    let body: unknown
    try {
      body = JSON.parse(row.body)
    } catch {
      continue
    }
    const parsed = savedViewSchema.safeParse({ ...(body as object), name: row.name })
    if (parsed.success) views.push({ ...parsed.data, savedAt: row.savedAt })
  }
  return views
}

/** Saves a view under its name, replacing one of the same name. */
export function saveView(db: Db, input: SavedViewInput): SavedView {
  const view = savedViewSchema.parse(input)
  const savedAt = Date.now()
  const { name, ...body } = view
  run(
    db,
    sql`INSERT INTO review_views (name, body, saved_at) VALUES (${name}, ${JSON.stringify(body)}, ${savedAt})
        ON CONFLICT (name) DO UPDATE SET body = excluded.body, saved_at = excluded.saved_at`,
  )
  return { ...view, savedAt }
}

export function deleteView(db: Db, name: string): boolean {
  return run(db, sql`DELETE FROM review_views WHERE name = ${name.trim()}`).changes > 0
}
