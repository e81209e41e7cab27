// The Today page, the dashboard's aggregates and an audit's draw on a million annotations (ten
// million with `--scale 10m`), each beside the same aggregate as a plain GROUP BY (or ORDER BY
// random()) run by the sqlite3 shell on the same file in the same script. Writes its figures into
// docs/benchmarks.md ("Today, audits and dashboard", "… at ten million").
//   npx tsx bench/triage.bench.ts [--quick] [--scale 1m|10m]      (or: npm run bench -- triage)
import { spawnSync } from 'node:child_process'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { drawIds } from '../src/main/audits/draw'
import { openProject, pluck } from '../src/main/db/connection'
import {
  dimensionsFilled,
  submissionsPerDay,
  tierOverTime,
  workerDimensions,
} from '../src/main/db/queries/dashboard'
import { sql } from '../src/main/db/sql'
import { dashboard } from '../src/main/dashboard/charts'
import { ratingShares } from '../src/main/ratings/ratingShares'
import { triageReport } from '../src/main/triage/report'
import { dayStart, formatDay } from '../src/shared/filter'
import { writeSection } from './lib/benchmarksDoc'
import { dataDir } from './lib/data'
import { hasCommand, quantile, table } from './lib/measure'
import { ensureProject } from './lib/project'

const quick = process.argv.includes('--quick')
const scaleAt = process.argv.indexOf('--scale')
const scale = scaleAt >= 0 ? (process.argv[scaleAt + 1] ?? '1m') : '1m'
if (scale !== '1m' && scale !== '10m') throw new Error('--scale takes 1m or 10m')
const tenMillion = scale === '10m' && !quick
const SUBMISSIONS = quick ? 21_300 : tenMillion ? 2_130_000 : 213_000
// At ten million the shell's plain GROUP BYs take seconds each: three runs, not five.
const REPEATS = tenMillion ? 3 : 5
const SHELL = '/usr/bin/sqlite3'

const path = join(
  dataDir,
  quick ? 'review-100k.winnow' : tenMillion ? 'review-10m.winnow' : 'review-1m.winnow',
)
ensureProject(path, SUBMISSIONS)
const db = openProject(path)
const annotations = pluck<number>(db, sql`SELECT count(*) FROM annotations`) ?? 0
const last = pluck<number>(db, sql`SELECT max(submitted_at) FROM annotations`) ?? 0
const lastDay = formatDay(last)
const weekFrom = formatDay(dayStart(lastDay) - 6 * 86_400)
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')
console.log(`${annotations} annotations in ${path}; load average ${load}`)

function ms(f: () => unknown): number {
  const start = process.hrtime.bigint()
  f()
  return Number(process.hrtime.bigint() - start) / 1e6
}

