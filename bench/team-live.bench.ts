// Team mode, live: a worker rating that changes about 20,000 annotations, made in one member's
// app and read in another member's grid (pushed, heard, pulled, applied and queried), beside the
// same rating on a local project in the same run; and the review query's p95 on a team replica
// beside the same project kept local. A real PostgreSQL server is started for the run (Debian's
// `postgresql`, as the tests use). Writes its section of docs/benchmarks.md ("Team mode, live").
//   npx tsx bench/team-live.bench.ts [--quick]      (or: npm run bench -- team-live)
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CallName, EventName } from '../src/shared/contract'
import type { RatingResult } from '../src/shared/contract/ratings'
import type { AnnotationFilter } from '../src/shared/filter'
import { dispatch } from '../src/main/api/dispatch'
import { type Db, openProject } from '../src/main/db/connection'
import { forgetTotals } from '../src/main/db/queries/review/count'
import { orderTuning } from '../src/main/review/queryOrder'
import { Session } from '../src/main/session'
import { joinTeam } from '../src/main/team/join'
import { addTeamMember } from '../src/main/team/members'
import { publishProject } from '../src/main/team/publish'
import { noPostgres, startPostgres } from '../tests/helpers/postgres'
import { writeSection } from './lib/benchmarksDoc'
import { dataDir } from './lib/data'
import { quantile, table } from './lib/measure'
import { ensureProject } from './lib/project'
import { largest, smallest } from '../src/shared/lists'
import { type TeamStep, listenToTeamSteps } from '../src/main/team/steps'

const quick = process.argv.includes('--quick')
const SUBMISSIONS = quick ? 21_300 : 213_000
const TARGET = quick ? 2_000 : 20_000
const REPEATS = 5
const QUERY_REPEATS = 20

if (noPostgres !== null) {
  console.log(`team-live needs PostgreSQL: ${noPostgres}`)
  process.exit(0)
}

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6
}

async function call(session: Session, name: CallName, args: unknown): Promise<unknown> {
  const outcome = await dispatch(name, args, { session })
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`)
  return outcome.value
}

/** The busiest worker and the first day from which about TARGET of its annotations follow. */
function pickChange(db: Db): { workerId: number; external: string; from: string } {
  const { workerId, external } = db
    .prepare(
      `SELECT a.worker_id AS workerId, w.external_id AS external FROM annotations a
       JOIN workers w ON w.id = a.worker_id GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    )
    .get() as { workerId: number; external: string }
  const days = db
    .prepare(
      `SELECT submitted_at / 86400 AS day, count(*) AS n FROM annotations WHERE worker_id = ?
       GROUP BY 1 ORDER BY 1 DESC`,
    )
    .all(workerId) as { day: number; n: number }[]
  let sum = 0
  let day = days[days.length - 1]?.day ?? 0
  for (const d of days) {
    sum += d.n
    day = d.day
    if (sum >= TARGET) break
  }
  return { workerId, external, from: new Date(day * 86_400_000).toISOString().slice(0, 10) }
}

