import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importHalie } from '../../src/main/collections/halie/import'
import { halieSourcesIn } from '../../src/main/collections/halie/read'
import { openProject } from '../../src/main/db/connection'
import { sessionPage } from '../../src/main/collections/halie/db/sessions'
import type { SessionFilter } from '../../src/shared/halie/sessions'
import { cli } from '../helpers/cli'
import { writeHalieFolder } from '../helpers/halie'
import { plainSessionIds } from '../helpers/halieSessions'
import { withProject } from '../helpers/project'
import { useTempDir } from '../helpers/tmp'

const tempDir = useTempDir()

function project(seed = 9) {
  const dir = tempDir()
  const folder = writeHalieFolder(join(dir, 'halie'), { seed, sessionsPerTask: 7, logEvents: 80 })
  const db = join(dir, 'p.winnow')
  openProject(db, { create: true }).close()
  withProject(db, (p) => importHalie(p, halieSourcesIn(folder.dir)))
  return { db, folder }
}

describe('the HALIE sessions grid', () => {
  it('keeps the sessions plain SQL keeps, for each filter and their combinations', () => {
    const { db, folder } = project()
    const someWorker = folder.sessions[1]?.worker as string
    const filters: SessionFilter[] = [
      {},
      { tasks: ['question'] },
      { tasks: ['question', 'crossword'] },
      { models: ['Jumbo', 'Davinci'] },
      { workers: [someWorker] },
      { prompt: 'PROMPT 3' },
      { prompt: '"metaphor"' },
      { elapsed: { min: 2, max: 6 } },
      { elapsed: { max: 0 } },
      { queries: { min: 3 } },
      { accuracy: { min: 0.3, max: 0.7 } },
      { scores: [{ name: 'fluency', min: 3 }] },
      { scores: [{ name: 'joy' }] },
      {
        scores: [
          { name: 'quality', max: 2 },
          { name: 'humanness', min: 0.5 },
        ],
      },
      { withLog: true },
      {
        tasks: ['metaphor', 'question'],
        models: ['InstructDavinci', 'Jumbo'],
        queries: { min: 1 },
        withLog: true,
      },
      {
        tasks: ['crossword'],
        workers: [someWorker],
        accuracy: { max: 0.5 },
        scores: [{ name: 'ease', min: 2, max: 4 }],
      },
    ]
    withProject(db, (p) => {
      for (const filter of filters) {
        const page = sessionPage(p, filter, { offset: 0, limit: 1000 })
        const expected = plainSessionIds(p, filter)
        expect(
          page.rows.map((r) => r.id).sort((a, b) => a - b),
          JSON.stringify(filter),
        ).toEqual(expected)
        expect(page.total).toBe(expected.length)
      }
      // Filters that keep something and something less than everything, so the comparison means something.
      const kept = filters.map((f) => plainSessionIds(p, f).length)
      expect(kept.filter((n) => n > 0 && n < 35).length).toBeGreaterThan(10)
    })
  })

  it('pages and sorts with the exact total', () => {
    const { db } = project(4)
    withProject(db, (p) => {
      const all = sessionPage(p, {}, { sort: 'queries', descending: true, offset: 0, limit: 1000 })
      expect(all.total).toBe(35)
      const queries = all.rows.map((r) => r.queries)
      expect(queries).toEqual([...queries].sort((a, b) => b - a))
      const second = sessionPage(
        p,
        {},
        { sort: 'queries', descending: true, offset: 10, limit: 10 },
      )
      expect(second.rows.map((r) => r.id)).toEqual(all.rows.slice(10, 20).map((r) => r.id))
    })
  })
})

describe('winnow halie replay and stats', () => {
  it('replay prints the document and its provenance at a moment, every event at or before it applied', async () => {
    const { db, folder } = project()
    const log = folder.logs[2]
    if (!log) throw new Error('no log')
    for (const k of [0, 1, 40, log.lines.length - 1]) {
      const at = log.after[k]?.ms as number
      const run = await cli(
        'halie',
        'replay',
        log.session,
        '--db',
        db,
        '--at',
        String(at),
        '--json',
      )
      expect(run.stderr).toBe('')
      expect(run.json).toEqual({ text: log.after[k]?.text, provenance: log.after[k]?.provenance })
    }
    const end = await cli('halie', 'replay', log.session, '--db', db, '--at', '99999999', '--json')
    expect(end.json).toEqual({ text: log.text, provenance: log.provenance })
  })

  it('replay says so for a session without a raw log or an unknown one', async () => {
    const { db, folder } = project()
    const dialogue = folder.sessions.find((s) => s.task === 'dialogue')?.id as string
    const none = await cli('halie', 'replay', dialogue, '--db', db, '--at', '0')
    expect(none.code).toBe(1)
    expect(none.stderr).toContain(`session ${dialogue} has no raw log to replay`)
    const unknown = await cli('halie', 'replay', 'nope', '--db', db, '--at', '0')
    expect(unknown.stderr).toContain('No HALIE session nope')
    const usage = await cli('halie', 'replay', dialogue, '--db', db)
    expect(usage.code).toBe(2)
  })

  it('stats gives per task and model the sessions, blocks, survey means and accuracy', async () => {
    const { db, folder } = project()
    const run = await cli('halie', 'stats', '--db', db, '--task', 'crossword', '--json')
    const models = (
      run.json as {
        models: {
          task: string
          model: string
          sessions: number
          blocks: number
          accuracy: number
          scores: Record<string, number>
        }[]
      }
    ).models
    const crossword = folder.sessions.filter((s) => s.task === 'crossword')
    const byModel = new Map<string, typeof crossword>()
    for (const s of crossword) byModel.set(s.model, [...(byModel.get(s.model) ?? []), s])
    expect(models.map((m) => m.model)).toEqual([...byModel.keys()].sort())
    for (const m of models) {
      const sessions = byModel.get(m.model) ?? []
      expect(m.task).toBe('crossword')
      expect(m.sessions).toBe(sessions.length)
      expect(m.blocks).toBe(sessions.reduce((n, s) => n + s.blocks, 0))
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
      expect(m.accuracy).toBeCloseTo(mean(sessions.map((s) => s.accuracy as number)), 12)
      expect(m.scores.fluency).toBeCloseTo(
        mean(sessions.map((s) => s.scores.fluency as number)),
        12,
      )
    }
  })
})
