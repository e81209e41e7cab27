// Review queries on a million annotations (ten million with `--scale 10m`): first rows and the
// exact total (apart, as the grid asks for them) for 30 seeded random filter combinations, deep
// paging, and the rating filter beside the others — our query path beside the plain SQL (a count
// of the annotations and the page) run by the sqlite3 shell on the same file in the same script.
// Writes its figures into docs/benchmarks.md ("Review queries", "… at ten million").
//   npx tsx bench/query.bench.ts [--quick] [--scale 1m|10m]      (or: npm run bench -- query)
import { spawnSync } from 'node:child_process'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { type Db, openProject, pluck, pluckAll } from '../src/main/db/connection'
import {
  type Trace,
  countAnnotations,
  forgetTotals,
  queryAnnotations,
} from '../src/main/db/queries/review/query'
import {
  constraintsOf,
  liveCountStatement,
  plainCountStatement,
} from '../src/main/db/queries/review/count'
import { type SqlFragment, sql } from '../src/main/db/sql'
import type { ReviewCursor } from '../src/shared/contract/review'
import {
  type AnnotationFilter,
  type SortSpec,
  formatDay,
  indexedSortColumns,
} from '../src/shared/filter'
import { writeSection } from './lib/benchmarksDoc'
import { dataDir } from './lib/data'
import { NOT_SEARCHED, ensureProject } from './lib/project'
import { hasCommand, quantile, seededRandom, table } from './lib/measure'

const quick = process.argv.includes('--quick')
const scaleAt = process.argv.indexOf('--scale')
const scale = scaleAt >= 0 ? (process.argv[scaleAt + 1] ?? '1m') : '1m'
if (scale !== '1m' && scale !== '10m') throw new Error('--scale takes 1m or 10m')
const tenMillion = scale === '10m' && !quick
// ≈ 4.7 annotations per submission: 213k submissions give about a million annotations.
const SUBMISSIONS = quick ? 21_300 : tenMillion ? 2_130_000 : 213_000
const COMBOS = 30
const REPEATS = 5
const SHELL = '/usr/bin/sqlite3'

function ms(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6
}

