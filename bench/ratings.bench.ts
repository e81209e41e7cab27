// Ratings on a million annotations: a worker rating change touching ~20,000 annotations, a full
// recomputation, "as of" counts and a bulk query rating — each beside the plain SQL formulation
// (a correlated subquery over the rating tables) run on the same file in the same script.
//   npx tsx bench/ratings.bench.ts [--quick]      (or: npm run bench -- ratings)
import { spawnSync } from 'node:child_process'
import { copyFileSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { type Db, all, openProject, pluck, run } from '../src/main/db/connection'
import { createChangeSet } from '../src/main/db/queries/changes/sets'
import { NOW, insertWorkerRating, workerRatingsInForce } from '../src/main/db/queries/ratings/rows'
import { fillSelection, previewWorkerSegments } from '../src/main/db/queries/ratings/apply'
import { plainEffectiveRating, plainUpdate } from '../tests/helpers/plainRatings'
import { projectStats } from '../src/main/db/queries/stats'
import { type SqlFragment, sql } from '../src/main/db/sql'
import { pastAnnotations } from '../src/main/ratings/asOf'
import { recomputeAll, workerTimeline } from '../src/main/ratings/effective'
import { rateFilter } from '../src/main/ratings/rateTargets'
import { rateWorker } from '../src/main/ratings/rate'
import { revertChangeSet } from '../src/main/ratings/revert'
import { changedSegments, segments } from '../src/main/ratings/timeline'
import { dataDir } from './lib/data'
import { quantile, table } from './lib/measure'
import { ensureProject } from './lib/project'
import { foldCountMoves } from '../src/main/db/queries/annotationCounts'

const quick = process.argv.includes('--quick')
// ≈ 4.7 annotations per submission: 213k submissions give about a million annotations.
const SHELL = '/usr/bin/sqlite3'
const SUBMISSIONS = quick ? 21_300 : 213_000
const TARGET = quick ? 2_000 : 20_000
const REPEATS = 5
const who = { author: 'bench' }

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6
}

function time<T>(f: () => T): { ms: number; value: T } {
  const start = process.hrtime.bigint()
  const value = f()
  return { ms: ms(start), value }
}

/** The busiest worker and a commit date whose change moves about TARGET annotations. */
function pickChange(db: Db): { workerId: number; from: number; value: number; moves: number } {
  const workerId = db
    .prepare(
      'SELECT worker_id FROM annotations WHERE worker_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1',
    )
    .pluck()
    .get() as number
  const days = db
    .prepare('SELECT DISTINCT submitted_at FROM annotations WHERE worker_id = ? ORDER BY 1')
    .pluck()
    .all(workerId) as number[]
  const before = workerTimeline(db, workerId)
  let best = { workerId, from: days[0] ?? 0, value: -2, moves: 0 }
  for (const from of days) {
    for (const value of [-2, 3]) {
      const after = segments([
        ...workerRatingsInForce(db, [workerId]),
        { id: Infinity, value, effectiveFrom: from, recordedAt: NOW },
      ])
      const moves = previewWorkerSegments(db, workerId, changedSegments(before, after)).reduce(
        (n, t) => n + t.count,
        0,
      )
      if (Math.abs(moves - TARGET) < Math.abs(best.moves - TARGET))
        best = { workerId, from, value, moves }
    }
  }
  return best
}

const median = (values: number[]) => quantile(values, 0.5)
const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1))

// The review benchmarks' project (as `winnow synth` writes it), shared with them in the cache.
const base = join(dataDir, quick ? 'review-100k.winnow' : 'review-1m.winnow')
ensureProject(base, SUBMISSIONS)
if (process.argv.includes('--build-only')) process.exit(0)
// Every run starts from the same file: what earlier runs wrote would change what is measured.
const path = join(dataDir, quick ? 'ratings-100k.run.winnow' : 'ratings-1m.run.winnow')
for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true })
copyFileSync(base, path)
const db = openProject(path)
const started = Date.now()
const annotations = db.prepare('SELECT count(*) FROM annotations').pluck().get() as number
console.log(`${annotations} annotations in ${path}`)
const results: (string | number)[][] = [
  ['operation', 'rows moved', 'winnow ms (median)', 'plain SQL ms (median)', 'plain / winnow'],
]

