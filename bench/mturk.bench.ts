// MTurk pull speed: 10,000 assignments from the stand-in (its own process on this machine, so no
// rate limit, no faults) into a fresh project, against a reference in the same run: the same pages
// fetched with the same SDK client and concurrency, without parsing or storing. The pull runs as
// the app runs it (a pull of this size parses and stores on a store thread). Reports
// assignments/s, the process's CPU time, and where the pull's thread spent its time (listing HITs,
// waiting for pages, held by the store, indexing the text at the end) next to the busy time of
// parsing and storing wherever they ran.
// A floor for storing, from outside our code: what one pull stored (every plain table, its text
// index left out), exported as CSV and loaded by the sqlite3 shell's `.import` into flat tables
// with no index or constraint.
// `--scale` measures instead how a pull's cost grows with the HITs: one assignment per HIT,
// 10,000 then 65,000 (the size of the GLUCOSE release), with the default store thread, each
// against fetching the same pages alone, and reports assignments/s and the cost per assignment at
// 65,000 as a multiple of that at 10,000 (flat = 1).
// (`--sizes=A,B` picks two other sizes).
//   npm run bench -- mturk [--quick | --scale [--sizes=A,B]]
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { openProject } from '../src/main/db/connection'
import { connect } from '../src/main/mturk/connect'
import { listHITs, pullAssignments } from '../src/main/mturk/pull'
import { runPull } from '../src/main/mturk/pullRun'
import { hasCommand, seconds, table, timeCommand } from './lib/measure'

const quick = process.argv.includes('--quick')
const scale = process.argv.includes('--scale')
const ASSIGNMENTS = quick ? 2_000 : 10_000
/**
 * GLUCOSE-like HITs (a few assignments each: one page per HIT), full pages of 100, and the
 * GLUCOSE-like shape again with every answer 150 ms late: an assumed round trip to the real
 * service with a page of answers (the stand-in's slow-answer fault), to show the split a real
 * pull would have.
 */
const SHAPES: { perHit: number; latency: number; label: string }[] = [
  { perHit: 10, latency: 0, label: 'HITs of 10 (1 page each)' },
  { perHit: 100, latency: 0, label: 'HITs of 100 (full pages)' },
  { perHit: 10, latency: 150, label: 'HITs of 10, 150 ms per answer' },
]
const ROUNDS = quick ? 1 : 2
const CONCURRENCY = 4
const credentials = { accessKeyId: 'AKIDBENCHLOCAL', secretAccessKey: 'bench-local' }
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Starts the stand-in in a child process and resolves its URL. */
async function startStandin(
  hits: number,
  perHit: number,
  latency: number,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'standin/cli.ts'),
      '--demo',
      '--quiet',
      '--port',
      '0',
      '--hits',
      String(hits),
      '--per-hit',
      String(perHit),
      '--latency',
      String(latency),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const m = /listening on (http:\/\/\S+)/.exec(line)
      if (m?.[1]) resolve(m[1])
    })
    child.once('exit', (code) => reject(new Error(`stand-in exited with ${code}`)))
  })
  return { url, child }
}

/** The same pages, fetched and dropped. */
async function reference(url: string): Promise<{ seconds: number; assignments: number }> {
  const ctx = connect({ endpoint: url, credentials })
  const start = process.hrtime.bigint()
  let assignments = 0
  for await (const batch of pullAssignments(ctx, await listHITs(ctx), {
    concurrency: CONCURRENCY,
  })) {
    assignments += batch.assignments.length
  }
  const s = seconds(start)
  ctx.close()
  return { seconds: s, assignments }
}

interface Floor {
  seconds: number
  rows: number
  mb: number
}

/**
 * What the pull stored in `dbPath`, loaded into flat tables by the sqlite3 shell: every plain
 * table with rows (not the full-text index and its shadow tables, which the pull builds after
 * its last commit and the table reports as indexing), exported as CSV first, untimed.
 */