function combinations(db: Db): Array<{ filter: AnnotationFilter; sort: SortSpec }> {
  const r = seededRandom(20191128)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T
  const maxSubmission = pluck<number>(db, sql`SELECT max(id) FROM submissions`) ?? 1
  const randomSubmission = () =>
    pluck<number>(
      db,
      sql`SELECT id FROM submissions WHERE id >= ${1 + Math.floor(r() * maxSubmission)} LIMIT 1`,
    ) ?? 1
  const of = (id: number, what: SqlFragment) =>
    pluck<string>(db, sql`SELECT ${what} FROM submissions s WHERE s.id = ${id}`) ?? ''
  const lo = pluck<number>(db, sql`SELECT min(submitted_at) FROM annotations`) ?? 0
  const hi = pluck<number>(db, sql`SELECT max(submitted_at) FROM annotations`) ?? 0
  const ratings = pluckAll<number>(
    db,
    sql`SELECT DISTINCT file_rating FROM submissions WHERE file_rating IS NOT NULL`,
  )
  const word = (text: string, min: number) => {
    const words = text
      .split(/[^A-Za-z]+/)
      .filter((w) => w.length >= min && !NOT_SEARCHED.has(w.toLowerCase()))
    return words.length > 0 ? pick(words) : 'cafe'
  }
  const makers: Record<string, () => AnnotationFilter> = {
    workers: () => ({
      workers: [
        ...new Set(
          Array.from({ length: 1 + Math.floor(r() * 3) }, () =>
            of(
              randomSubmission(),
              sql.raw('(SELECT external_id FROM workers WHERE id = s.worker_id)'),
            ),
          ),
        ),
      ],
    }),
    dimensions: () => ({
      dimensions: [
        ...new Set(Array.from({ length: 1 + Math.floor(r() * 3) }, () => 1 + Math.floor(r() * 10))),
      ],
    }),
    ratings: () => {
      const values: Array<number | 'unrated'> = [
        ...new Set([pick(ratings), ...(r() < 0.4 ? [pick(ratings)] : [])]),
      ]
      return { ratings: r() < 0.15 ? [...values, 'unrated'] : values }
    },
    dates: () => {
      const from = lo + Math.floor(r() * ((hi - lo) / 86_400)) * 86_400
      return {
        from: formatDay(from),
        to: formatDay(Math.min(hi, from + Math.floor(r() * 30) * 86_400)),
      }
    },
    text: () => ({
      text: word(
        of(
          randomSubmission(),
          sql.raw(
            '(SELECT specific_nl FROM annotation_texts t JOIN annotations a ON a.id = t.annotation_id WHERE a.submission_id = s.id LIMIT 1)',
          ),
        ),
        4,
      ),
    }),
    sentence: () => {
      // What a reviewer looks for: a word of the sentence, sometimes with the next one.
      const text = of(
        randomSubmission(),
        sql.raw(
          '(SELECT text FROM sentences WHERE story_id = s.story_id AND idx = s.sentence_index)',
        ),
      )
      const words = text.replace(/\.$/, '').split(' ')
      const from = Math.floor(r() * words.length)
      const good = (w: string, i: number) =>
        i >= from && w.length >= 4 && !NOT_SEARCHED.has(w.toLowerCase())
      const at = words.findIndex(good)
      const start = at < 0 ? 0 : at
      return { sentence: words.slice(start, start + 1 + (r() < 0.5 ? 1 : 0)).join(' ') }
    },
    stories: () => ({
      stories: [
        of(randomSubmission(), sql.raw('(SELECT external_id FROM stories WHERE id = s.story_id)')),
      ],
    }),
    flagged: () => ({ flagged: true }),
  }
  const weighted = [
    'workers',
    'workers',
    'dimensions',
    'dimensions',
    'dimensions',
    'ratings',
    'ratings',
    'ratings',
    'dates',
    'dates',
    'dates',
    'text',
    'sentence',
    'stories',
    'flagged',
  ]
  const out: Array<{ filter: AnnotationFilter; sort: SortSpec }> = []
  for (let i = 0; i < COMBOS; i++) {
    const kinds = new Set<string>(i % 5 === 0 ? ['text'] : i % 5 === 1 ? ['sentence'] : [])
    const n = r() < 0.3 ? 1 : r() < 0.65 ? 2 : 3
    while (kinds.size < n) kinds.add(pick(weighted))
    const filter = Object.assign(
      {},
      ...[...kinds].map((k) => makers[k]?.() ?? {}),
    ) as AnnotationFilter
    const sort: SortSpec =
      r() < 0.5
        ? { column: 'id', direction: 'asc' }
        : { column: pick(indexedSortColumns), direction: r() < 0.5 ? 'asc' : 'desc' }
    out.push({ filter, sort })
  }
  return out
}

/** The SQL text with every bound value written in, for the shell. */
function inline(fragment: SqlFragment): string {
  let i = 0
  return fragment.text.replace(/\?/g, () => {
    const v = fragment.values[i++]
    if (v === null || v === undefined) return 'NULL'
    if (typeof v === 'number' || typeof v === 'bigint') return String(v)
    return `'${String(v).replace(/'/g, "''")}'`
  })
}

interface Query {
  filter: AnnotationFilter
  sort: SortSpec
  offset?: number
  after?: ReviewCursor
}

/**
 * Our path as the grid asks: the first rows (without waiting for a total the summary cannot give)
 * and then the exact total (the summary's, or the count thread's statement), each cold and the
 * median of REPEATS; and the plain statements for the shell: the count of the annotations, the
 * page and its rows.
 */
