import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { importHalie } from '../../src/main/collections/halie/import'
import { halieSourcesIn } from '../../src/main/collections/halie/read'
import { rateBlocks, rateSessions } from '../../src/main/collections/halie/ratings'
import { exportHalieRelease } from '../../src/main/collections/halie/release'
import { type Db, openProject } from '../../src/main/db/connection'
import { releaseOptionsSchema } from '../../src/shared/contract/release'
import { HALIE_TASKS, type HalieTask } from '../../src/shared/halie/tasks'
import { rateWorker } from '../../src/main/ratings/rate'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { writeHalieFolder } from '../helpers/halie'
import { withProject } from '../helpers/project'
import { useTempDir } from '../helpers/tmp'
import { cli } from '../helpers/cli'
import { TEST_CARD } from '../release/helpers'

const tempDir = useTempDir()

const TABLES = ['event_blocks', 'survey_responses', 'accuracies'] as const

const readCsv = (path: string): string[][] => parse(readFileSync(path), { bom: true })

interface Rated {
  /** Session id (external) → the tier its rows go to, or null (left out). */
  sessionTier: Map<string, number | null>
  /** `session\tline index` of blocks rated apart → tier. */
  blockTier: Map<string, number | null>
}

/** Rates a task's sessions and blocks in a pattern the test knows the tiers of. */
function rateTask(db: Db, task: HalieTask): Rated {
  const sessions = db
    .prepare(
      `SELECT s.id, s.external_id AS ext, s.worker_id AS worker FROM halie_sessions s
       WHERE s.task = ? ORDER BY s.id`,
    )
    .all(task) as { id: number; ext: string; worker: number }[]
  const sessionTier = new Map<string, number | null>()
  const blockTier = new Map<string, number | null>()
  const values = [3, 2, null, 1, -2]
  sessions.forEach((s, i) => {
    const value = values[i % values.length] ?? null
    if (value !== null) rateSessions(db, [s.id], { value, author: 'ana' })
    sessionTier.set(s.ext, value === null || value === -2 ? null : value)
  })
  // The first session's first block is rated apart, into tier 1.
  const first = sessions[0]
  if (first) {
    const block = db
      .prepare(
        `SELECT r.id FROM halie_rows r JOIN halie_tables t ON t.id = r.table_id
         WHERE r.session_id = ? AND t.kind = 'event_blocks' ORDER BY r.line LIMIT 1`,
      )
      .get(first.id) as { id: number }
    rateBlocks(db, [block.id], { value: 1, author: 'ana' })
    blockTier.set(`${first.ext}\t0`, 1)
  }
  return { sessionTier, blockTier }
}

