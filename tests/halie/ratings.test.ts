import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importHalie } from '../../src/main/collections/halie/import'
import { halieSourcesIn } from '../../src/main/collections/halie/read'
import {
  blockRating,
  rateBlocks,
  rateSessions,
  sessionRatings,
} from '../../src/main/collections/halie/ratings'
import { type Db, openProject } from '../../src/main/db/connection'
import { blockRatings } from '../../src/main/collections/halie/db/ratings'
import { history } from '../../src/main/ratings/history'
import { rateWorker } from '../../src/main/ratings/rate'
import { redo, revertChangeSet, undo } from '../../src/main/ratings/revert'
import { writeHalieFolder } from '../helpers/halie'
import { withProject } from '../helpers/project'
import { useTempDir } from '../helpers/tmp'

const tempDir = useTempDir()

function imported(f: (db: Db) => void): void {
  const dir = tempDir()
  const folder = writeHalieFolder(join(dir, 'halie'), { sessionsPerTask: 3 })
  const path = join(dir, 'p.winnow')
  openProject(path, { create: true }).close()
  withProject(path, (db) => {
    importHalie(db, halieSourcesIn(folder.dir))
    f(db)
  })
}

const one = <T>(db: Db, sql: string): T => db.prepare(sql).get() as T

describe('rating HALIE sessions, event blocks and workers', () => {
  it('rates a session as a change set with its author, listed in History and revertable', () => {
    imported((db) => {
      const { id } = one<{ id: number }>(db, 'SELECT id FROM halie_sessions ORDER BY id LIMIT 1')
      const result = rateSessions(db, [id], { value: 2, author: 'ana', note: 'clear work' })
      expect(sessionRatings(db, { ids: [id] }).get(id)).toEqual({ value: 2, source: 'item' })
      const listed = history(db).find((c) => c.id === result.changeSet)
      expect(listed?.author).toBe('ana')
      expect(listed?.revertable).toBe(true)
      expect(listed?.description).toMatch(/^Rated 2: HALIE \w+ session .* — clear work$/)

      const later = rateSessions(db, [id], { value: 3, author: 'bo' })
      const undo = revertChangeSet(db, result.changeSet, { author: 'ana' })
      // The later rating still holds: a revert puts back only what was not set again since.
      expect(sessionRatings(db, { ids: [id] }).get(id)?.value).toBe(3)
      expect(history(db)[0]?.kind).toBe('revert')
      revertChangeSet(db, later.changeSet, { author: 'ana' })
      expect(sessionRatings(db, { ids: [id] }).get(id)).toEqual({ value: null, source: null })
      // Reverting the revert re-applies the first rating.
      revertChangeSet(db, undo.changeSet ?? 0, { author: 'ana' })
      expect(sessionRatings(db, { ids: [id] }).get(id)).toEqual({ value: 2, source: 'item' })
    })
  })

  it('applies a worker’s dated rating to the sessions that began on or after its date', () => {
    imported((db) => {
      const s = one<{ id: number; workerId: number; startedAt: number }>(
        db,
        `SELECT id, worker_id AS workerId, started_at AS startedAt FROM halie_sessions
         WHERE started_at IS NOT NULL ORDER BY id LIMIT 1`,
      )
      expect(s).toBeDefined()
      const day = Math.floor(s.startedAt / 86_400_000) * 86_400
      rateWorker(db, { workerId: s.workerId, value: 1, from: day + 86_400, author: 'ana' })
      expect(sessionRatings(db, { ids: [s.id] }).get(s.id)).toEqual({ value: null, source: null })
      rateWorker(db, { workerId: s.workerId, value: 2, from: day, author: 'ana' })
      expect(sessionRatings(db, { ids: [s.id] }).get(s.id)).toEqual({ value: 2, source: 'worker' })
      // The session's own rating outranks its worker's.
      rateSessions(db, [s.id], { value: 3, author: 'ana' })
      expect(sessionRatings(db, { ids: [s.id] }).get(s.id)).toEqual({ value: 3, source: 'item' })
      rateSessions(db, [s.id], { value: null, author: 'ana' })
      expect(sessionRatings(db, { ids: [s.id] }).get(s.id)?.source).toBe('worker')
    })
  })

  it('rates one event block apart from its session; the others follow the session', () => {
    imported((db) => {
      const { id } = one<{ id: number }>(db, 'SELECT id FROM halie_sessions ORDER BY id LIMIT 1')
      const [first, second] = blockRatings(db, id)
      if (!first || !second) throw new Error('a session of fewer than two blocks')
      rateSessions(db, [id], { value: 2, author: 'ana' })
      rateBlocks(db, [first.id], { value: -2, author: 'ana' })
      const session = sessionRatings(db, { ids: [id] }).get(id) ?? { value: null, source: null }
      const [a, b] = blockRatings(db, id)
      expect(blockRating(a?.rating ?? null, session)).toEqual({ value: -2, source: 'item' })
      expect(blockRating(b?.rating ?? null, session)).toEqual({ value: 2, source: 'session' })
    })
  })

  it('refuses a rating off the scale, an unknown session and a row that is not an event block', () => {
    imported((db) => {
      const { id } = one<{ id: number }>(db, 'SELECT id FROM halie_sessions ORDER BY id LIMIT 1')
      const survey = one<{ id: number }>(
        db,
        `SELECT r.id FROM halie_rows r JOIN halie_tables t ON t.id = r.table_id
         WHERE t.kind = 'survey_responses' LIMIT 1`,
      )
      const count = () => one<{ n: number }>(db, 'SELECT count(*) AS n FROM change_sets').n
      const before = count()
      expect(() => rateSessions(db, [id], { value: 7, author: 'ana' })).toThrow(
        /not on this project's rating scale/,
      )
      expect(() => rateSessions(db, [id, 999_999], { value: 2, author: 'ana' })).toThrow(
        /No HALIE session 999999/,
      )
      expect(() => rateBlocks(db, [survey.id], { value: 2, author: 'ana' })).toThrow(
        /No HALIE event block/,
      )
      expect(count()).toBe(before)
      expect(
        one<{ r: number | null }>(db, `SELECT rating AS r FROM halie_sessions WHERE id = ${id}`).r,
      ).toBeNull()
    })
  })
})

describe('undo of a HALIE rating', () => {
  it('takes back the latest session rating with Ctrl+Z’s undo, and redo puts it back', () => {
    imported((db) => {
      const { id } = one<{ id: number }>(db, 'SELECT id FROM halie_sessions ORDER BY id LIMIT 1')
      rateSessions(db, [id], { value: 2, author: 'ana' })
      expect(undo(db, 'ana')).not.toBeNull()
      expect(sessionRatings(db, { ids: [id] }).get(id)?.value).toBeNull()
      expect(redo(db, 'ana')).not.toBeNull()
      expect(sessionRatings(db, { ids: [id] }).get(id)?.value).toBe(2)
    })
  })
})