function ours(
  db: Db,
  q: Query,
): {
  ms: number
  totalMs: number
  total: number
  statements: string[]
  /** The plain count statement alone, for the shell (null when nothing is counted). */
  count: string | null
  next: ReviewCursor | null
} {
  const times: number[] = []
  const totalTimes: number[] = []
  const trace: Trace = []
  const c = constraintsOf(db, q.filter)
  const plain = plainCountStatement(db, c)
  if (plain) trace.push(plain)
  forgetTotals(db)
  const request = { ...q, limit: 100, countLater: true }
  // The page and its rows; the summary's own count is not the plain SQL.
  const pageTrace: Trace = []
  let page = queryAnnotations(db, request, pageTrace)
  for (const st of pageTrace) if (!/annotation_(day_)?counts/.test(st.text)) trace.push(st)
  const live = liveCountStatement(db, c, 0)
  let total = 0
  for (let i = 0; i < REPEATS; i++) {
    forgetTotals(db)
    let start = process.hrtime.bigint()
    page = queryAnnotations(db, request)
    times.push(ms(start))
    start = process.hrtime.bigint()
    total = live ? (pluck<number>(db, live) ?? 0) : countAnnotations(db, q.filter)
    totalTimes.push(ms(start))
  }
  return {
    ms: quantile(times, 0.5),
    totalMs: quantile(totalTimes, 0.5),
    total,
    statements: trace.map(inline),
    count: plain ? inline(plain) : null,
    next: page.next,
  }
}

/** The shell runs each query's statements REPEATS times; per query, the median of their sums. */
function shell(path: string, queries: string[][]): number[] {
  const lines = [
    'PRAGMA cache_size = -65536;',
    'PRAGMA mmap_size = 268435456;',
    '.output /dev/null',
    '.timer on',
  ]
  for (const statements of queries) {
    for (let i = 0; i < REPEATS + 1; i++)
      for (const s of statements) lines.push(`${s.replace(/\s+/g, ' ')};`)
  }
  const result = spawnSync(SHELL, [path], {
    input: lines.join('\n'),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  if (result.status !== 0) throw new Error(`sqlite3 failed: ${result.stderr}`)
  const times = [...result.stdout.matchAll(/Run Time: real ([\d.]+)/g)].map(
    (m) => Number(m[1]) * 1000,
  )
  const out: number[] = []
  let at = 0 // the PRAGMAs come before `.timer on`: only the statements are timed
  for (const statements of queries) {
    const sums: number[] = []
    for (let i = 0; i < REPEATS + 1; i++) {
      let sum = 0
      for (let k = 0; k < statements.length; k++) sum += times[at++] ?? NaN
      if (i > 0) sums.push(sum) // the first round warms the cache, as ours does
    }
    out.push(quantile(sums, 0.5))
  }
  return out
}

const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1))
const ratio = (a: number, b: number) => (a / b).toFixed(2)

