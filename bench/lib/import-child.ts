// Runs one import the way the app runs it: the built task thread (`out/main/task-worker.js`,
// which starts the built read-ahead thread), in a process of its own so its peak memory is the
// import's alone. Times from starting the thread to the rows committed (the thread reports the
// full-text indexing from its first moment) and to the end of that indexing.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ImportResult } from '../../src/shared/contract/imports'
import { openProject } from '../../src/main/db/connection'
import type { TaskThreadData, TaskThreadMessage } from '../../src/main/jobs/runOnThread'
import { seconds } from './measure'

const [csv, project] = process.argv.slice(2)
if (!csv || !project) throw new Error('usage: import-child CSV PROJECT')
const script = join(dirname(fileURLToPath(import.meta.url)), '../../out/main/task-worker.js')
if (!existsSync(script)) throw new Error('build the app first: npx electron-vite build')
openProject(project, { create: true }).close()

/**
 * Peak resident memory split as Linux counts it: anonymous (heaps, SQLite's cache and sorter)
 * and file pages (the project file, which SQLite maps into memory up to `mmap_size`, and the
 * program's code). Sampled every 10 ms on this otherwise idle thread; zero where there is no /proc.
 */
const peak = { anonMb: 0, fileMb: 0 }
const sample = (): void => {
  if (!existsSync('/proc/self/status')) return
  const status = readFileSync('/proc/self/status', 'utf8')
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1])
  peak.anonMb = Math.max(peak.anonMb, kb('RssAnon') / 1024)
  peak.fileMb = Math.max(peak.fileMb, kb('RssFile') / 1024)
}
const sampler = setInterval(sample, 10)

const data: TaskThreadData = {
  task: 'import',
  input: { dbPath: project, work: { files: [{ path: csv }], options: {} } },
  cancelFlag: new Int32Array(new SharedArrayBuffer(4)),
  nativeBinding: null,
}
const start = process.hrtime.bigint()
// Plain Node, as in the app: the thread does not inherit this process's TypeScript loader.
const worker = new Worker(script, { workerData: data, execArgv: [] })
let committed: { seconds: number; maxRssMb: number; anonMb: number } | null = null
worker.on('message', (message: TaskThreadMessage) => {
  // The first report of the indexing: the rows are committed.
  if (message.type === 'progress' && message.report.unit === 'annotations' && committed === null) {
    sample()
    committed = {
      seconds: seconds(start),
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      anonMb: peak.anonMb,
    }
  } else if (message.type === 'failed') {
    throw new Error(`import failed: ${message.error.message}`)
  } else if (message.type === 'done') {
    const searchable = seconds(start)
    sample()
    clearInterval(sampler)
    if (committed === null) throw new Error('the import thread reported no indexing')
    process.stdout.write(
      JSON.stringify({
        ...committed,
        annotations: (message.result as ImportResult).annotations,
        searchable,
        searchableMaxRssMb: process.resourceUsage().maxRSS / 1024,
        searchableAnonMb: peak.anonMb,
        searchableFileMb: peak.fileMb,
      }),
    )
  }
})
