// How long a bulk rating, its revert and a full recomputation block the serve process's main
// thread: tiny requests (`jobs.list`) are sent one after another while the write runs, and the
// slowest answer is the longest block (plus one request's own time, shown as the probe floor).
import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import Database from 'better-sqlite3'
import { quantile, table, timeCommand } from './measure'
import { largest } from '../../src/shared/lists'

interface Server {
  url: string
  token: string
  child: ChildProcess
}

/** `winnow serve --json` from the build in `root` on a project; resolves with its address. */
async function serveFrom(root: string, db: string, dir: string): Promise<Server> {
  const child = spawn(process.execPath, ['out/main/cli.js', 'serve', '--db', db, '--json'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, TMPDIR: dir },
  })
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`winnow serve exited with ${code}`)))
  })
  return { ...(JSON.parse(first) as { url: string; token: string }), child }
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}

async function callApi<T>(server: Server, name: string, args: object): Promise<T> {
  const response = await fetch(`${new URL(server.url).origin}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-winnow-token': server.token },
    body: JSON.stringify(args),
  })
  const outcome = (await response.json()) as { ok: boolean; value: T; error?: unknown }
  if (!outcome.ok) throw new Error(`${name} failed: ${JSON.stringify(outcome.error)}`)
  return outcome.value
}

interface Stall {
  /** Wall time of the call, from Node. */
  callMs: number
  /** The slowest probe answered while it ran (and 300 ms after): the longest block. */
  longestMs: number
  /** The median probe: what one request costs when nothing blocks. */
  floorMs: number
  probes: number
}

/** Runs `call` while probing the server back to back; the probes go on 300 ms after it returns. */
async function probeDuring(server: Server, call: () => Promise<unknown>): Promise<Stall> {
  const latencies: number[] = []
  let running = true
  const probing = (async () => {
    while (running) {
      const start = process.hrtime.bigint()
      // A server blocked for long may drop the connection: the probe is answered when a retry is.
      for (;;) {
        try {
          await callApi(server, 'jobs.list', {})
          break
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 1))
        }
      }
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6)
    }
  })()
  await new Promise((resolve) => setTimeout(resolve, 200))
  const start = process.hrtime.bigint()
  await call()
  const callMs = Number(process.hrtime.bigint() - start) / 1e6
  await new Promise((resolve) => setTimeout(resolve, 300))
  running = false
  await probing
  return {
    callMs,
    longestMs: largest(latencies),
    floorMs: quantile(latencies, 0.5),
    probes: latencies.length,
  }
}

const BULK_FILTER = { dimensions: [1, 6] }
const BULK_RATING = 2

/**
 * The reference: the same bulk write (an item rating per annotation of dimensions 1 and 6, and
 * their cached rating) in one transaction in the sqlite3 shell, on a copy of the same file.
 */
function referenceBulkWrite(source: string, dir: string): number {
  const copy = join(dir, 'reference.winnow')
  copyFileSync(source, copy)
  const script = `BEGIN IMMEDIATE;
INSERT INTO change_sets (kind, author, created_at, description) VALUES ('bulk', 'bench', 0, 'reference');
INSERT INTO item_ratings (annotation_id, value, recorded_at, author, note, change_set_id)
  SELECT id, ${BULK_RATING}, 0, 'bench', '', last_insert_rowid() FROM annotations WHERE dimension IN (1, 6) ORDER BY id;
UPDATE annotations SET rating = ${BULK_RATING}, rating_source = 2 WHERE dimension IN (1, 6);
COMMIT;`
  return timeCommand('sqlite3', [copy], script) * 1000
}

interface BulkRun {
  /** Nothing running for 3 s: what the machine's load alone adds to the longest block. */
  idle: Stall
  preview: Stall
  apply: Stall & { rows: number }
  revert: Stall
  /** A full recomputation after the cache was wiped; null where the build has no such call. */
  recompute: Stall | null
}

/** One build's run on a fresh copy of the project. */
async function bulkRun(root: string, source: string, dir: string, name: string): Promise<BulkRun> {
  const db = join(dir, `${name}.winnow`)
  copyFileSync(source, db)
  const server = await serveFrom(root, db, dir)
  try {
    type Result = { changeSet: number | null; changed: number; rows: number }
    const rateQuery = (preview: boolean) =>
      callApi<Result>(server, 'ratings.rateQuery', {
        filter: BULK_FILTER,
        rating: BULK_RATING,
        preview,
      })
    const idle = await probeDuring(
      server,
      () => new Promise((resolve) => setTimeout(resolve, 3000)),
    )
    const preview = await probeDuring(server, () => rateQuery(true))
    let applied: Result | null = null
    const apply = await probeDuring(server, async () => {
      applied = await rateQuery(false)
    })
    const changeSet = (applied as Result | null)?.changeSet
    if (!changeSet) throw new Error('the bulk rating wrote no change set')
    const revert = await probeDuring(server, () =>
      callApi(server, 'ratings.revert', { changeSetId: changeSet }),
    )
    let recompute: Stall | null = null
    const hasRecompute = await callApi(server, 'ratings.recompute', {}).then(
      () => true,
      () => false,
    )
    if (hasRecompute) {
      // Wipe the cache from a second connection, so the recomputation rewrites every row.
      const wipe = new Database(db)
      wipe.pragma('busy_timeout = 10000')
      wipe.exec('UPDATE annotations SET rating = NULL, rating_source = 0')
      wipe.close()
      recompute = await probeDuring(server, () => callApi(server, 'ratings.recompute', {}))
    }
    return {
      idle,
      preview,
      apply: { ...apply, rows: (applied as Result | null)?.rows ?? 0 },
      revert,
      recompute,
    }
  } finally {
    await stop(server)
  }
}

const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1))

/**
 * Measures each build (the one here, and `before` if given: another checkout's build, e.g. main's)
 * on fresh copies of `source` and returns the "Bulk writes and the main thread" section.
 */
export async function bulkStallReport(
  source: string,
  dir: string,
  builds: { name: string; root: string }[],
): Promise<string> {
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')
  const loadBefore = load()
  const reference = referenceBulkWrite(source, dir)
  const runs: { name: string; run: BulkRun }[] = []
  for (const build of builds) {
    console.log(`bulk rating on ${build.name}…`)
    runs.push({ name: build.name, run: await bulkRun(build.root, source, dir, build.name) })
  }
  const rows: (string | number)[][] = [
    [
      'build',
      'write',
      'annotations',
      'call ms',
      'longest block ms',
      'probe floor ms',
      'probes',
      'block / sqlite3 write',
    ],
  ]
  for (const { name, run } of runs) {
    const row = (what: string, s: Stall | null, n: number | string) =>
      s === null
        ? [name, what, n, '—', '—', '—', '—', '—']
        : [
            name,
            what,
            n,
            fmt(s.callMs),
            `**${fmt(s.longestMs)}**`,
            fmt(s.floorMs),
            s.probes,
            (s.longestMs / reference).toFixed(3),
          ]
    rows.push(row('nothing (3 s idle)', run.idle, 0))
    rows.push(row('preview (read)', run.preview, run.apply.rows))
    rows.push(row('bulk rating', run.apply, run.apply.rows))
    rows.push(row('revert of it', run.revert, run.apply.rows))
    rows.push(row('full recomputation, cache wiped', run.recompute, 'all'))
  }
  return [
    '## Bulk writes and the main thread',
    '',
    `\`npm run bench -- ui --bulk [--before=DIR]\` on the project of "Review grid in the browser", ` +
      `${new Date().toISOString().slice(0, 10)}, load average ${loadBefore} before and ${load()} after ` +
      `the run. Each build serves a fresh copy of the project (\`winnow serve\`); while a write runs, ` +
      'Node sends `jobs.list` requests to it one after another, and the slowest answer (from 200 ms ' +
      'before the call to 300 ms after it returned) is the longest time the server’s main thread ' +
      'did not answer. The probe floor is the median answer: the cost of one request. The write is ' +
      '`ratings.rateQuery` of dimensions 1 and 6 rated 2 (what "Rate…" on "select all rows of this ' +
      'query" sends after its preview), then `ratings.revert` of its change set, then, after the ' +
      'cache is wiped from a second connection, `ratings.recompute`. Reference: the same bulk write ' +
      `(the item ratings and the cached rating, one transaction) in the sqlite3 shell on a copy of the ` +
      `file: **${fmt(reference)} ms**.`,
    '',
    table(rows),
    '',
  ].join('\n')
}