/** CPU milliseconds of this process (user + system) while `f` runs: steadier under load. */
function cpuMs(f: () => unknown): number {
  const start = process.cpuUsage()
  f()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

/** Median of REPEATS runs after one warm-up (the page cache warm, as in the app). */
function measure(f: () => unknown, by: (f: () => unknown) => number = ms): number {
  f()
  return quantile(
    Array.from({ length: REPEATS }, () => by(f)),
    0.5,
  )
}

/** The shell's median per statement, `.timer on`, REPEATS runs after one warm-up. */
function shell(statements: string[]): number[] {
  if (!hasCommand(SHELL)) return statements.map(() => NaN)
  const lines = ['PRAGMA cache_size = -65536;', '.output /dev/null', '.timer on']
  for (const s of statements)
    for (let i = 0; i < REPEATS + 1; i++) lines.push(`${s.replace(/\s+/g, ' ')};`)
  const result = spawnSync(SHELL, [path], { input: lines.join('\n'), encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`sqlite3 failed: ${result.stderr}`)
  const times = [...result.stdout.matchAll(/Run Time: real ([\d.]+)/g)].map(
    (m) => Number(m[1]) * 1000,
  )
  const out: number[] = []
  let at = 1 // the PRAGMA is timed too
  for (let k = 0; k < statements.length; k++) {
    const runs = times.slice(at + 1, at + REPEATS + 1)
    at += REPEATS + 1
    out.push(quantile(runs, 0.5))
  }
  return out
}

const range = (from: string, to: string) =>
  `submitted_at >= ${dayStart(from)} AND submitted_at < ${dayStart(to) + 86_400}`
const cases: Array<{
  name: string
  run: () => unknown
  cached?: () => unknown
  reference: string
}> = [
  {
    name: `Today, one day (${lastDay})`,
    run: () => triageReport(db, { from: lastDay, to: lastDay }),
    reference: `SELECT worker_id, count(DISTINCT id >> 4), count(*) FROM annotations WHERE ${range(lastDay, lastDay)} GROUP BY worker_id`,
  },
  {
    name: `Today, seven days (${weekFrom} to ${lastDay})`,
    run: () => triageReport(db, { from: weekFrom, to: lastDay }),
    reference: `SELECT worker_id, count(DISTINCT id >> 4), count(*) FROM annotations WHERE ${range(weekFrom, lastDay)} GROUP BY worker_id`,
  },
  {
    name: 'submissions per day',
    run: () => submissionsPerDay(db),
    cached: () => dashboard.submissionsPerDay(db),
    reference: 'SELECT submitted_at / 86400, count(*) FROM submissions GROUP BY 1',
  },
  {
    name: 'dimensions filled, overall and per rating',
    run: () => dimensionsFilled(db),
    cached: () => dashboard.dimensions(db),
    reference: 'SELECT rating, dimension, count(*) FROM annotations GROUP BY 1, 2',
  },
  {
    name: 'workers and contributions by rating',
    run: () => ratingShares(db),
    cached: () => dashboard.ratings(db),
    reference: 'SELECT rating, count(*) FROM annotations GROUP BY 1',
  },
  {
    name: 'effective tier share per week',
    run: () => tierOverTime(db),
    cached: () => dashboard.tierOverTime(db),
    reference: 'SELECT rating, submitted_at / 604800, count(*) FROM annotations GROUP BY 1, 2',
  },
  {
    name: 'worker × dimension (30 busiest)',
    run: () => workerDimensions(db, 30),
    cached: () => dashboard.workerDimensions(db, 30),
    reference: 'SELECT worker_id, dimension, count(*) FROM annotations GROUP BY 1, 2',
  },
  {
    name: 'audit draw of 50, all annotations',
    run: () => drawIds(db, {}, 1, 50, new Set()),
    reference: 'SELECT id FROM annotations ORDER BY random() LIMIT 50',
  },
  {
    name: 'audit draw of 50, rating 3',
    run: () => drawIds(db, { ratings: [3] }, 1, 50, new Set()),
    reference: 'SELECT id FROM annotations WHERE rating = 3 ORDER BY random() LIMIT 50',
  },
]

const reference = shell(cases.map((c) => c.reference))
const rows: (string | number)[][] = [
  ['aggregate', 'winnow ms', 'winnow CPU ms', 'cached ms', 'sqlite3 ms', 'winnow / sqlite3'],
]
cases.forEach((c, i) => {
  const ours = measure(c.run)
  const cpu = measure(c.run, cpuMs)
  const cached = c.cached ? measure(c.cached) : NaN
  const theirs = reference[i] ?? NaN
  const fmt = (v: number) => (Number.isNaN(v) ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1))
  rows.push([
    c.name,
    fmt(ours),
    fmt(cpu),
    fmt(cached),
    fmt(theirs),
    Number.isNaN(theirs) ? '–' : (ours / theirs).toFixed(2),
  ])
})
const after = loadavg()
  .map((l) => l.toFixed(1))
  .join(' ')

const report = [
  tenMillion ? '## Today, audits and dashboard at ten million' : '## Today, audits and dashboard',
  '',
  `\`npm run bench -- triage${tenMillion ? ' --scale 10m' : ''}\` on ${annotations.toLocaleString('en')} generated annotations (synth seed 65521), ${new Date().toISOString().slice(0, 10)}, load average ${load} before and ${after} after. Winnow = the Today report and each dashboard aggregate computed afresh (median of ${REPEATS} after a warm-up; wall and this process's CPU time, which load disturbs less); cached = the same through the page's cache (valid until the project is written); sqlite3 = the plain GROUP BY of the same figures in the \`sqlite3\` shell on the same file, \`.timer on\`. An audit's draw is the read and the seeded sample, without the insert.`,
  '',
  table(rows),
  '',
].join('\n')
console.log(report)

if (!quick) await writeSection(report)
db.close()
