// Import speed: a generated release-layout CSV through `importFiles` into a fresh project,
// against the sqlite3 shell's `.import` of the same file into one flat table, in the same run.
import { rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { openProject } from '../src/main/db/connection'
import { importFiles } from '../src/main/importers/run'
import { dataDir, releaseCsv } from './lib/data'
import { hasCommand, seconds, table, timeCommand } from './lib/measure'

const quick = process.argv.includes('--quick')
const sizes = quick ? [10_000, 65_521] : [10_000, 65_521, 655_210]
if (!hasCommand('sqlite3')) {
  console.error('import bench needs the sqlite3 shell (apt-get install sqlite3) as its reference')
  process.exit(1)
}

const rows: (string | number)[][] = [
  ['rows', 'MB', 'sqlite3 .import s', 'winnow import s', 'ratio', 'rows/s', 'MB/s', 'annotations'],
]
for (const size of sizes) {
  const csv = releaseCsv(size)
  const mb = statSync(csv).size / 1e6
  const flat = join(dataDir, `flat-${size}.db`)
  const project = join(dataDir, `import-${size}.winnow`)
  const clean = () => {
    for (const f of [flat, project]) for (const s of ['', '-wal', '-shm']) rmSync(f + s, { force: true })
  }
  clean()
  const reference = timeCommand('sqlite3', [flat, '.mode csv', `.import ${csv} flat`])
  const db = openProject(project, { create: true })
  const start = process.hrtime.bigint()
  const result = importFiles(db, [{ path: csv }])
  const ours = seconds(start)
  db.close()
  clean()
  rows.push([
    size,
    mb.toFixed(0),
    reference.toFixed(2),
    ours.toFixed(2),
    (ours / reference).toFixed(2),
    Math.round(size / ours),
    (mb / ours).toFixed(1),
    result.annotations,
  ])
  console.log(`${size} rows: sqlite3 ${reference.toFixed(2)} s, winnow ${ours.toFixed(2)} s, ratio ${(ours / reference).toFixed(2)}`)
}
const peakMb = process.resourceUsage().maxRSS / 1024
console.log(`\n${table(rows)}\n\nPeak resident memory of the whole benchmark process: ${peakMb.toFixed(0)} MB`)