describe('a HALIE release', () => {
  it('writes each task’s tables per tier, cell for cell the imported rows of that tier', () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 6, logs: false })
    const path = join(dir, 'p.winnow')
    openProject(path, { create: true }).close()
    withProject(path, (db) => {
      importHalie(db, halieSourcesIn(folder.dir))
      saveReleaseSettings(db, path, { card: TEST_CARD }, 'test')
      for (const task of HALIE_TASKS) {
        const rated = rateTask(db, task)
        const out = join(dir, `release-${task}`)
        const result = exportHalieRelease(
          db,
          path,
          task,
          releaseOptionsSchema.parse({ out, tiers: [3, 2, 1] }),
        )
        expect(readdirSync(out).sort()).toEqual([
          'README.md',
          'croissant.json',
          'data',
          'datasheet.md',
          'manifest.json',
        ])
        for (const kind of TABLES) {
          let source: string[][]
          try {
            source = readCsv(join(folder.dir, task, `${kind}.csv`))
          } catch {
            continue // crossword alone has accuracies
          }
          const [header, ...rows] = source
          const sid = header?.indexOf('session_id') ?? -1
          const seen = new Map<string, number>()
          const expected = new Map<number, string[][]>([
            [3, []],
            [2, []],
            [1, []],
          ])
          for (const row of rows) {
            const session = row[sid] ?? ''
            const index = seen.get(session) ?? 0
            seen.set(session, index + 1)
            const own =
              kind === 'event_blocks' ? rated.blockTier.get(`${session}\t${index}`) : undefined
            const tier = own !== undefined ? own : (rated.sessionTier.get(session) ?? null)
            if (tier !== null) expected.get(tier)?.push(row)
          }
          for (const [tier, want] of expected) {
            const file = join(out, 'data', `tier-${tier}`, `${kind}.csv`)
            expect(readCsv(file), `${task} ${kind} tier ${tier}`).toEqual([header, ...want])
            expect(result.files.find((f) => f.path === `data/tier-${tier}/${kind}.csv`)?.rows).toBe(
              want.length,
            )
          }
        }
        const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
          collection: unknown
          changeSets: { author: string }[]
          leftOut: Record<string, number>
        }
        expect(manifest.collection).toEqual({ kind: 'halie', task })
        expect(manifest.changeSets.length).toBeGreaterThan(0)
        expect(manifest.changeSets.every((c) => c.author === 'ana')).toBe(true)
        expect(Object.keys(manifest.leftOut).some((k) => k.includes('unrated'))).toBe(true)
      }
    })
  })

  it('writes a task whose every session is in one tier byte for byte as imported', () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 4, logs: false })
    const path = join(dir, 'p.winnow')
    openProject(path, { create: true }).close()
    withProject(path, (db) => {
      importHalie(db, halieSourcesIn(folder.dir))
      saveReleaseSettings(db, path, { card: TEST_CARD }, 'test')
      const workers = db
        .prepare(`SELECT DISTINCT worker_id AS id FROM halie_sessions WHERE task = 'crossword'`)
        .all() as { id: number }[]
      // Dated worker ratings from the beginning carry every session of theirs into tier 3.
      for (const w of workers) rateWorker(db, { workerId: w.id, value: 3, from: 0, author: 'ana' })
      const out = join(dir, 'release')
      exportHalieRelease(db, path, 'crossword', releaseOptionsSchema.parse({ out, tiers: [3] }))
      for (const kind of TABLES)
        expect(readFileSync(join(out, 'data', 'tier-3', `${kind}.csv`), 'utf8')).toBe(
          readFileSync(join(folder.dir, 'crossword', `${kind}.csv`), 'utf8'),
        )
    })
  })

  it('refuses options it cannot honour and a folder in the way, writing nothing', () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 2, logs: false })
    const path = join(dir, 'p.winnow')
    openProject(path, { create: true }).close()
    withProject(path, (db) => {
      importHalie(db, halieSourcesIn(folder.dir))
      saveReleaseSettings(db, path, { card: TEST_CARD }, 'test')
      const out = join(dir, 'release')
      expect(() =>
        exportHalieRelease(
          db,
          path,
          'question',
          releaseOptionsSchema.parse({ out, formats: ['jsonl'] }),
        ),
      ).toThrow(/standardised CSV files only/)
      expect(() =>
        exportHalieRelease(db, path, 'question', releaseOptionsSchema.parse({ out, tiers: [7] })),
      ).toThrow(/No rating maps to tier 7/)
      expect(readdirSync(dir).filter((name) => name.includes('release'))).toEqual([])
    })
  })

  it('is written by winnow export --collection halie --task T', async () => {
    const dir = tempDir()
    const folder = writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 3, logs: false })
    const path = join(dir, 'p.winnow')
    expect((await cli('halie', 'import', folder.dir, '--db', path)).code).toBe(0)
    withProject(path, (db) => {
      const ids = (
        db.prepare(`SELECT id FROM halie_sessions WHERE task = 'metaphor'`).all() as {
          id: number
        }[]
      ).map((r) => r.id)
      rateSessions(db, ids, { value: 2, author: 'ana' })
    })
    const out = join(dir, 'release')
    const run = await cli(
      'export',
      '--collection',
      'halie',
      '--task',
      'metaphor',
      '--db',
      path,
      '--out',
      out,
      '--tiers',
      '2',
      '--draft',
      '--json',
    )
    expect(run.stderr).toBe('')
    const files = (run.json as { files: { path: string; rows: number }[] }).files
    expect(files.map((f) => [f.path, f.rows])).toEqual([
      ['data/tier-2/event_blocks.csv', 9],
      ['data/tier-2/survey_responses.csv', 3],
    ])
    const bad = await cli(
      'export',
      '--collection',
      'halie',
      '--task',
      'poetry',
      '--db',
      path,
      '--out',
      out,
    )
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/--task must name a HALIE task .* got 'poetry'/)
    // The refusals HALIE declares are the command line's, by flag, before anything is read.
    const dry = ['export', '--collection', 'halie', '--task', 'metaphor', '--db', path]
    const split = await cli(...dry, '--out', join(dir, 'r2'), '--split-test', '1')
    expect(split.stderr).toMatch(/--split-test is not for a halie release: .*GLUCOSE stories only/)
    const run2 = await cli(...dry, '--dry-run')
    expect(run2.stderr).toMatch(/--dry-run is not for a halie release/)
    expect(readdirSync(dir).filter((name) => name.startsWith('r2'))).toEqual([])
    const glucose = await cli(
      'export',
      '--db',
      path,
      '--out',
      join(dir, 'r3'),
      '--task',
      'metaphor',
    )
    expect(glucose.stderr).toMatch(/--task is for --collection halie/)
  })
})