const path = join(
  dataDir,
  quick ? 'review-100k.winnow' : tenMillion ? 'review-10m.winnow' : 'review-1m.winnow',
)
ensureProject(path, SUBMISSIONS)
const db = openProject(path)
// The count thread's liveness check, always live here (nothing replaces a benchmark's count).
db.function('winnow_live', { varargs: true }, () => 1)
const annotations = pluck<number>(db, sql`SELECT count(*) FROM annotations`) ?? 0
console.log(
  `${annotations} annotations in ${path}; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
if (!hasCommand(SHELL)) throw new Error(`${SHELL} is needed for the reference`)
const shellVersion = spawnSync(SHELL, ['--version'], { encoding: 'utf8' }).stdout.split(' ')[0]
const libVersion = pluck<string>(db, sql`SELECT sqlite_version()`)

// 1. First page + exact total, 30 seeded combinations.
// Each query runs in our path and then in the shell right away, so both see the same load.
const combos = combinations(db)
const isText = (f: AnnotationFilter) => f.text !== undefined || f.sentence !== undefined
/** The shell's figure for a text total's plain count statement alone (NaN for other filters). */
const countInShell = (q: Query, m: { count: string | null }) =>
  isText(q.filter) && m.count ? (shell(path, [[m.count]])[0] ?? NaN) : NaN
const reference: number[] = []
const countReference: number[] = []
const measured = combos.map((q) => {
  const m = ours(db, q)
  reference.push(shell(path, [m.statements])[0] ?? NaN)
  countReference.push(countInShell(q, m))
  return m
})
const orDash = (v: number) => (Number.isNaN(v) ? '–' : fmt(v))
const rows: (string | number)[][] = [
  [
    '#',
    'filter',
    'sort',
    'total',
    'first rows ms',
    'exact total ms',
    'sqlite3 ms',
    'sqlite3 count ms',
  ],
]
combos.forEach((q, i) => {
  const m = measured[i]!
  rows.push([
    i + 1,
    `\`${JSON.stringify(q.filter)}\``,
    `${q.sort.column} ${q.sort.direction}`,
    m.total,
    fmt(m.ms),
    fmt(m.totalMs),
    fmt(reference[i] ?? NaN),
    orDash(countReference[i] ?? NaN),
  ])
})
const oursAll = measured.map((m) => m.ms)
const totalsAll = measured.map((m) => m.totalMs)
const textTotals = measured.filter((_, i) => isText(combos[i]!.filter)).map((m) => m.totalMs)
const otherTotals = measured.filter((_, i) => !isText(combos[i]!.filter)).map((m) => m.totalMs)
const textCounts = countReference.filter((v) => !Number.isNaN(v))
const summary: (string | number)[][] = [
  [
    'measure',
    'winnow p50 ms',
    'winnow p95 ms',
    'sqlite3 p50 ms',
    'sqlite3 p95 ms',
    'winnow / sqlite3 (p95)',
  ],
  [
    `first rows, ${COMBOS} filters`,
    fmt(quantile(oursAll, 0.5)),
    fmt(quantile(oursAll, 0.95)),
    fmt(quantile(reference, 0.5)),
    fmt(quantile(reference, 0.95)),
    ratio(quantile(oursAll, 0.95), quantile(reference, 0.95)),
  ],
  [
    `exact total, all ${COMBOS}`,
    fmt(quantile(totalsAll, 0.5)),
    fmt(quantile(totalsAll, 0.95)),
    '',
    '',
    '',
  ],
  [
    `exact total, the ${otherTotals.length} without text or sentence`,
    fmt(quantile(otherTotals, 0.5)),
    fmt(quantile(otherTotals, 0.95)),
    '',
    '',
    '',
  ],
  [
    `exact total, the ${textTotals.length} with text or sentence (sqlite3: the count alone)`,
    fmt(quantile(textTotals, 0.5)),
    fmt(quantile(textTotals, 0.95)),
    fmt(quantile(textCounts, 0.5)),
    fmt(quantile(textCounts, 0.95)),
    ratio(quantile(textTotals, 0.95), quantile(textCounts, 0.95)),
  ],
]

// 2. Deep paging: a jump to row 900,000, and the keyset page after it.
const deep = Math.min(900_000, Math.floor(annotations * 0.9))
const deepRows: (string | number)[][] = [['page', 'winnow ms', 'sqlite3 ms']]
for (const sort of [
  { column: 'id', direction: 'asc' },
  { column: 'submittedAt', direction: 'desc' },
  { column: 'rating', direction: 'desc' },
] as SortSpec[]) {
  const jump = ours(db, { filter: {}, sort, offset: deep })
  const next = ours(db, { filter: {}, sort, after: jump.next as ReviewCursor })
  const [jumpShell = NaN] = shell(path, [jump.statements])
  deepRows.push([`offset ${deep}, ${sort.column} ${sort.direction}`, fmt(jump.ms), fmt(jumpShell)])
  deepRows.push([
    `keyset after row ${deep + 100}, ${sort.column} ${sort.direction}`,
    fmt(next.ms),
    '–',
  ])
}

