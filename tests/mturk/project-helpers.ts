/** A real project file in a temp folder and app-policy connections to a stand-in. */
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { type Db, openProject } from '../../src/main/db/connection'
import { type MTurkConnection, connect } from '../../src/main/mturk/connect'
import type { Standin } from '../../src/main/mturk/standin/index'
import { useTempDir } from '../helpers/tmp'
import { CREDENTIALS } from './standin-helpers'

export interface TestProject {
  db: Db
  path: string
  dir: string
}

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
