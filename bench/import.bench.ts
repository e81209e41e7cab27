// Import speed: a generated release-layout CSV imported into a fresh project the way the app does
// it (the built import thread, lib/import-child.ts), against the sqlite3 shell's `.import` of the
// same file into one flat table, measured in the same run. The import's time runs to its commit;
// the full-text indexing that follows is reported beside it.
// With --floor, also the floor of the design at each size up to 65,521 rows: the same rows, read
// beforehand, written by the same writer with no indexes, then the indexes built (floor-child.ts).
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { releaseCsv } from './lib/data'
import { hasCommand, table, timeCommand } from './lib/measure'

const quick = process.argv.includes('--quick')
const floor = process.argv.includes('--floor')
const sizes = quick ? [10_000, 65_521] : [10_000, 65_521, 655_210]
if (!hasCommand('sqlite3')) {
  console.error(
    'the import benchmark needs the sqlite3 shell (apt-get install sqlite3) as its reference',
  )
  process.exit(1)
}
const child = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'import-child.ts')
const floorChild = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'floor-child.ts')
const work = mkdtempSync(join(tmpdir(), 'winnow-import-bench-'))
const floors: (string | number)[][] = [
  ['rows', 'sqlite3 .import s', 'inserts s', 'index rebuild s', 'commit s', 'floor s', 'ratio'],
]

const rows: (string | number)[][] = [
  [
    'rows',
    'MB',
    'sqlite3 .import s',
    'winnow import s',
    'ratio',
    'rows/s',
    'MB/s',
    'annotations',
    'peak RSS MB',
    'searchable s',
    'then peak RSS MB',
  ],
]
for (const size of sizes) {
  const csv = releaseCsv(size)
  const mb = statSync(csv).size / 1e6
  const flat = join(work, `flat-${size}.db`)
  const project = join(work, `import-${size}.winnow`)
  const clean = () => {
    for (const f of [flat, project])
      for (const s of ['', '-wal', '-shm']) rmSync(f + s, { force: true })
  }
  clean()
  const reference = timeCommand('sqlite3', [flat, '.mode csv', `.import ${csv} flat`])
  const run = spawnSync(process.execPath, ['--import', 'tsx', child, csv, project], {
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`import failed: ${run.stderr}`)
  /** Up to the import's commit, then up to the end of the full-text indexing that follows. */
  const ours = JSON.parse(run.stdout) as {
    seconds: number
    maxRssMb: number
    annotations: number
    searchable: number
    searchableMaxRssMb: number
    searchableAnonMb: number
    searchableFileMb: number
  }
  clean()
  if (floor && size <= 65_521) {
    const bare = spawnSync(process.execPath, ['--import', 'tsx', floorChild, csv, project], {
      encoding: 'utf8',
    })
    if (bare.status !== 0) throw new Error(`floor run failed: ${bare.stderr}`)
    const f = JSON.parse(bare.stdout) as {
      inserts: number
      indexes: number
      commit: number
      total: number
    }
    clean()
    floors.push([
      size,
      reference.toFixed(2),
      f.inserts.toFixed(2),
      f.indexes.toFixed(2),
      f.commit.toFixed(2),
      f.total.toFixed(2),
      (f.total / reference).toFixed(2),
    ])
  }
  rows.push([
    size,
    mb.toFixed(0),
    reference.toFixed(2),
    ours.seconds.toFixed(2),
    (ours.seconds / reference).toFixed(2),
    Math.round(size / ours.seconds),
    (mb / ours.seconds).toFixed(1),
    ours.annotations,
    ours.maxRssMb.toFixed(0),
    ours.searchable.toFixed(2),
    `${ours.searchableMaxRssMb.toFixed(0)} (anonymous ${ours.searchableAnonMb.toFixed(0)}, file ${ours.searchableFileMb.toFixed(0)})`,
  ])
  console.log(
    `${size} rows: sqlite3 ${reference.toFixed(2)} s, winnow ${ours.seconds.toFixed(2)} s (×${(ours.seconds / reference).toFixed(2)}), peak ${ours.maxRssMb.toFixed(0)} MB`,
  )
}
rmSync(work, { recursive: true, force: true })
console.log(`\n${table(rows)}`)
if (floor) console.log(`\nFloor (same rows read beforehand, one thread):\n\n${table(floors)}`)
