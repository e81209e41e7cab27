// Exporting a release of a million annotations: the release-layout CSV beside the sqlite3 shell
// writing an equivalent SELECT (the same 49 columns, one row per submission) as CSV from the same
// file, in the same run; JSON Lines and Parquet reported beside it, with each run's peak memory.
//   npx tsx bench/release.bench.ts [--quick]      (or: npm run bench -- release)
import { spawnSync } from 'node:child_process'
import { rmSync, statSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openProject } from '../src/main/db/connection'
import { exportRelease } from '../src/main/release/export'
import { releaseOptionsSchema, type ReleaseFormat } from '../src/shared/contract/release'
import { dataDir } from './lib/data'
import { hasCommand, seconds, table } from './lib/measure'
import { EVERY_RATING_TIERED, ensureProject, releaseEveryAnnotation } from './lib/project'

const quick = process.argv.includes('--quick')
const SUBMISSIONS = quick ? 21_300 : 213_000
const SHELL = '/usr/bin/sqlite3'

const childAt = process.argv.indexOf('--child')
if (childAt >= 0) {
  const formats = (process.argv[childAt + 1] ?? 'csv').split(',') as ReleaseFormat[]
  console.log(JSON.stringify(child(formats, process.argv[childAt + 2] ?? '')))
  process.exit(0)
}

const path = join(dataDir, quick ? 'review-100k.winnow' : 'review-1m.winnow')
ensureProject(path, SUBMISSIONS)

// Every rating of the scale goes into a tier, so the whole project is exported.
const annotations = releaseEveryAnnotation(path)

const tierCase = `CASE a.rating ${EVERY_RATING_TIERED.map((s) => `WHEN ${s.rating} THEN ${s.tier}`).join(' ')} END`
const dims = Array.from({ length: 10 }, (_, i) => i + 1)
  .flatMap((d) =>
    ['specific_nl', 'specific_structured', 'general_nl', 'general_structured'].map(
      (c) => `coalesce(max(CASE WHEN a.dimension = ${d} THEN t.${c} END), 'escaped')`,
    ),
  )
  .join(',\n  ')
// One row per submission and tier, the 49 release columns, in submission order.
const REFERENCE_SQL = `SELECT st.external_id || '__' || s.sentence_index AS experiment_id, st.external_id AS story_id,
  w.external_id AS worker_id, strftime('%Y%m%d', s.submitted_at, 'unixepoch') AS submission_time_normalized,
  ${tierCase} AS worker_quality_rating, s.sentence_index AS selected_sentence_index, st.text AS story,
  se.text AS selected_sentence,
  ${dims},
  count(*) AS number_filled_in
FROM annotations a
JOIN submissions s ON s.id = a.submission_id
JOIN annotation_texts t ON t.annotation_id = a.id
JOIN stories st ON st.id = s.story_id
JOIN sentences se ON se.story_id = s.story_id AND se.idx = s.sentence_index
LEFT JOIN workers w ON w.id = s.worker_id
GROUP BY a.submission_id, ${tierCase}
ORDER BY a.submission_id, 5 DESC;`

function shellCsv(out: string): { seconds: number; bytes: number } {
  rmSync(out, { force: true })
  const start = process.hrtime.bigint()
  const result = spawnSync(SHELL, ['-readonly', path], {
    input: `.headers on\n.mode csv\n.output ${out}\n${REFERENCE_SQL}\n`,
    stdio: ['pipe', 'ignore', 'inherit'],
  })
  if (result.status !== 0) throw new Error('sqlite3 failed')
  return { seconds: seconds(start), bytes: statSync(out).size }
}

interface OurRun {
  seconds: number
  bytes: number
  rows: number
  peakMb: number
}

/** One export in a process of its own, so its peak memory is its own. */
function ours(formats: ReleaseFormat[]): OurRun {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', formats.join(','), path],
    { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
  )
  if (result.status !== 0) throw new Error('export child failed')
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '') as OurRun
}

function child(formats: ReleaseFormat[], project: string): OurRun {
  const out = join(dataDir, 'release-bench')
  rmSync(out, { recursive: true, force: true })
  const db = openProject(project, { memoryMap: false })
  const start = process.hrtime.bigint()
  try {
    // A generated project's card holds placeholders: the bench's releases are drafts.
    const options = releaseOptionsSchema.parse({ out, formats, draft: true })
    const result = exportRelease(db, project, options, {
      progress: () => undefined,
      cancelled: () => false,
    })
    const elapsed = seconds(start)
    const manifest = result.manifest as { files: { bytes: number; rows: number }[] }
    return {
      seconds: elapsed,
      bytes: manifest.files.reduce((n, f) => n + f.bytes, 0),
      rows: manifest.files.reduce((n, f) => n + f.rows, 0),
      peakMb: process.resourceUsage().maxRSS / 1024,
    }
  } finally {
    db.close()
    rmSync(out, { recursive: true, force: true })
  }
}

if (!hasCommand(SHELL)) {
  console.log('sqlite3 shell not found; skipping')
  process.exit(0)
}

const load = loadavg()[0]?.toFixed(2) ?? '?'
console.log(`${annotations.toLocaleString('en-US')} annotations; load ${load}`)
const rows: (string | number)[][] = [
  ['run', 'seconds', 'MB written', 'ratio to shell', 'peak RSS MB'],
]
const reference = join(dataDir, 'release-shell.csv')
// Shell, ours, shell, ours: each the better of two, so a burst of load hits both sides alike.
const shell1 = shellCsv(reference)
const csv1 = ours(['csv'])
const shell2 = shellCsv(reference)
const csv2 = ours(['csv'])
rmSync(reference, { force: true })
const shell = Math.min(shell1.seconds, shell2.seconds)
const csv = Math.min(csv1.seconds, csv2.seconds)
rows.push([
  'sqlite3 shell, equivalent SELECT as CSV',
  shell.toFixed(2),
  (shell1.bytes / 1e6).toFixed(0),
  '1.00',
  '—',
])
rows.push([
  'winnow export --format csv',
  csv.toFixed(2),
  (csv1.bytes / 1e6).toFixed(0),
  (csv / shell).toFixed(2),
  csv1.peakMb.toFixed(0),
])
const jsonl = ours(['jsonl'])
rows.push([
  'winnow export --format jsonl',
  jsonl.seconds.toFixed(2),
  (jsonl.bytes / 1e6).toFixed(0),
  (jsonl.seconds / shell).toFixed(2),
  jsonl.peakMb.toFixed(0),
])
const parquet = ours(['parquet'])
rows.push([
  'winnow export --format parquet',
  parquet.seconds.toFixed(2),
  (parquet.bytes / 1e6).toFixed(0),
  (parquet.seconds / shell).toFixed(2),
  parquet.peakMb.toFixed(0),
])
console.log(`rows (submission × tier): ${csv1.rows.toLocaleString('en-US')}`)
console.log(table(rows))
console.log(
  `CSV ratio ${(csv / shell).toFixed(2)} (target ≤ 1.5); peak RSS of the CSV export ${csv1.peakMb.toFixed(0)} MB (target < 300)`,
)
