// The shipped GLUCOSE cleanup policy on a million annotations: dry run, apply and revert, each
// beside hand-written SQL UPDATE statements doing the same moves on a copy of the same file.
// Sandbox start-up and the script's run are reported apart.
//   npx tsx bench/policies.bench.ts [--quick]      (or: npm run bench -- policies)
import { copyFileSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { openProject } from '../src/main/db/connection'
import { applyPolicy, dryRunPolicy } from '../src/main/policies/run'
import { revertChangeSet } from '../src/main/ratings/revert'
import { dataDir } from './lib/data'
import { table } from './lib/measure'
import { ensureProject } from './lib/project'

const quick = process.argv.includes('--quick')
const SUBMISSIONS = quick ? 21_300 : 213_000
const source = readFileSync(join(import.meta.dirname, '../policies/glucose-cleanup.ts'), 'utf8')

const base = join(dataDir, `review-${SUBMISSIONS}.winnow`)
ensureProject(base, SUBMISSIONS)
const ours = join(dataDir, `policy-ours-${SUBMISSIONS}.winnow`)
const reference = join(dataDir, `policy-sql-${SUBMISSIONS}.winnow`)
for (const p of [ours, reference]) {
  for (const s of ['', '-wal', '-shm']) rmSync(p + s, { force: true })
  copyFileSync(base, p)
}

const time = async <T>(f: () => T | Promise<T>): Promise<[T, number]> => {
  const start = performance.now()
  const value = await f()
  return [value, (performance.now() - start) / 1000]
}

const db = openProject(ours)
const annotations = db.prepare('SELECT count(*) FROM annotations').pluck().get() as number
const input = { source, fileName: 'glucose-cleanup.ts' }
const [report, dry] = await time(() => dryRunPolicy(db, input))
const [applied, apply] = await time(() =>
  applyPolicy(db, { ...input, basis: report.basis, author: 'bench' }),
)
const [, revert] = await time(() =>
  revertChangeSet(db, applied.changeSet ?? 0, { author: 'bench' }),
)
db.close()

// The same moves by hand: one UPDATE per rule (the cleanup's defaults demote no 3), the moved
// rows kept aside for the "revert" (their old values written back).
const ref = openProject(reference)
// A dry run by hand: the 3-rated submissions per worker (who is prolific, who is checked), then
// the transitions of the moves.
const [, sqlDry] = await time(() => {
  ref
    .prepare(
      `SELECT worker_id, count(DISTINCT id >> 4) FROM annotations WHERE rating = 3 GROUP BY worker_id`,
    )
    .all()
  return ref
    .prepare(
      `SELECT rating, CASE WHEN rating = -2 THEN 2 ELSE 1 END AS "to", count(*) FROM annotations
       WHERE rating IN (-2, 1.5, 0, -1) GROUP BY 1, 2`,
    )
    .all()
})
const [, sqlApply] = await time(() =>
  ref
    .transaction(() => {
      ref.exec(`CREATE TEMP TABLE old AS SELECT id, rating, rating_source FROM annotations
                WHERE rating IN (-2, 1.5, 0, -1)`)
      ref.exec(`UPDATE annotations SET rating = 2, rating_source = 2 WHERE rating = -2`)
      ref.exec(`UPDATE annotations SET rating = 1, rating_source = 2 WHERE rating IN (1.5, 0, -1)`)
    })
    .immediate(),
)
const [, sqlRevert] = await time(() =>
  ref
    .transaction(() => {
      ref.exec(`UPDATE annotations SET (rating, rating_source) = (o.rating, o.rating_source)
                FROM temp.old o WHERE annotations.id = o.id`)
    })
    .immediate(),
)
ref.close()

console.log(`${annotations} annotations; the policy moves ${report.changed}`)
console.log(
  table([
    ['step', 'policy (s)', 'SQL UPDATE (s)', 'ratio'],
    ['dry run', dry.toFixed(2), sqlDry.toFixed(2), (dry / sqlDry).toFixed(1)],
    ['apply', apply.toFixed(2), sqlApply.toFixed(2), (apply / sqlApply).toFixed(1)],
    ['revert', revert.toFixed(2), sqlRevert.toFixed(2), (revert / sqlRevert).toFixed(1)],
  ]),
)
const t = report.timings
console.log(
  `dry run parts: sandbox start ${t.sandboxMs.toFixed(0)} ms, facts ${t.factsMs.toFixed(0)} ms, script ${t.scriptMs.toFixed(0)} ms, select and count ${t.selectMs.toFixed(0)} ms`,
)
for (const p of [ours, reference])
  for (const s of ['', '-wal', '-shm']) rmSync(p + s, { force: true })
