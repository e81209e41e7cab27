/** A real project file in a temp folder and app-policy connections to a stand-in. */
import { join } from 'node:path'
import { afterEach, expect } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { checkpoints } from '../../src/main/db/queries/mturk/pulls'
import { type MTurkConnection, connect } from '../../src/main/mturk/connect'
import { type RunPullOptions, runPull } from '../../src/main/mturk/pullRun'
import type { Standin } from '../../standin/index'
import { useTempDir } from '../helpers/tmp'
import { CREDENTIALS } from './standin-helpers'

export interface TestProject {
  db: Db
  path: string
  dir: string
}

/** What a pull fetches: every HIT of the account, or only what changed since the last pull. */
export const ALL = { mode: 'all', selection: {} } as const
export const NEW = { mode: 'new', selection: {} } as const

/** Opens fresh projects (closed after each test). */
export function useProject(): () => TestProject {
  const tempDir = useTempDir()
  const open: Db[] = []
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close()
  })
  return () => {
    const dir = tempDir()
    const path = join(dir, 'p.winnow')
    const db = openProject(path, { create: true })
    open.push(db)
    return { db, path, dir }
  }
}

/** A connection as the app makes one (single SDK attempt, our backoff), closed after each test. */
export function useConnections(): (standin: Standin, signal?: AbortSignal) => MTurkConnection {
  const open: MTurkConnection[] = []
  afterEach(() => {
    for (const c of open.splice(0)) c.close()
  })
  return (standin, signal) => {
    const c = connect({
      endpoint: standin.url,
      credentials: CREDENTIALS,
      ...(signal ? { signal } : {}),
    })
    open.push(c)
    return c
  }
}

export function count(db: Db, sqlText: string, ...params: unknown[]): number {
  return db
    .prepare(sqlText)
    .pluck()
    .get(...params) as number
}

/** ListAssignmentsForHIT requests the stand-in answered or faulted, by HIT id. */
export function assignmentRequests(standin: Standin, from = 0): string[] {
  return standin.state.requests
    .slice(from)
    .filter((r) => r.operation === 'ListAssignmentsForHIT')
    .map((r) => (r.input as { HITId: string }).HITId)
}

/**
 * Checks what an interrupted pull left (some but not all submissions, each linked to its
 * assignment, at least one HIT finished, the pull in `state`) and returns the submissions stored
 * and the HITs it finished.
 */
export function expectInterrupted(
  db: Db,
  { state, fewerThan }: { state: 'cancelled' | 'running'; fewerThan: number },
): { stored: number; finished: string[] } {
  const pull = db.prepare('SELECT id, state FROM mturk_pulls').get() as {
    id: number
    state: string
  }
  const finished = [...checkpoints(db, pull.id)].filter(([, c]) => c.done).map(([id]) => id)
  const stored = count(db, 'SELECT count(*) FROM submissions')
  expect(stored).toBeGreaterThan(0)
  expect(stored).toBeLessThan(fewerThan)
  // What was committed is whole: each submission linked to its assignment.
  expect(count(db, 'SELECT count(*) FROM mturk_assignments')).toBe(stored)
  expect(pull.state).toBe(state)
  expect(finished.length).toBeGreaterThan(0)
  return { stored, finished }
}

/** Pulls everything and cancels once `pages` pages have arrived; the pull must end cancelled. */
export async function pullCancelledAfter(
  db: Db,
  connection: (signal: AbortSignal) => MTurkConnection,
  pages: number,
  options: Omit<RunPullOptions, 'endpoint' | 'author' | 'onPage'> = {},
): Promise<void> {
  const controller = new AbortController()
  const ctx = connection(controller.signal)
  let seen = 0
  await expect(
    runPull(db, ctx, ALL, {
      endpoint: ctx.url,
      author: 't',
      ...options,
      onPage: () => ++seen === pages && controller.abort(),
    }),
  ).rejects.toThrow(/cancelled/)
}

/**
 * After a resumed pull: no finished HIT was fetched again (requests since `before`), every
 * assignment is there exactly once, and the pull is done.
 */
export function expectResumedWhole(
  db: Db,
  standin: Standin,
  { before, finished, total }: { before: number; finished: readonly string[]; total: number },
): void {
  expect(assignmentRequests(standin, before).filter((id) => finished.includes(id))).toEqual([])
  expect(count(db, 'SELECT count(*) FROM submissions')).toBe(total)
  expect(count(db, 'SELECT count(DISTINCT assignment_id) FROM submissions')).toBe(total)
  expect(db.prepare('SELECT state FROM mturk_pulls').pluck().all()).toEqual(['done'])
}
