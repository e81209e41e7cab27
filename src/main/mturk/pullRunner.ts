/**
 * Which process runs a pull. A pull marked running is either under way (this process or another
 * on this machine) or was left by a process that was killed; only the second may be resumed.
 */
import { realpathSync } from 'node:fs'
import { hostname } from 'node:os'
import { UserError } from '../../shared/contract/errors'
import type { Db } from '../db/connection'
import { pullRunner } from '../db/queries/mturk/pulls'
import { processAlive } from '../jobs/processAlive'

/** Pulls this process runs now, by project file and pull id. */
const running = new Set<string>()

export function thisRunner(): string {
  return `${hostname()} ${process.pid}`
}

function runKey(db: Db, pullId: number): string {
  let file = db.name
  try {
    file = realpathSync(db.name)
  } catch {
    // an in-memory or vanished file: its name is all there is
  }
  return `${file}\n${pullId}`
}

/** Marks the pull as run by this process until `release` is called. */
export function holdPull(db: Db, pullId: number): { release(): void } {
  const key = runKey(db, pullId)
  running.add(key)
  return { release: () => running.delete(key) }
}

/**
 * Refuses to take over a pull that a live process is running. A project file is only shared by
 * processes of one machine (SQLite's WAL needs shared memory), so a runner on another host is a
 * leftover (the file was moved after a kill).
 */
export function refuseIfRunning(db: Db, pullId: number, startedAt: number): void {
  const runner = pullRunner(db, pullId)
  if (!runner || !alive(runner, db, pullId)) return
  const pid = runner.slice(runner.lastIndexOf(' ') + 1)
  const since = new Date(startedAt).toISOString().replace('T', ' ').slice(0, 16)
  throw new UserError({
    type: 'conflict',
    code: 'pull-running',
    message:
      `A pull of the same selection is already running (started ${since} UTC, process ${pid}); ` +
      'wait for it to finish or cancel it, then pull again.',
  })
}

function alive(runner: string, db: Db, pullId: number): boolean {
  const cut = runner.lastIndexOf(' ')
  const host = runner.slice(0, cut)
  const pid = Number(runner.slice(cut + 1))
  if (host !== hostname() || !Number.isInteger(pid) || pid <= 0) return false
  if (pid === process.pid) return running.has(runKey(db, pullId))
  return processAlive(pid)
}