function shellFloor(dbPath: string, dir: string): Floor {
  const db = openProject(dbPath, { readonly: true })
  const tables = (
    db
      .prepare("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'")
      .pluck()
      .all() as string[]
  ).filter((name) => !name.startsWith('sqlite_'))
  const counts = tables.map(
    (name) => db.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number,
  )
  db.close()
  const script = ['.mode csv']
  let bytes = 0
  tables.forEach((name, i) => {
    if (!counts[i]) return
    const csv = join(dir, `${name}.csv`)
    const out = spawnSync('sqlite3', ['-csv', '-header', dbPath, `SELECT * FROM "${name}"`], {
      maxBuffer: 1 << 30,
    })
    if (out.status !== 0) throw new Error(`exporting ${name} failed`)
    writeFileSync(csv, out.stdout)
    bytes += statSync(csv).size
    script.push(`.import ${csv} ${name}`)
  })
  const seconds = timeCommand('sqlite3', [join(dir, 'floor.db')], script.join('\n'))
  return { seconds, rows: counts.reduce((a, b) => a + b, 0), mb: bytes / 1e6 }
}

async function ours(url: string, floor = false, expected = ASSIGNMENTS) {
  const dir = mkdtempSync(join(tmpdir(), 'winnow-mturk-bench-'))
  const db = openProject(join(dir, 'pull.winnow'), { create: true })
  const ctx = connect({ endpoint: url, credentials })
  const timing = { listMs: 0, waitMs: 0, parseMs: 0, storeMs: 0, storeWaitMs: 0, indexMs: 0 }
  const cpuStart = process.cpuUsage()
  const start = process.hrtime.bigint()
  const result = await runPull(
    db,
    ctx,
    { mode: 'all', selection: {} },
    {
      endpoint: ctx.url,
      author: 'bench',
      concurrency: CONCURRENCY,
      timing,
    },
  )
  const s = seconds(start)
  const cpu = process.cpuUsage(cpuStart)
  ctx.close()
  db.close()
  const floorOfThis = floor ? shellFloor(join(dir, 'pull.winnow'), dir) : null
  rmSync(dir, { recursive: true, force: true })
  if (result.new !== expected) throw new Error(`pulled ${result.new} of ${expected}`)
  return { seconds: s, cpuSeconds: (cpu.user + cpu.system) / 1e6, timing, floor: floorOfThis }
}

if (scale) {
  const given = process.argv.find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length)
  const sizes = given ? given.split(',').map(Number) : quick ? [2_000, 10_000] : [10_000, 65_000]
  const scaleRows: (string | number)[][] = [
    ['assignments (1 per HIT)', 'reference s', 'reference a/s', 'winnow s', 'winnow a/s', 'ratio'],
  ]
  const perAssignment: number[] = []
  for (const size of sizes) {
    const { url, child } = await startStandin(size, 1, 0)
    try {
      await reference(url)
      const ref = await reference(url)
      const win = await ours(url, false, size)
      perAssignment.push(win.seconds / size)
      scaleRows.push([
        size,
        ref.seconds.toFixed(2),
        Math.round(ref.assignments / ref.seconds),
        win.seconds.toFixed(2),
        Math.round(size / win.seconds),
        (win.seconds / ref.seconds).toFixed(2),
      ])
      console.log(
        `${size} HITs of 1: reference ${ref.seconds.toFixed(2)} s, winnow ${win.seconds.toFixed(2)} s ` +
          `(${Math.round(size / win.seconds)} assignments/s)`,
      )
    } finally {
      child.kill('SIGTERM')
    }
  }
  console.log(`\n${table(scaleRows)}`)
  const growth = (perAssignment[1] ?? 0) / (perAssignment[0] ?? 1)
  console.log(
    `\ncost per assignment at ${sizes[1]} = ${growth.toFixed(2)}× that at ${sizes[0]} (target ≤ 1.5)`,
  )
  process.exit(0)
}