const dir = mkdtempSync(join(tmpdir(), 'winnow-team-bench-'))
const server = await startPostgres()
try {
  const source = join(dataDir, quick ? 'review-100k.winnow' : 'review-1m.winnow')
  ensureProject(source, SUBMISSIONS)
  const leadPath = join(dir, 'lead.winnow')
  const localPath = join(dir, 'local.winnow')
  const replicaPath = join(dir, 'member.winnow')
  for (const path of [leadPath, localPath]) copyFileSync(source, path)

  const lead = { user: 'benchlead', password: 'bench-lead-secret' }
  await server.createTeamDatabase('benchteam', lead)
  const pgpass = join(dir, 'pgpass')
  writeFileSync(pgpass, `127.0.0.1:${server.port}:benchteam:${lead.user}:${lead.password}\n`, {
    mode: 0o600,
  })
  process.env.PGPASSFILE = pgpass
  delete process.env.PGPASSWORD

  let start = process.hrtime.bigint()
  await publishProject(leadPath, {
    server: server.url('benchteam', lead.user),
    name: lead.user,
  })
  const publishMs = ms(start)
  const leadDb = openProject(leadPath)
  const added = await addTeamMember(leadDb, 'benchmember', 'reviewer')
  leadDb.close()
  start = process.hrtime.bigint()
  const joined = await joinTeam(replicaPath, {
    server: server.url('benchteam', 'benchmember', added.password ?? ''),
    name: 'benchmember',
  })
  const joinMs = ms(start)
  writeFileSync(
    pgpass,
    `127.0.0.1:${server.port}:benchteam:benchmember:${added.password ?? ''}\n`,
    { flag: 'a' },
  )
  console.log(
    `${joined.annotations} annotations; published in ${(publishMs / 1000).toFixed(1)} s, joined in ${(joinMs / 1000).toFixed(1)} s; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )

  // Two members' apps, as serve mode makes them; the other member's app signals each pull.
  let pulled: (() => void) | null = null
  const a = new Session('serve', () => undefined)
  const b = new Session('serve', (name: EventName, payload: unknown) => {
    if (name === 'project.changed' && (payload as { reason: string }).reason === 'data') pulled?.()
  })
  const local = new Session('serve', () => undefined)
  a.open(leadPath)
  b.open(replicaPath)
  local.open(localPath)
  for (const s of [a, b]) {
    while (s.teamStatus()?.connection !== 'online' || (s.teamStatus()?.pending ?? 1) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  // A fresh replica indexes its text for search for minutes after opening. Each member's app is
  // a process of its own; here three apps share one thread, so their indexing would stand in
  // each other's way: it is stopped (no query below searches text).
  for (const s of [a, b, local]) {
    for (const job of s.jobs.list()) if (job.kind === 'index') s.jobs.cancel(job.id)
    await s.jobs.idle()
  }
  // The same for the grid's order of a large result, read in the background a moment after a
  // query: the local app's and the other member's reads of the worker's order fell between the
  // first app's write and its push (about 210 ms), work another process would do beside it.
  orderTuning.minimumTotal = Number.POSITIVE_INFINITY

  const change = pickChange(local.project().db)
  const workerFilter: AnnotationFilter = { workers: [change.external] }
  const seen = { filter: workerFilter, page: { limit: 100 } }

  // 1. The rating, locally (the reference) and across the team, alternating values.
  const localMs: number[] = []
  const teamMs: number[] = []
  const writeMs: number[] = []
  const changed: number[] = []
  // Each step of the team figure, per run: when the two apps reached it, from the rating call.
  const steps: { project: string; step: TeamStep; at: number }[] = []
  const breakdown: Record<string, number[]> = {}
  for (let i = 0; i < REPEATS; i++) {
    const rating = i % 2 === 0 ? -2 : 3
    const args = { workerId: change.workerId, rating, from: change.from }
    start = process.hrtime.bigint()
    await call(local, 'ratings.rateWorker', args)
    await call(local, 'review.query', seen)
    localMs.push(ms(start))
    // The apps share this thread: the local app's checkpoint of its write is done here, outside
    // the team figure, not by its timer in the middle of it (each app is a process of its own).
    local.project().db.pragma('wal_checkpoint(PASSIVE)')

    const arrived = new Promise<number>((resolve) => (pulled = () => resolve(ms(start))))
    steps.length = 0
    start = process.hrtime.bigint()
    listenToTeamSteps((project, step) => steps.push({ project, step, at: ms(start) }))
    const result = (await call(a, 'ratings.rateWorker', args)) as RatingResult
    writeMs.push(ms(start))
    const told = await arrived
    await call(b, 'review.query', seen)
    teamMs.push(ms(start))
    listenToTeamSteps(null)
    const first = (project: string, step: TeamStep, after = 0): number =>
      steps.find((s) => s.project === project && s.step === step && s.at >= after)?.at ?? NaN
    const ownExchange = first(leadPath, 'exchange')
    const pushStart = first(leadPath, 'push-start', ownExchange)
    const pushed = first(leadPath, 'pushed')
    // NOTIFY may reach the other app before the push's commit answers the first.
    const heard = first(replicaPath, 'heard', pushStart)
    const exchange = first(replicaPath, 'exchange', heard)
    const pullStart = first(replicaPath, 'pull-start', exchange)
    const read = first(replicaPath, 'read', pullStart)
    const applied = first(replicaPath, 'applied', read)
    const spans: [string, number][] = [
      ['the write in the first app, until it answered', writeMs[i] ?? NaN],
      ['until its exchange began (its turn)', ownExchange - (writeMs[i] ?? NaN)],
      ['its checks (server schema, role), until the push began', pushStart - ownExchange],
      ['the push, until the server committed', pushed - pushStart],
      ['until the other app heard NOTIFY (from the commit)', heard - pushed],
      ['until the other app’s exchange began (its turn)', exchange - heard],
      ['its checks and its own push, until the pull began', pullStart - exchange],
      ['reading the log page', read - pullStart],
      ['applying it (one transaction)', applied - read],
      ['until the page was told', told - applied],
      ['the grid’s query of the worker', (teamMs[i] ?? NaN) - told],
    ]
    for (const [name, span] of spans) (breakdown[name] ??= []).push(span)
    changed.push(result.changed)
    await b.teamLive()?.settled()
    await a.teamLive()?.settled()
    for (const s of [a, b]) s.project().db.pragma('wal_checkpoint(PASSIVE)')
  }
  const same =
    JSON.stringify(
      b
        .project()
        .db.prepare('SELECT id, rating FROM annotations WHERE worker_id = ?')
        .all(change.workerId),
    ) ===
    JSON.stringify(
      local
        .project()
        .db.prepare('SELECT id, rating FROM annotations WHERE worker_id = ?')
        .all(change.workerId),
    )

  // 2. Reads stay local: the review query on the replica and on the local copy, taking turns.
  const filters: AnnotationFilter[] = [
    {},
    workerFilter,
    { dimensions: [1, 6] },
    { ratings: [2] },
    { dimensions: [3], ratings: [-1, 'unrated'] },
    { flagged: true },
  ]
  const replicaQ: number[] = []
  const localQ: number[] = []
  for (let i = 0; i < QUERY_REPEATS; i++) {
    for (const filter of filters) {
      for (const [session, into] of [
        [b, replicaQ],
        [local, localQ],
      ] as const) {
        forgetTotals(session.project().db)
        start = process.hrtime.bigint()
        await call(session, 'review.query', { filter, page: { limit: 100 } })
        into.push(ms(start))
      }
    }
  }

  for (const s of [a, b, local]) {
    const live = s.teamLive()
    s.close()
    await live?.stop()
  }

  const f = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1))
  const median = (v: number[]) => quantile(v, 0.5)
  const rows = [
    ['measure', 'team', 'local (reference)', 'ratio'],
    [
      `worker rating (${smallest(changed).toLocaleString('en-US')}–${largest(changed).toLocaleString('en-US')} annotations changed), made by one member and read in the other's grid, median ms`,
      f(median(teamMs)),
      f(median(localMs)),
      (median(teamMs) / median(localMs)).toFixed(2),
    ],
    ['the same, slowest of the runs, ms', f(largest(teamMs)), f(largest(localMs)), '—'],
    [
      'of which the write in the first app (until it answered), median ms',
      f(median(writeMs)),
      '—',
      '—',
    ],
    [
      `review query, first page and exact total, ${filters.length} filters × ${QUERY_REPEATS}, p95 ms`,
      f(quantile(replicaQ, 0.95)),
      f(quantile(localQ, 0.95)),
      (quantile(replicaQ, 0.95) / quantile(localQ, 0.95)).toFixed(2),
    ],
    [
      'the same, p50 ms',
      f(quantile(replicaQ, 0.5)),
      f(quantile(localQ, 0.5)),
      (quantile(replicaQ, 0.5) / quantile(localQ, 0.5)).toFixed(2),
    ],
  ]
  const stepRows = [
    ['step of the team figure', 'median ms', 'slowest ms'],
    ...Object.entries(breakdown).map(([name, spans]) => [
      name,
      f(median(spans)),
      f(largest(spans)),
    ]),
  ]
  const report = `## Team mode, live

${joined.annotations.toLocaleString('en-US')} annotations (${quick ? '`--quick`' : 'the million-annotation project'}),
published to a PostgreSQL ${'server started for the run'} and joined by a second member; both
projects open in an app session each (as serve mode makes them), in one process, with the same
project kept local beside them (search indexing and the background reading of a large result's
order stopped: in one process the three apps' background work would share one thread). Measured ${new Date().toISOString().slice(0, 10)}, load average
${loadavg()[0]?.toFixed(1) ?? '?'}; ${REPEATS} runs of the rating, values alternating. The team
figure runs from the rating call in the first member's app until the second member's app has
pulled it (LISTEN/NOTIFY), applied it and answered the grid's query of that worker; the
reference is the same rating and query on the local project. The replica's ratings of the
worker ${same ? 'equal' : 'DIFFER FROM'} the local project's after the runs.

${table(rows)}

Where the team figure's time goes, step by step (the apps tell each step as they reach it; the
steps of one run add up to its figure):

${table(stepRows)}
`
  console.log(report)
  await writeSection(report)
} finally {
  await server.destroy()
  rmSync(dir, { recursive: true, force: true })
}
