// The review grid in Chromium via serve mode, on a million annotations: from the last keystroke of
// a filter edit to the new rows in the grid, beside the same `review.query` over HTTP from Node;
// and jumps across the full million, from scroll stop until no loading or blank rows are visible.
// Then how long a bulk rating of 343,853 annotations, its revert and a full recomputation block the
// serve process (bench/lib/bulkStall.ts). Writes its figures into docs/benchmarks.md ("Review grid in
// the browser", "Bulk writes and the main thread"). Needs `npm run build`.
//   npm run bench -- ui [--scale 1m|10m]        (10m: the edits and jumps on ten million, without
//                                                the bulk writes)
//   npm run bench -- ui --bulk [--before=DIR]   (the bulk writes only; DIR: another checkout's
//                                                build to compare, e.g. main's)
import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import type { ReviewPage } from '../src/shared/contract/review'
import { type AnnotationFilter, DEFAULT_SORT, filterKey } from '../src/shared/filter'
import { dataDir } from './lib/data'
import { writeSection } from './lib/benchmarksDoc'
import { bulkStallReport } from './lib/bulkStall'
import { quantile, seededRandom, table } from './lib/measure'
import { NOT_SEARCHED, ensureProject } from './lib/project'
import { largest } from '../src/shared/lists'

const EDITS = 30
const JUMPS = 20
const DRAGS = 10
const WHEELS = 10
const WHEEL_NOTCHES = 20
const WHEEL_PX = 300
const FRAME_MS = 1000 / 60
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** `winnow serve --json` on a project; resolves with its address (token in the fragment). */
async function serve(
  db: string,
  dir: string,
): Promise<{ url: string; token: string; child: ChildProcess }> {
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

/** One `review.query` as the grid sends it for its first block; wall time from Node. */
async function query(
  server: { url: string; token: string },
  filter: AnnotationFilter,
  offset = 0,
  limit = 200,
) {
  const start = process.hrtime.bigint()
  const response = await fetch(`${new URL(server.url).origin}/api/review.query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-winnow-token': server.token },
    body: JSON.stringify({ filter, sort: DEFAULT_SORT, page: { limit, offset } }),
  })
  const outcome = (await response.json()) as { ok: boolean; value: ReviewPage }
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (!outcome.ok) throw new Error(`review.query failed: ${JSON.stringify(outcome)}`)
  return { ms, page: outcome.value }
}

// In the page as plain text (tsx would add helpers a function passed to evaluate cannot see).
// `until` resolves with performance.now() when `cond` first holds, checked on every DOM mutation and
// every frame; NaN after a timeout. Rows still loading carry `row-loading` (ReviewGrid's getRowClass).
const PAGE_SCRIPT = `window.__bench = (() => {
  let lastKey = 0
  addEventListener('keydown', () => { lastKey = performance.now() }, true)
  const loading = (row) => row.classList.contains('row-loading') || row.classList.contains('ag-row-loading') || !row.textContent.trim()
  const until = (cond, timeout) => new Promise((resolve) => {
    let done = false
    const stop = (t) => { if (done) return; done = true; observer.disconnect(); clearTimeout(timer); resolve(t) }
    const check = () => { if (!done && cond()) stop(performance.now()) }
    const observer = new MutationObserver(check)
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
    const frame = () => { if (!done) { check(); requestAnimationFrame(frame) } }
    requestAnimationFrame(frame)
    const timer = setTimeout(() => stop(NaN), timeout)
    check()
  })
  const total = () => document.querySelector('[data-testid=grid-total]')?.dataset.total ?? ''
  const shows = (count, firstId) => {
    if (total() !== String(count)) return false
    if (count === 0) return true
    const row = document.querySelector('[data-testid=grid] .ag-row[row-index="0"]')
    return !!row && row.getAttribute('row-id') === String(firstId) && !loading(row)
  }
  // Every pixel row of the viewport below the (sticky) header is covered by a rendered row that has its data.
  const covered = () => {
    const vp = document.querySelector('[data-testid=grid] .ag-grid-viewport')
    const header = document.querySelector('[data-testid=grid] .ag-header')
    if (!vp || !header) return false
    const top = header.getBoundingClientRect().bottom, bottom = vp.getBoundingClientRect().top + vp.clientHeight
    const rows = [...document.querySelectorAll('[data-testid=grid] .ag-row')]
      .map((row) => ({ row, box: row.getBoundingClientRect() }))
      .filter((r) => r.box.bottom > top + 1 && r.box.top < bottom - 1)
      .sort((a, b) => a.box.top - b.box.top)
    let edge = top
    for (const r of rows) {
      if (r.box.top > edge + 1 || loading(r.row)) return false
      edge = Math.max(edge, r.box.bottom)
    }
    return edge >= bottom - 1
  }
  const viewport = () => document.querySelector('[data-testid=grid] .ag-grid-viewport')
  // A scroll gesture: every scroll event and every sample of covered() (each mutation, each frame)
  // is logged; once scrolling has stopped for 300 ms and the rows are covered, the time from the
  // last scroll event to the rows covered for good is read back (0: never blank after the stop).
  let gesture = null
  const startGesture = () => {
    const log = { scrolls: [performance.now()], samples: [] }
    const onScroll = () => log.scrolls.push(performance.now())
    const vp = viewport()
    vp.addEventListener('scroll', onScroll, { passive: true })
    const sample = () => log.samples.push([performance.now(), covered()])
    const observer = new MutationObserver(sample)
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
    let live = true
    const frame = () => { if (live) { sample(); requestAnimationFrame(frame) } }
    requestAnimationFrame(frame)
    gesture = { log, stop: () => { live = false; observer.disconnect(); vp.removeEventListener('scroll', onScroll) } }
  }
  const endGesture = () => new Promise((resolve) => {
    const { log, stop } = gesture
    const begun = performance.now()
    const poll = () => {
      const now = performance.now()
      const lastScroll = log.scrolls[log.scrolls.length - 1]
      const quiet = now - lastScroll > 300 && covered()
      if (!quiet && now - begun < 15000) return setTimeout(poll, 50)
      stop()
      if (!quiet) return resolve({ blank: NaN, scrolls: log.scrolls.length })
      const lastBlank = log.samples.filter(([t, c]) => !c && t >= lastScroll).pop()
      if (!lastBlank) return resolve({ blank: 0, scrolls: log.scrolls.length })
      const fixed = log.samples.find(([t, c]) => c && t > lastBlank[0])
      resolve({ blank: (fixed ? fixed[0] : now) - lastScroll, scrolls: log.scrolls.length })
    }
    poll()
  })
  return {
    total,
    settled: (count, firstId) => until(() => shows(count, firstId), 30000),
    afterKey: (count, firstId) => until(() => shows(count, firstId), 30000).then((t) => t - lastKey),
    // Rows first: the rows of the filter \`key\` on screen (the host's data-shown), its first row
    // rendered with its data; and, apart, its exact total shown too.
    afterKeyRows: (key, count, firstId) => {
      const host = () => document.querySelector('[data-testid=grid]')
      const rowsShown = () => {
        if (host()?.dataset.shown !== key) return false
        if (count === 0) return true
        const row = document.querySelector('[data-testid=grid] .ag-row[row-index="0"]')
        return !!row && row.getAttribute('row-id') === String(firstId) && !loading(row)
      }
      return Promise.all([until(rowsShown, 30000), until(() => shows(count, firstId), 30000)])
        .then(([rows, all]) => [rows - lastKey, all - lastKey])
    },
    jump: (fraction) => {
      const vp = viewport()
      vp.scrollTop = fraction * (vp.scrollHeight - vp.clientHeight)
      const stopped = performance.now()
      return until(covered, 15000).then((t) => t - stopped)
    },
    startGesture,
    endGesture,
    // A scrollbar drag: one scroll position per frame, easing out from here to \`fraction\`.
    drag: (fraction, frames) => new Promise((resolve) => {
      const vp = viewport()
      const room = vp.scrollHeight - vp.clientHeight
      const from = vp.scrollTop, to = fraction * room
      let i = 0
      const step = () => {
        i++
        const x = 1 - Math.pow(1 - i / frames, 3)
        vp.scrollTop = from + (to - from) * x
        if (i < frames) requestAnimationFrame(step)
        else resolve()
      }
      requestAnimationFrame(step)
    }),
  }
})()`

const scaleAt = process.argv.indexOf('--scale')
const scale = scaleAt >= 0 ? (process.argv[scaleAt + 1] ?? '1m') : '1m'
if (scale !== '1m' && scale !== '10m') throw new Error('--scale takes 1m or 10m')
const tenMillion = scale === '10m'
const source = join(dataDir, tenMillion ? 'review-10m.winnow' : 'review-1m.winnow')
ensureProject(source, tenMillion ? 2_130_000 : 213_000)

/** The bulk writes, on this build and (`--before=DIR`) another checkout's. */
async function bulkWrites(): Promise<void> {
  const before = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length)
  const builds = [
    ...(before ? [{ name: 'before', root: before }] : []),
    { name: before ? 'after' : 'this build', root },
  ]
  const scratch = mkdtempSync(join(tmpdir(), 'winnow-bulk-bench-'))
  try {
    const report = await bulkStallReport(source, scratch, builds)
    console.log(report)
    await writeSection(report)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

if (process.argv.includes('--bulk')) {
  await bulkWrites()
  process.exit(0)
}

// A copy, so opening it in the app leaves the cached project as query.bench.ts reads it.
const dir = mkdtempSync(join(tmpdir(), 'winnow-ui-bench-'))
const db = join(dir, 'review.winnow')
copyFileSync(source, db)
// Two servers on the file: the page's, and the reference's, so each sees every filter first (cold
// totals; Winnow caches a filter's exact total per connection).
const app = await serve(db, dir)
const reference = await serve(db, dir)
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
})
try {
  const all = await query(reference, {})
  const full = all.page.total
  console.log(
    `${full} annotations; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )

  // Seeded edits from seeded rows: a statement word, a sentence word, the row's worker, in turn.
  const r = seededRandom(20191128)
  type Kind = 'text' | 'sentence' | 'worker'
  const kinds: Kind[] = ['text', 'sentence', 'worker']
  const edits: Array<{ kind: Kind; value: string }> = []
  while (edits.length < EDITS) {
    const kind = kinds[edits.length % 3]!
    const row = (await query(reference, {}, Math.floor(r() * full), 1)).page.rows[0]!
    const pick = (text: string) => {
      const words = text
        .split(/[^A-Za-z]+/)
        .filter((w) => w.length >= 5 && !NOT_SEARCHED.has(w.toLowerCase()))
      return words[Math.floor(r() * words.length)]
    }
    const value =
      kind === 'worker' ? row.workerId : pick(kind === 'text' ? row.specificNL : row.sentence)
    const edit = { kind, value: kind === 'worker' ? value : value?.toLowerCase() }
    // Each filter once: a repeat would find its exact total cached.
    if (edit.value && !edits.some((e) => e.kind === kind && e.value === edit.value))
      edits.push(edit as { kind: Kind; value: string })
  }

  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
  await page.addInitScript(PAGE_SCRIPT)
  await page.goto(app.url)
  const settle = async (count: number, firstId: number) => {
    const t = await page.evaluate<number>(`window.__bench.settled(${count}, ${firstId})`)
    if (Number.isNaN(t)) throw new Error(`the grid did not show ${count} rows`)
  }
  await page.getByTestId('grid').waitFor()
  await settle(full, all.page.rows[0]!.id)

  // 1. Keystroke → rows painted.
  const rows: (string | number)[][] = [
    ['#', 'edit', 'total', 'rows ms', 'exact total ms', 'HTTP ms'],
  ]
  const pageMs: number[] = []
  const totalMs: number[] = []
  const httpMs: number[] = []
  for (const [i, edit] of edits.entries()) {
    const filter: AnnotationFilter =
      edit.kind === 'worker' ? { workers: [edit.value] } : { [edit.kind]: edit.value }
    const expected = await query(reference, filter)
    const input = page.getByTestId(
      edit.kind === 'text'
        ? 'filter-text'
        : edit.kind === 'sentence'
          ? 'filter-sentence'
          : 'filter-worker',
    )
    await input.click()
    const typed = edit.kind === 'worker' ? edit.value : edit.value.slice(0, -1)
    await page.keyboard.type(typed, { delay: 25 })
    if (edit.kind === 'worker')
      await page.getByTestId('worker-option').filter({ hasText: edit.value }).first().waitFor()
    const firstId = expected.page.rows[0]?.id ?? 0
    const key = JSON.stringify(filterKey(filter))
    const waiting = page.evaluate<[number, number]>(
      `window.__bench.afterKeyRows(${key}, ${expected.page.total}, ${firstId})`,
    )
    await page.keyboard.press(edit.kind === 'worker' ? 'Enter' : edit.value.slice(-1))
    const [ms, totalAt] = await waiting
    if (Number.isNaN(ms) || Number.isNaN(totalAt))
      throw new Error(`edit ${i + 1} (${edit.kind} “${edit.value}”) never showed its rows`)
    pageMs.push(ms)
    totalMs.push(totalAt)
    httpMs.push(expected.ms)
    rows.push([
      i + 1,
      `${edit.kind} “${edit.value}”`,
      expected.page.total,
      ms.toFixed(0),
      totalAt.toFixed(0),
      expected.ms.toFixed(0),
    ])
    // Back to the whole project before the next edit.
    const chips = page.getByTestId('filter-chip-remove')
    while ((await chips.count()) > 0) await chips.first().click()
    await settle(full, all.page.rows[0]!.id)
    await page.waitForTimeout(250)
    await settle(full, all.page.rows[0]!.id)
  }

  // 2. Jumps across the full million.
  // Reference: the block at the same depth, read by offset over HTTP (what the grid asks on a jump).
  // Back to the place before: its blocks are still loaded, so this is drawing alone (the floor).
  const jumps: number[] = []
  const jumpsBack: number[] = []
  const jumpHttp: number[] = []
  let previous = 0
  for (let i = 0; i < JUMPS; i++) {
    const fraction = r() * 0.98
    jumps.push(await page.evaluate<number>(`window.__bench.jump(${fraction})`))
    await page.waitForTimeout(300)
    jumpsBack.push(await page.evaluate<number>(`window.__bench.jump(${previous})`))
    await page.waitForTimeout(300)
    await page.evaluate<number>(`window.__bench.jump(${fraction})`)
    await page.waitForTimeout(300)
    previous = fraction
    jumpHttp.push((await query(reference, {}, Math.floor((fraction * full) / 200) * 200)).ms)
  }

  // 3. Gestures that stop: a scrollbar drag (one position per frame, easing out over ~0.7 s to a
  // seeded place anywhere in the million) and a burst of mouse-wheel notches.
  type Gesture = { blank: number; scrolls: number }
  const drags: Gesture[] = []
  for (let i = 0; i < DRAGS; i++) {
    await page.evaluate('window.__bench.startGesture()')
    await page.evaluate(`window.__bench.drag(${r() * 0.98}, 40)`)
    drags.push(await page.evaluate<Gesture>('window.__bench.endGesture()'))
    await page.waitForTimeout(300)
  }
  const box = await page.getByTestId('grid').boundingBox()
  if (!box) throw new Error('no grid on the page')
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  const wheels: Gesture[] = []
  for (let i = 0; i < WHEELS; i++) {
    await page.evaluate(`window.__bench.jump(${r() * 0.98})`)
    await page.waitForTimeout(300)
    await page.evaluate('window.__bench.startGesture()')
    for (let n = 0; n < WHEEL_NOTCHES; n++) {
      await page.mouse.wheel(0, WHEEL_PX)
      await page.waitForTimeout(16)
    }
    wheels.push(await page.evaluate<Gesture>('window.__bench.endGesture()'))
    await page.waitForTimeout(300)
  }

  const done = jumps.filter((t) => !Number.isNaN(t))
  const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1))
  const gestureRow = (name: string, list: Gesture[]) => {
    const blank = list.map((g) => g.blank)
    const known = blank.filter((t) => !Number.isNaN(t))
    return [
      name,
      list.length,
      fmt(quantile(known, 0.5)),
      fmt(quantile(known, 0.95)),
      fmt(largest(known)),
      `${blank.filter((t) => !(t <= FRAME_MS)).length} of ${list.length}`,
      '',
    ]
  }

  const report = [
    tenMillion ? '## Review grid in the browser at ten million' : '## Review grid in the browser',
    '',
    `\`npm run bench -- ui${tenMillion ? ' --scale 10m' : ''}\` on ${full.toLocaleString('en')} generated annotations (the project of ` +
      `"Review queries${tenMillion ? ' at ten million' : ''}"), ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0]?.toFixed(1)} ` +
      `on ${process.platform}; headless Chromium (playwright-core, \`--disable-gpu\`), 1400×900, via \`winnow serve\`.`,
    'Page = the last key event of a filter edit (the final character; Enter for a worker picked in the',
    'type-ahead) to the grid showing the new filter’s first row rendered with its data (the rows come',
    'first), and apart to its exact total shown too, timed in the page (`performance.now()`,',
    'MutationObserver and every frame). The earlier characters',
    'are typed 25 ms apart and each sends its own query, as a fast typist would. HTTP = the same',
    '`review.query` (first block of 200, exact total) POSTed from Node to a second server on the same',
    'file, so both see the filter first. Jumps set the grid viewport’s scrollTop to seeded positions',
    'across the project; timed from then until every pixel row of the viewport shows a rendered, loaded',
    'row (a timeout counts as blank). HTTP = that depth’s block of 200 from Node by offset (which main',
    'serves by id once it holds the order of the query). A jump back to the place before finds its',
    'rows loaded: that row is the cost of drawing a screen of rows alone. Gestures: a drag moves',
    'scrollTop once a frame for 40 frames, easing out, to a seeded place; the wheel sends 20 notches of',
    '300 px (Playwright `mouse.wheel`) 16 ms apart from a seeded place. For gestures the time is from',
    'the last scroll event to the rows covered for good (0 when they never went blank after it).',
    '',
    table([
      [
        'measure',
        'n',
        'page p50 ms',
        'page p95 ms',
        'HTTP p50 ms',
        'HTTP p95 ms',
        'page / HTTP (p95)',
      ],
      [
        'filter edit → first rows painted',
        pageMs.length,
        fmt(quantile(pageMs, 0.5)),
        fmt(quantile(pageMs, 0.95)),
        fmt(quantile(httpMs, 0.5)),
        fmt(quantile(httpMs, 0.95)),
        (quantile(pageMs, 0.95) / quantile(httpMs, 0.95)).toFixed(1),
      ],
      [
        'filter edit → exact total shown',
        totalMs.length,
        fmt(quantile(totalMs, 0.5)),
        fmt(quantile(totalMs, 0.95)),
        fmt(quantile(httpMs, 0.5)),
        fmt(quantile(httpMs, 0.95)),
        (quantile(totalMs, 0.95) / quantile(httpMs, 0.95)).toFixed(1),
      ],
    ]),
    '',
    table([
      [
        'measure',
        'n',
        'p50 ms',
        'p95 ms',
        'max ms',
        `blank > 1 frame (${FRAME_MS.toFixed(1)} ms)`,
        'HTTP p50 / p95 ms',
      ],
      [
        'jump → no blank or loading rows',
        jumps.length,
        fmt(quantile(done, 0.5)),
        fmt(quantile(done, 0.95)),
        fmt(largest(done)),
        `${jumps.filter((t) => !(t <= FRAME_MS)).length} of ${jumps.length}`,
        `${fmt(quantile(jumpHttp, 0.5))} / ${fmt(quantile(jumpHttp, 0.95))}`,
      ],
      [
        'jump back to the place before (its rows loaded) → rows drawn',
        jumpsBack.length,
        fmt(quantile(jumpsBack, 0.5)),
        fmt(quantile(jumpsBack, 0.95)),
        fmt(largest(jumpsBack)),
        `${jumpsBack.filter((t) => !(t <= FRAME_MS)).length} of ${jumpsBack.length}`,
        '',
      ],
      gestureRow('drag that stops → no blank or loading rows', drags),
      gestureRow(
        `${WHEEL_NOTCHES} wheel notches of ${WHEEL_PX} px → no blank or loading rows`,
        wheels,
      ),
    ]),
    '',
    '<details><summary>The 30 edits</summary>',
    '',
    table(rows),
    '',
    '</details>',
    '',
  ].join('\n')
  console.log(report)

  await writeSection(report)
} finally {
  await browser.close()
  for (const server of [app, reference]) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve))
    server.child.kill('SIGTERM')
    await exited
  }
  rmSync(dir, { recursive: true, force: true })
}
// The bulk writes are measured on a million only.
if (!tenMillion) await bulkWrites()
