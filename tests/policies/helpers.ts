import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from '../../src/main/db/connection'
import { all } from '../../src/main/db/connection'
import { sql } from '../../src/main/db/sql'

export const policiesDir = join(import.meta.dirname, '../../policies')

export function shippedPolicy(name: string): string {
  return readFileSync(join(policiesDir, name), 'utf8')
}

/** A policy file's text from rules written as JavaScript (the body of `rules`). */
export function policyText(
  rulesBody: string,
  { params = '{}', before = '' }: { params?: string; before?: string } = {},
): string {
  return `import { definePolicy, rule } from './winnow-policy'
${before}
export default definePolicy({
  name: 'Test policy',
  params: ${params},
  rules(facts, params) {
${rulesBody}
  },
})
`
}

/** Every annotation's effective rating and source, by id. */
export function ratingsSnapshot(db: Db): { id: number; rating: number | null; source: number }[] {
  return all(db, sql`SELECT id, rating, rating_source AS source FROM annotations ORDER BY id`)
}

/** Row counts of every rating table: "nothing changed" is these and the snapshot unchanged. */
export function tableCounts(db: Db): Record<string, number> {
  const out: Record<string, number> = {}
  for (const t of [
    'change_sets',
    'item_ratings',
    'worker_ratings',
    'rating_retractions',
    'policy_runs',
  ]) {
    out[t] = (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n
  }
  return out
}
