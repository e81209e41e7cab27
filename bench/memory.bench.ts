// Peak memory of the large jobs on a million annotations (ten million with `--scale 10m`): the
// import of a release CSV, a release in each format, every row of a query as TSV and as JSON, the
// GLUCOSE cleanup policy's dry run and apply, and a full recomputation of the effective ratings.
// Each runs as the user runs it (the built CLI; the recomputation, which has no command, under
// tsx) in a process of its own, and its peak RSS is read by `/usr/bin/time`. The reference, in the
// same run, is the same process doing almost nothing: `winnow stats` on the project, tsx's loader
// alone.
// Writes its figures into docs/benchmarks.md ("Peak memory of large jobs").
//   npx tsx bench/memory.bench.ts [--quick] [--scale 1m|10m] [--only WORD,…] [--cli FILE]
//   (or: npm run bench -- memory)
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openProject } from '../src/main/db/connection'
import { writeSection } from './lib/benchmarksDoc'
import { dataDir, releaseCsv } from './lib/data'
import { hasCommand, seconds, table } from './lib/measure'
import { ensureProject, releaseEveryAnnotation } from './lib/project'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
// `--cli FILE` measures another build of the CLI (an older one, for a before and after).
const cliAt = process.argv.indexOf('--cli')
const cli = cliAt >= 0 ? (process.argv[cliAt + 1] ?? '') : join(root, 'out', 'main', 'cli.js')
const quick = process.argv.includes('--quick')
const scaleAt = process.argv.indexOf('--scale')
const scale = scaleAt >= 0 ? (process.argv[scaleAt + 1] ?? '1m') : '1m'
if (scale !== '1m' && scale !== '10m') throw new Error('--scale takes 1m or 10m')
const tenMillion = scale === '10m' && !quick
const onlyAt = process.argv.indexOf('--only')
const only = onlyAt >= 0 ? new Set((process.argv[onlyAt + 1] ?? '').split(',')) : null
const SUBMISSIONS = quick ? 21_300 : tenMillion ? 2_130_000 : 213_000
const LIMIT_MB = 300
const TIME = '/usr/bin/time'

if (!hasCommand(TIME)) {
  console.log(`${TIME} not found; skipping`)
  process.exit(0)
}

const cached = join(
  dataDir,
  quick ? 'review-100k.winnow' : tenMillion ? 'review-10m.winnow' : 'review-1m.winnow',
)
ensureProject(cached, SUBMISSIONS)

const work = mkdtempSync(join(tmpdir(), 'winnow-memory-'))
const copy = join(work, 'copy.winnow')
const copyCached = (to: string): string => {
  for (const s of ['', '-wal', '-shm']) rmSync(to + s, { force: true })
  copyFileSync(cached, to)
  return to
}
// The ten-million project takes an hour to build and may be shared: every job works on one copy
// of it, in the order of the jobs below (the writes last), and the project itself is only read.
const base = tenMillion ? copyCached(join(work, 'project.winnow')) : cached
const fresh = (): string => (tenMillion ? base : copyCached(copy))

// Every rating of the scale goes into a tier, so the whole project is exported.
const annotations = releaseEveryAnnotation(base)

interface Run {
  seconds: number
  peakMb: number
}

