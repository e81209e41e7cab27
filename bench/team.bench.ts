// Team mode on a real, throwaway PostgreSQL server (Debian's postgresql, as the tests start it):
//  1. joining a collection of a million annotations (`joinTeam`: the log, then every bulk table by
//     COPY into a new replica, then the effective ratings) beside the reference of the same run:
//     psql's \copy of the same server tables to CSV files plus the sqlite3 shell's .import of them
//     into tables of the same columns (no indexes, no ratings);
//  2. five members rating ten times a second each for a minute, each rating pushed at once:
//     push latency p50 / p95, and the log counted against the ratings made (nothing lost).
//   npx tsx bench/team.bench.ts [--quick]      (or: npm run bench -- team)
import { execFileSync, spawn } from 'node:child_process'
import { rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { openProject } from '../src/main/db/connection'
import { BULK_TABLES } from '../src/main/db/server/bulk'
import { addTeamMember } from '../src/main/team/members'
import { joinTeam } from '../src/main/team/join'
import { publishProject } from '../src/main/team/publish'
import { startPostgres } from '../tests/helpers/postgres'
import { writeSection } from './lib/benchmarksDoc'
import { dataDir } from './lib/data'
import { table } from './lib/measure'
import { ensureProject } from './lib/project'

const quick = process.argv.includes('--quick')
const SUBMISSIONS = quick ? 21_300 : 213_000
const MEMBERS = 5
const SMALL = 2_130
const SECONDS = quick ? 10 : 60

const seconds = (start: number): number => (performance.now() - start) / 1000
const base = join(dataDir, `review-${SUBMISSIONS}.winnow`)
ensureProject(base, SUBMISSIONS)
const lead = join(dataDir, `team-lead-${SUBMISSIONS}.winnow`)
const replica = join(dataDir, `team-replica-${SUBMISSIONS}.winnow`)
const reference = join(dataDir, `team-reference-${SUBMISSIONS}.sqlite`)
for (const p of [lead, replica, reference])
  for (const s of ['', '-wal', '-shm']) rmSync(p + s, { force: true })
execFileSync('cp', [base, lead])
const counted = openProject(lead, { readonly: true })
const annotations = counted.prepare('SELECT count(*) FROM annotations').pluck().get() as number
counted.close()

const server = await startPostgres()
try {
  const password = 'lead-bench-password'
  await server.createTeamDatabase('bench', { user: 'lead', password })
  process.env.PGPASSWORD = password
  let start = performance.now()
  await publishProject(lead, { server: server.url('bench', 'lead'), name: 'lead' })
  const publish = seconds(start)
  console.log(`published ${annotations} annotations in ${publish.toFixed(1)} s`)

  // The reference: the same server tables out by psql's \copy, into SQLite by .import.
  const files = join(dataDir, 'team-reference')
  rmSync(files, { recursive: true, force: true })
  execFileSync('mkdir', ['-p', files])
  const env = { ...process.env, PGPASSWORD: server.admin.password }
  start = performance.now()
  for (const t of BULK_TABLES) {
    const columns = t.columns.map((c) => c.name).join(', ')
    const file = join(files, `${t.name}.csv`)
    execFileSync(
      'psql',
      [
        server.url('bench', server.admin.user),
        '-q',
        '-c',
        `\\copy (SELECT ${columns} FROM winnow.${t.name}) TO '${file}' WITH (FORMAT csv)`,
      ],
      { env },
    )
  }
  const copyOut = seconds(start)
  const script = [
    ...BULK_TABLES.map(
      (t) => `CREATE TABLE ${t.name} (${t.columns.map((c) => c.name).join(', ')});`,
    ),
    ...BULK_TABLES.map((t) => `.import --csv ${join(files, `${t.name}.csv`)} ${t.name}`),
  ].join('\n')
  start = performance.now()
  execFileSync('sqlite3', [reference], { input: script })
  const sqliteImport = seconds(start)
  const referenceTotal = copyOut + sqliteImport

  // Ours: a member joins.
  const leadDb = openProject(lead)
  const added = await addTeamMember(leadDb, 'joiner', 'reviewer')
  leadDb.close()
  process.env.PGPASSWORD = added.password ?? ''
  start = performance.now()
  // Where the join's time goes: when each of its steps started.
  const steps: [string, number][] = []
  const joined = await joinTeam(
    replica,
    { server: server.url('bench', 'joiner'), name: 'joiner' },
    (step) => {
      if (steps[steps.length - 1]?.[0] !== step) steps.push([step, performance.now()])
    },
  )
  const join_ = seconds(start)
  const stepTimes = steps.map(([step, at], i) => [
    step,
    (((steps[i + 1]?.[1] ?? performance.now()) - at) / 1000).toFixed(1),
  ])
  console.log(`joined in ${join_.toFixed(1)} s (reference ${referenceTotal.toFixed(1)} s)`)

  // Five members pushing ten ratings a second each.
  const small = join(dataDir, `team-small-lead.winnow`)
  for (const s of ['', '-wal', '-shm']) rmSync(small + s, { force: true })
  // The members' replicas are of a smaller collection: pushes do not depend on its size.
  ensureProject(join(dataDir, `review-${SMALL}.winnow`), SMALL)
  execFileSync('cp', [join(dataDir, `review-${SMALL}.winnow`), small])
  await server.createTeamDatabase('pushes', { user: 'lead2', password })
  process.env.PGPASSWORD = password
  await publishProject(small, { server: server.url('pushes', 'lead2'), name: 'lead2' })
  const members: { path: string; password: string }[] = []
  for (let i = 1; i <= MEMBERS; i++) {
    process.env.PGPASSWORD = password
    const smallDb = openProject(small)
    const m = await addTeamMember(smallDb, `member${i}`, 'reviewer')
    smallDb.close()
    const path = join(dataDir, `team-member${i}.winnow`)
    for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true })
    process.env.PGPASSWORD = m.password ?? ''
    await joinTeam(path, { server: server.url('pushes', `member${i}`), name: `member${i}` })
    members.push({ path, password: m.password ?? '' })
  }
  const runs = await Promise.all(
    members.map(
      (m, i) =>
        new Promise<number[]>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              join(import.meta.dirname, 'lib/team-member.ts'),
              m.path,
              String(SECONDS),
              String(i + 1),
            ],
            {
              stdio: ['ignore', 'pipe', 'inherit'],
              env: { ...process.env, PGPASSWORD: m.password },
            },
          )
          let out = ''
          child.stdout.on('data', (c: Buffer) => (out += c.toString()))
          child.once('exit', (code) =>
            code === 0
              ? resolve(JSON.parse(out) as number[])
              : reject(new Error(`member ${i + 1} failed`)),
          )
        }),
    ),
  )
  const latencies = runs.flat().sort((a, b) => a - b)
  const at = (q: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
  const logged = await server.admin$(
    `SELECT count(*)::int AS n FROM winnow.change_sets WHERE member LIKE 'member%'`,
    'pushes',
  )
  const inLog = (logged.rows[0] as { n: number }).n

  const size = (p: string): string => `${(statSync(p).size / 1e6).toFixed(0)} MB`
  const report = [
    '## Team mode (PostgreSQL)',
    '',
    `\`npm run bench -- team${quick ? ' --quick' : ''}\`: a throwaway PostgreSQL ${/\d+\.\d+/.exec(execFileSync('psql', ['--version']).toString())?.[0] ?? ''} server on this machine (fsync off, as the tests run it).`,
    '',
    `Joining a collection of ${annotations.toLocaleString('en')} annotations (${joined.submissions.toLocaleString('en')} submissions, ${joined.changeSets} change set${joined.changeSets === 1 ? '' : 's'}): the reference, in the same run, is psql's \\copy of the same server tables to CSV files plus the sqlite3 shell's .import of them into tables without indexes.`,
    '',
    table([
      ['step', 'seconds', 'ratio'],
      ['reference: psql \\copy out', copyOut.toFixed(1), ''],
      ['reference: sqlite3 .import', sqliteImport.toFixed(1), ''],
      ['reference total', referenceTotal.toFixed(1), '1.00×'],
      [
        `winnow team join (replica ${size(replica)})`,
        join_.toFixed(1),
        `${(join_ / referenceTotal).toFixed(2)}×`,
      ],
      [
        '(publishing it: winnow team init)',
        publish.toFixed(1),
        `${(publish / referenceTotal).toFixed(2)}×`,
      ],
    ]),
    '',
    'The join, step by step (seconds):',
    '',
    table([['step', 'seconds'], ...stepTimes]),
    '',
    `${MEMBERS} members rating ten times a second each for ${SECONDS} s, every rating pushed at once over an open connection: ${latencies.length} pushes, push latency p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, max ${at(1).toFixed(0)} ms; the log holds ${inLog} of them (${inLog === latencies.length ? 'nothing lost' : 'MISSING ' + (latencies.length - inLog)}).`,
    '',
  ].join('\n')
  console.log(report)
  if (!quick) await writeSection(report)
} finally {
  await server.destroy()
}
