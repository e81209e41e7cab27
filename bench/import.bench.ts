// Import speed: a generated release-layout CSV through `importFiles` into a fresh project, against
// the sqlite3 shell's `.import` of the same file into one flat table, measured in the same run.
import { spawnSync } from 'node:child_process'
import { rmSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { dataDir, releaseCsv } from './lib/data'
import { hasCommand, table, timeCommand } from './lib/measure'

const quick = process.argv.includes('--quick')
const sizes = quick ? [10_000, 65_521] : [10_000, 65_521, 655_210]
if (!hasCommand('sqlite3')) {
  console.error(
    'the import benchmark needs the sqlite3 shell (apt-get install sqlite3) as its reference',
  )
  process.exit(1)
}
const child = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'import-child.ts')

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
  ],
]
for (const size of sizes) {
  const csv = releaseCsv(size)
  const mb = statSync(csv).size / 1e6
  const flat = join(dataDir, `flat-${size}.db`)
  const project = join(dataDir, `import-${size}.winnow`)
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
  const ours = JSON.parse(run.stdout) as { seconds: number; maxRssMb: number; annotations: number }
  clean()
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
  ])
  console.log(
    `${size} rows: sqlite3 ${reference.toFixed(2)} s, winnow ${ours.seconds.toFixed(2)} s (×${(ours.seconds / reference).toFixed(2)}), peak ${ours.maxRssMb.toFixed(0)} MB`,
  )
}
console.log(`\n${table(rows)}`)
