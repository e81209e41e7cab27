import type { Db } from '../../src/main/db/connection'

/** A change set as another replica would receive it: kind, author, time, global id and entries. */
export interface Shipped {
  id: number
  uid: string
  kind: string
  author: string
  at: number
  description: string
  entries: { subject: string; key: unknown; value: unknown }[]
}

/** Every change set after `afterId`, oldest first, read straight from the project file. */
export function changeSetsAfter(db: Db, afterId = 0): Shipped[] {
  const sets = db
    .prepare(
      `SELECT id, uid, kind, author, created_at AS at, description FROM change_sets
       WHERE id > ? ORDER BY id`,
    )
    .all(afterId) as Omit<Shipped, 'entries'>[]
  const entries = db.prepare(
    'SELECT subject, key, value FROM change_entries WHERE change_set_id = ? ORDER BY id',
  )
  return sets.map((s) => ({
    ...s,
    entries: (entries.all(s.id) as { subject: string; key: string; value: string | null }[]).map(
      (e) => ({
        subject: e.subject,
        key: JSON.parse(e.key) as unknown,
        value: e.value === null ? null : (JSON.parse(e.value) as unknown),
      }),
    ),
  }))
}

export function lastChangeSetId(db: Db): number {
  return (db.prepare('SELECT coalesce(max(id), 0) FROM change_sets').pluck().get() as number) ?? 0
}