/** One process under `/usr/bin/time`: its wall time and peak RSS. */
function measured(args: string[]): Run {
  const report = join(work, 'time.txt')
  const start = process.hrtime.bigint()
  const result = spawnSync(TIME, ['-f', '%M', '-o', report, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const elapsed = seconds(start)
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed`)
  const kb = Number(readFileSync(report, 'utf8').trim().split('\n').pop())
  return { seconds: elapsed, peakMb: kb / 1024 }
}

const node = (args: string[]): string[] => [process.execPath, ...args]
const winnow = (args: string[]): string[] => node([cli, ...args])
const underTsx = (args: string[]): string[] => node(['--import', 'tsx', ...args])

interface Job {
  name: string
  /** Sets the stage outside the measured process, and gives its command line. */
  prepare(): string[]
  reference?: boolean
}

const policy = join(root, 'policies', 'glucose-cleanup.ts')
// The script's default limit (10 s) stops the cleanup at ten million: memory is measured here.
const policyLimit = tenMillion ? ['--time-limit', '600'] : []
const out = join(work, 'release')
const exportJob = (format: string): Job => ({
  name: `export --format ${format}`,
  prepare() {
    rmSync(out, { recursive: true, force: true })
    return winnow(['export', '--db', base, '--out', out, '--format', format, '--draft'])
  },
})

const jobs: Job[] = [
  {
    name: 'stats (reference: the CLI opening the project)',
    reference: true,
    prepare: () => winnow(['stats', '--db', base]),
  },
  {
    name: 'tsx loader alone (reference for the recomputation)',
    reference: true,
    prepare: () => underTsx([join(here, 'lib', 'recompute-child.ts'), base, '--idle']),
  },
  {
    name: `import of a release CSV (${SUBMISSIONS.toLocaleString('en-US')} rows)`,
    prepare() {
      const csv = releaseCsv(SUBMISSIONS)
      for (const s of ['', '-wal', '-shm']) rmSync(copy + s, { force: true })
      return winnow(['import', csv, '--db', copy])
    },
  },
  exportJob('csv'),
  exportJob('jsonl'),
  exportJob('parquet'),
  {
    name: 'query --tsv, every row',
    prepare: () =>
      winnow(['query', '--db', base, '--tsv', '--limit', String(annotations), '--sort', 'id']),
  },
  {
    name: 'query --json, every row',
    prepare: () =>
      winnow(['query', '--db', base, '--json', '--limit', String(annotations), '--sort', 'id']),
  },
  {
    name: 'policy run --dry-run (the GLUCOSE cleanup)',
    prepare: () => winnow(['policy', 'run', policy, '--db', base, '--dry-run', ...policyLimit]),
  },
  {
    name: 'policy run (apply)',
    prepare: () => winnow(['policy', 'run', policy, '--db', fresh(), ...policyLimit]),
  },
  {
    name: 'recomputation, cache wiped (under tsx)',
    prepare() {
      // At ten million the copy is the shared one (`fresh()`), not the import's project.
      const project = fresh()
      const db = openProject(project)
      db.exec('UPDATE annotations SET rating = NULL, rating_source = 0')
      db.close()
      return underTsx([join(here, 'lib', 'recompute-child.ts'), project])
    },
  },
]

const before = loadavg().map((l) => l.toFixed(1))
console.log(
  `${annotations.toLocaleString('en-US')} annotations (${(statSync(base).size / 1e9).toFixed(1)} GB); load average ${before.join(' ')}`,
)
const rows: (string | number)[][] = [['job', 'seconds', `peak RSS MB (limit ${LIMIT_MB})`]]
try {
  for (const job of jobs) {
    // `--only` names any word of a job's name: `export`, `parquet`, `query`, `recomputation`…
    if (only && !job.reference && !job.name.split(/[ ,]+/).some((w) => only.has(w))) continue
    const args = job.prepare()
    const run = measured(args)
    const verdict = job.reference ? '' : run.peakMb <= LIMIT_MB ? ' (under)' : ' (over)'
    console.log(`${job.name}: ${run.seconds.toFixed(1)} s, peak ${run.peakMb.toFixed(0)} MB`)
    rows.push([job.name, run.seconds.toFixed(1), `${run.peakMb.toFixed(0)}${verdict}`])
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
const after = loadavg().map((l) => l.toFixed(1))
const report = table(rows)
console.log(report)

// At ten million a job takes minutes: a run of some jobs (`--only`) writes its section too.
if (!quick && (only === null || tenMillion) && cliAt < 0) {
  const heading = tenMillion
    ? '## Peak memory of large jobs at ten million'
    : '## Peak memory of large jobs'
  await writeSection(
    [
      heading,
      '',
      `\`npm run bench -- memory${tenMillion ? ' --scale 10m' : ''}\`. Each job on the generated project of ` +
        `${annotations.toLocaleString('en-US')} annotations in a process of its own, as the user runs it ` +
        '(the built CLI; the recomputation, which has no command, under tsx), its peak RSS read by ' +
        '`/usr/bin/time`. The references are the same processes doing almost nothing.' +
        (only ? ` Only these jobs were run: ${[...only].join(', ')}.` : ''),
      '',
      `**${new Date().toISOString().slice(0, 10)}**, load average ${before.join(' ')} before, ${after.join(' ')} after:`,
      '',
      report,
    ].join('\n'),
  )
}