const pct = (ms: number, s: number): string => `${((ms / 1000 / s) * 100).toFixed(0)}%`
const rows: (string | number)[][] = [
  [
    'shape',
    'reference s',
    'reference a/s',
    'winnow s',
    'winnow a/s',
    'ratio',
    'CPU s',
    'listing',
    'waiting (HTTP)',
    'held by the store',
    'indexing',
    'other',
    'parsing (busy)',
    'storing (busy)',
  ],
]
const floors: (string | number)[][] = [
  ['shape', 'reference s', 'rows stored', 'CSV MB', 'sqlite3 .import s', 'sqlite3 / reference'],
]
const measureFloor = hasCommand('sqlite3')
if (!measureFloor)
  console.log('no sqlite3 shell (apt-get install sqlite3): the storing floor is left out')
for (const shape of SHAPES) {
  const { url, child } = await startStandin(ASSIGNMENTS / shape.perHit, shape.perHit, shape.latency)
  try {
    if (shape.latency === 0) await reference(url) // warm-up: JIT, keep-alive sockets, caches
    let ref = { seconds: Infinity, assignments: 0 }
    let best: Awaited<ReturnType<typeof ours>> | null = null
    let floor: Floor | null = null
    // A slow stand-in measures the same thing each time: one round is enough.
    for (let round = 0; round < (shape.latency > 0 ? 1 : ROUNDS); round++) {
      const r = await reference(url)
      if (r.seconds < ref.seconds) ref = r
      const w = await ours(url, measureFloor && shape.latency === 0 && !floor)
      floor ??= w.floor
      if (!best || w.seconds < best.seconds) best = w
    }
    if (floor) {
      floors.push([
        shape.label,
        ref.seconds.toFixed(2),
        floor.rows,
        floor.mb.toFixed(0),
        floor.seconds.toFixed(2),
        (floor.seconds / ref.seconds).toFixed(2),
      ])
      console.log(
        `${shape.label}: sqlite3 .import of what was stored ${floor.seconds.toFixed(2)} s ` +
          `(${floor.rows} rows, ${floor.mb.toFixed(0)} MB of CSV), ×${(floor.seconds / ref.seconds).toFixed(2)} the reference`,
      )
    }
    if (!best) throw new Error('no round was measured')
    const win = best
    const t = win.timing
    const other = win.seconds * 1000 - t.listMs - t.waitMs - t.storeWaitMs - t.indexMs
    rows.push([
      shape.label,
      ref.seconds.toFixed(2),
      Math.round(ref.assignments / ref.seconds),
      win.seconds.toFixed(2),
      Math.round(ASSIGNMENTS / win.seconds),
      (win.seconds / ref.seconds).toFixed(2),
      win.cpuSeconds.toFixed(2),
      pct(t.listMs, win.seconds),
      pct(t.waitMs, win.seconds),
      pct(t.storeWaitMs, win.seconds),
      pct(t.indexMs, win.seconds),
      pct(other, win.seconds),
      pct(t.parseMs, win.seconds),
      pct(t.storeMs, win.seconds),
    ])
    console.log(
      `${shape.label}: reference ${ref.seconds.toFixed(2)} s, ` +
        `winnow ${win.seconds.toFixed(2)} s (×${(win.seconds / ref.seconds).toFixed(2)}), ` +
        `CPU ${win.cpuSeconds.toFixed(2)} s; wait ${t.waitMs.toFixed(0)} ms, held ${t.storeWaitMs.toFixed(0)} ms, ` +
        `index ${t.indexMs.toFixed(0)} ms, list ${t.listMs.toFixed(0)} ms; ` +
        `parse ${t.parseMs.toFixed(0)} ms, store ${t.storeMs.toFixed(0)} ms busy`,
    )
  } finally {
    child.kill('SIGTERM')
  }
}
console.log(`\n${ASSIGNMENTS} assignments, concurrency ${CONCURRENCY}, best of ${ROUNDS}\n`)
console.log(table(rows))
if (floors.length > 1) console.log(`\nStoring floor\n\n${table(floors)}`)
