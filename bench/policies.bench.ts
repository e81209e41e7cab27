// The shipped GLUCOSE cleanup policy on a million annotations: dry run, apply and revert, each
// beside hand-written SQL UPDATE statements doing the same moves on a copy of the same file.
// Sandbox start-up and the script's run are reported apart. Then a policy of 1,000 rules (by
// worker, rating, dimension and days) dry runs beside the cleanup's 4.
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

/** 1,000 rules, each asking about one or two of a worker, a rating, a dimension and days. */
const manyRules = `import { definePolicy, rule } from './winnow-policy'
export default definePolicy({
  name: 'Many rules',
  params: {},
  rules(facts) {
    const workers = facts.workers.map((w) => w.id)
    const ratings = facts.scale.map((s) => s.value)
    const days = { from: facts.firstSubmission, to: facts.firstSubmission }
    const out = []
    for (let i = 0; i < 1000; i++) {
      const r = ratings[i % ratings.length]
      const where = [
        { workers: [workers[i % workers.length]] },
        { ratings: [r], dimensions: [1 + (i % 10)] },
        { submitted: days, ratings: [ratings[(i + 1) % ratings.length]] },
        { workers: [workers[(i * 7) % workers.length]], ratings: [r] },
      ][i % 4]
      out.push(rule({ name: 'rule ' + i, where, to: r }))
    }
    return out
  },
})
`

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
const [many, manyDry] = await time(() =>
  dryRunPolicy(db, { source: manyRules, fileName: 'many-rules.ts' }),
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
const parts = (t: typeof report.timings): string =>
  `sandbox start ${t.sandboxMs.toFixed(0)} ms, facts ${t.factsMs.toFixed(0)} ms, script ${t.scriptMs.toFixed(0)} ms, select and count ${t.selectMs.toFixed(0)} ms`
console.log(`dry run parts: ${parts(report.timings)}`)
console.log(
  `1,000 rules: dry run ${manyDry.toFixed(2)} s, ${(manyDry / dry).toFixed(1)}× the cleanup's (4 rules); ${many.changed} annotations move; ${parts(many.timings)}`,
)
for (const p of [ours, reference])
  for (const s of ['', '-wal', '-shm']) rmSync(p + s, { force: true })