// 3. The effective-rating filter beside the other single filters.
const topWorker =
  pluck<string>(
    db,
    sql`SELECT w.external_id FROM workers w ORDER BY (SELECT count(*) FROM submissions s WHERE s.worker_id = w.id) DESC LIMIT 1`,
  ) ?? ''
const lo = pluck<number>(db, sql`SELECT min(submitted_at) FROM annotations`) ?? 0
const singles: Query[] = [
  { filter: { ratings: [2] }, sort: { column: 'id', direction: 'asc' } },
  { filter: { ratings: [3, 'unrated'] }, sort: { column: 'id', direction: 'asc' } },
  { filter: { ratings: [1] }, sort: { column: 'rating', direction: 'desc' } },
  { filter: { dimensions: [1] }, sort: { column: 'id', direction: 'asc' } },
  { filter: { dimensions: [2, 7] }, sort: { column: 'dimension', direction: 'asc' } },
  { filter: { workers: [topWorker] }, sort: { column: 'id', direction: 'asc' } },
  {
    filter: { from: formatDay(lo + 30 * 86_400), to: formatDay(lo + 37 * 86_400) },
    sort: { column: 'id', direction: 'asc' },
  },
  // Worst cases, not among the 30: a word in most sentences, a connector in most statements.
  { filter: { sentence: 'the' }, sort: { column: 'id', direction: 'asc' } },
  { filter: { text: 'enables' }, sort: { column: 'id', direction: 'asc' } },
  {
    filter: { text: 'enables', dimensions: [1] },
    sort: { column: 'submittedAt', direction: 'desc' },
  },
]
const singleShell: number[] = []
const singleCountShell: number[] = []
const singleMeasured = singles.map((q) => {
  const m = ours(db, q)
  singleShell.push(shell(path, [m.statements])[0] ?? NaN)
  singleCountShell.push(countInShell(q, m))
  return m
})
const singleRows: (string | number)[][] = [
  ['filter and sort', 'total', 'first rows ms', 'exact total ms', 'sqlite3 ms', 'sqlite3 count ms'],
]
singles.forEach((q, i) =>
  singleRows.push([
    `\`${JSON.stringify(q.filter)}\` by ${q.sort.column}`,
    singleMeasured[i]!.total,
    fmt(singleMeasured[i]!.ms),
    fmt(singleMeasured[i]!.totalMs),
    fmt(singleShell[i] ?? NaN),
    orDash(singleCountShell[i] ?? NaN),
  ]),
)

const report = [
  tenMillion ? '## Review queries at ten million' : '## Review queries',
  '',
  `\`npm run bench -- query${tenMillion ? ' --scale 10m' : ''}\` on ${annotations.toLocaleString('en')} generated annotations (synth seed 65521), ` +
    `${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0]?.toFixed(1)} on ${process.platform}. ` +
    `First rows = \`queryAnnotations\` as the grid asks (first 100 rows with their texts, the total left to count ` +
    `when the summary cannot give it); exact total = the summary's sum, or the count thread's statement for text, ` +
    `sentence and story filters, computed afresh; medians of ${REPEATS}. sqlite3 = the plain SQL: a count of the ` +
    `annotations, the page and its rows, run by the \`sqlite3\` shell ` +
    `(${shellVersion}; Winnow's SQLite is ${libVersion}) on the same file, \`.timer on\`; sqlite3 count = ` +
    `the shell's figure for a text or sentence filter's plain count statement alone (the floor of its total).`,
  '',
  table(summary),
  '',
  table(deepRows),
  '',
  'The effective rating filter beside the other single filters, and three worst cases (a word in',
  'most sentences, a connector word in most statements):',
  '',
  table(singleRows),
  '',
  '<details><summary>The 30 combinations</summary>',
  '',
  table(rows),
  '',
  '</details>',
  '',
].join('\n')
console.log(report)

if (!quick) await writeSection(report)
db.close()