// 1. A worker rating change, applied and undone; the plain way rewrites the worker's rows. Run
// with SQLite's automatic checkpoint (the default: a commit past 1,000 WAL pages copies them into
// the file before returning) and with it deferred, as an app would do when idle.
{
  const change = pickChange(db)
  console.log(
    `worker ${change.workerId}: rating ${change.value} from ${new Date(change.from * 1000).toISOString().slice(0, 10)} moves ${change.moves}`,
  )
  const plainChange = (where: SqlFragment): number => {
    const plain = time(() =>
      db.transaction(() => {
        const cs = createChangeSet(db, { kind: 'manual', author: 'bench', description: 'plain' })
        insertWorkerRating(db, {
          workerId: change.workerId,
          value: change.value,
          effectiveFrom: change.from,
          recordedAt: cs.at,
          author: 'bench',
          note: '',
          changeSetId: cs.id,
        })
        plainUpdate(db, where)
        return cs.id
      })(),
    )
    revertChangeSet(db, plain.value, who)
    db.pragma('wal_checkpoint(PASSIVE)')
    return plain.ms
  }
  // The pieces of the worker's timeline the change moves, as the rating writes them.
  const pieces = changedSegments(
    workerTimeline(db, change.workerId),
    segments([
      ...workerRatingsInForce(db, [change.workerId]),
      { id: Infinity, value: change.value, effectiveFrom: change.from, recordedAt: NOW },
    ]),
  )
  const inPiece = (g: { start: number; until: number }) =>
    `worker_id = ${change.workerId} AND submitted_at >= ${g.start} AND submitted_at < ${g.until} AND rating_source != 2`
  /**
   * The sqlite3 shell's plain UPDATE of the same rows (the file's triggers firing row by row),
   * committed, REPEATS times; each undone afterwards from a copy of the old values, untimed.
   */
  const shellUpdate = (deferred: boolean): number[] => {
    const statements: { text: string; timed: boolean }[] = []
    const add = (text: string, timed = false) => statements.push({ text, timed })
    add(`PRAGMA wal_autocheckpoint = ${deferred ? 0 : 1000};`)
    add(
      `CREATE TEMP TABLE old AS SELECT id, rating, rating_source FROM annotations WHERE ${pieces.map((g) => `(${inPiece(g)})`).join(' OR ')};`,
    )
    for (let i = 0; i < REPEATS; i++) {
      add('BEGIN IMMEDIATE;', true)
      for (const g of pieces) {
        const value = g.value === null ? 'NULL' : String(g.value)
        add(
          `UPDATE annotations SET rating = ${value}, rating_source = ${g.value === null ? 0 : 1} WHERE ${inPiece(g)} AND rating IS NOT ${value};`,
          true,
        )
      }
      add('COMMIT;', true)
      add('BEGIN IMMEDIATE;')
      add(
        'UPDATE annotations SET rating = o.rating, rating_source = o.rating_source FROM temp.old o WHERE annotations.id = o.id;',
      )
      add('COMMIT;')
      if (deferred) add('PRAGMA wal_checkpoint(PASSIVE);')
    }
    const script = ['.timer on', ...statements.map((x) => x.text)].join('\n')
    const result = spawnSync(SHELL, [path], { input: script, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`sqlite3 failed: ${result.stderr}`)
    const times = [...result.stdout.matchAll(/Run Time: real ([\d.]+)/g)].map(
      (m) => Number(m[1]) * 1000,
    )
    if (times.length !== statements.length) throw new Error('sqlite3: a statement was not timed')
    const perRun: number[] = []
    let sum = 0
    statements.forEach((x, k) => {
      if (!x.timed) return
      sum += times[k] ?? NaN
      if (x.text === 'COMMIT;') {
        perRun.push(sum)
        sum = 0
      }
    })
    // The shell's triggers logged its moves; folded here, outside every figure.
    db.transaction(() => foldCountMoves(db))()
    db.pragma('wal_checkpoint(PASSIVE)')
    return perRun
  }
  for (const deferred of [false, true]) {
    db.pragma(`wal_autocheckpoint = ${deferred ? 0 : 1000}`)
    const apply: number[] = []
    const undo: number[] = []
    const plainWorker: number[] = []
    const plainFrom: number[] = []
    for (let i = 0; i < REPEATS; i++) {
      const applied = time(() =>
        rateWorker(db, {
          ...who,
          workerId: change.workerId,
          value: change.value,
          from: change.from,
        }),
      )
      if (applied.value.changed !== change.moves) {
        throw new Error(`moved ${applied.value.changed}, expected ${change.moves}`)
      }
      apply.push(applied.ms)
      if (deferred) db.pragma('wal_checkpoint(PASSIVE)')
      undo.push(time(() => revertChangeSet(db, applied.value.changeSet as number, who)).ms)
      if (deferred) db.pragma('wal_checkpoint(PASSIVE)')
      plainWorker.push(plainChange(sql`a.worker_id = ${change.workerId}`))
      plainFrom.push(
        plainChange(sql`a.worker_id = ${change.workerId} AND a.submitted_at >= ${change.from}`),
      )
    }
    const how = deferred ? 'checkpoint deferred' : 'automatic checkpoint'
    const row = (label: string, ours: number[], plain: number[]) =>
      results.push([
        label,
        change.moves,
        fmt(median(ours)),
        fmt(median(plain)),
        (median(plain) / median(ours)).toFixed(1),
      ])
    const shell = shellUpdate(deferred)
    row(`worker rating change, apply (${how})`, apply, plainWorker)
    row(
      `… against the sqlite3 shell's plain UPDATE of those rows, committed (${how})`,
      apply,
      shell,
    )
    row(`… against plain over rows from the commit date (${how})`, apply, plainFrom)
    row(`worker rating change, undo = revert (${how})`, undo, plainWorker)
  }
  db.pragma('wal_autocheckpoint = 1000')
  // The floor any approach pays: a bare UPDATE of exactly those rows (rolled back, no commit),
  // and the same without the review indexes that hold `rating` (dropped inside that transaction).
  const bare = (withoutIndexes: string[]) => {
    db.exec('BEGIN IMMEDIATE')
    for (const name of withoutIndexes) db.exec(`DROP INDEX "${name}"`)
    const t = time(() => {
      for (const g of pieces) {
        run(
          db,
          sql`UPDATE annotations SET rating = ${g.value} WHERE worker_id = ${change.workerId}
          AND submitted_at >= ${g.start} AND submitted_at < ${g.until} AND rating_source != 2`,
        )
      }
    })
    db.exec('ROLLBACK')
    return t.ms
  }
  const ratingIndexes = all<{ name: string }>(
    db,
    sql`SELECT DISTINCT s.name FROM sqlite_schema s, pragma_index_info(s.name) c
        WHERE s.type = 'index' AND s.tbl_name = 'annotations' AND c.name = 'rating'`,
  ).map((r) => r.name)
  const floor = Array.from({ length: REPEATS }, () => bare([]))
  const noIndexes = Array.from({ length: REPEATS }, () => bare(ratingIndexes))
  results.push([
    'bare UPDATE of the same rows, no commit (floor)',
    change.moves,
    fmt(median(floor)),
    '',
    '',
  ])
  results.push([
    `… without ${ratingIndexes.join(', ')}`,
    change.moves,
    fmt(median(noIndexes)),
    '',
    '',
  ])
}

// 2. Full recomputation: from a wiped cache, and on a consistent one (reads only).
{
  const wiped: number[] = []
  const plain: number[] = []
  let moved = 0
  const runs = quick ? REPEATS : 3
  for (let i = 0; i < runs; i++) {
    db.exec('UPDATE annotations SET rating = NULL, rating_source = 0')
    const r = time(() => db.transaction(() => recomputeAll(db))())
    wiped.push(r.ms)
    moved = r.value
    db.exec('UPDATE annotations SET rating = NULL, rating_source = 0')
    plain.push(time(() => db.transaction(() => plainUpdate(db))()).ms)
  }
  const consistent = Array.from({ length: runs }, () => time(() => recomputeAll(db)).ms)
  results.push([
    'full recomputation (cache wiped)',
    moved,
    fmt(median(wiped)),
    fmt(median(plain)),
    (median(plain) / median(wiped)).toFixed(1),
  ])
  results.push([
    'full recomputation (cache already right)',
    0,
    fmt(median(consistent)),
    fmt(median(plain)),
    (median(plain) / median(consistent)).toFixed(1),
  ])
}

// 3. Counts by rating as of a moment, against the plain correlated subquery at that moment.
{
  const moments: [string, number][] = [
    ['before this run (one worker differs)', started - 1],
    ['before the import (every row differs)', 0],
  ]
  for (const [label, asOf] of moments) {
    const ours = time(() => projectStats(db, pastAnnotations(db, asOf)).byRating)
    const plain = time(() =>
      all<{ n: number }>(
        db,
        sql`SELECT ${plainEffectiveRating(asOf)} AS r, count(*) AS n FROM annotations a GROUP BY 1`,
      ),
    )
    const plainTotal = plain.value.reduce((n, r) => n + r.n, 0)
    if (plainTotal !== annotations) throw new Error('plain as-of count mismatch')
    results.push([
      `stats --as-of ${label}`,
      annotations,
      fmt(ours.ms),
      fmt(plain.ms),
      (plain.ms / ours.ms).toFixed(1),
    ])
  }
}

// 4. A bulk rating of a whole query (preview, apply, revert), against a plain item insert + update.
{
  const filter = { dimensions: [1, 6] }
  const preview = time(() => rateFilter(db, filter, { ...who, value: 1.5, preview: true }))
  const applied = time(() => rateFilter(db, filter, { ...who, value: 1.5 }))
  const reverted = time(() => revertChangeSet(db, applied.value.changeSet as number, who))
  const plain = time(() =>
    db.transaction(() => {
      const cs = createChangeSet(db, { kind: 'bulk', author: 'bench', description: 'plain' })
      fillSelection(db, sql`SELECT id FROM annotations WHERE dimension IN (1, 6)`)
      db.prepare(
        `INSERT INTO item_ratings (annotation_id, value, recorded_at, author, note, change_set_id)
         SELECT id, 1.5, ?, 'bench', '', ? FROM annotations WHERE dimension IN (1, 6)`,
      ).run(cs.at, cs.id)
      plainUpdate(db, sql`a.dimension IN (1, 6)`)
      return cs.id
    })(),
  )
  revertChangeSet(db, plain.value, who)
  results.push(['bulk query rating: preview', preview.value.changed, fmt(preview.ms), '', ''])
  results.push([
    'bulk query rating: apply',
    applied.value.changed,
    fmt(applied.ms),
    fmt(plain.ms),
    (plain.ms / applied.ms).toFixed(1),
  ])
  results.push(['bulk query rating: revert', reverted.value.changed, fmt(reverted.ms), '', ''])
}

// The cache must equal the plain formulation everywhere after all of this.
const wrong = pluck<number>(
  db,
  sql`SELECT count(*) FROM annotations a WHERE a.rating IS NOT ${plainEffectiveRating()}`,
)
console.log(
  `\nload average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(
      ' ',
    )}\n${table(results)}\n\nannotations whose cached rating differs from the plain formulation: ${wrong}`,
)
db.close()
