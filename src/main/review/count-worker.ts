import { parentPort, workerData } from 'node:worker_threads'
import { openProject } from '../db/connection'

/**
 * The count thread: exact totals of the text filters of the grid and of dialogs on a read-only
 * connection of its own, so the main thread answers pages meanwhile. Statements call
 * `winnow_live(generation)` every few thousand rows; once main has moved its asker's generation
 * on (a newer filter, a dialog closed), it throws and the count stops there.
 */

export interface CountWorkerData {
  dbPath: string
  nativeBinding: string | null
  /** Int32Array, one slot per asker: the generations of the counts main wants now. */
  generation: SharedArrayBuffer
}

export interface CountRequest {
  id: number
  generation: number
  text: string
  values: unknown[]
}

export type CountAnswer =
  { id: number; total: number } | { id: number; cancelled: true } | { id: number; error: string }

const REPLACED = 'count replaced by a newer one'

function main(data: CountWorkerData): void {
  const port = parentPort
  if (!port) throw new Error('count-worker must run as a worker thread')
  const wanted = new Int32Array(data.generation)
  const db = openProject(data.dbPath, {
    readonly: true,
    ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
  })
  // Generations are unique across askers: a count is wanted while any slot holds its own.
  const isWanted = (generation: unknown): boolean => {
    for (let i = 0; i < wanted.length; i++) if (Atomics.load(wanted, i) === generation) return true
    return false
  }
  db.function('winnow_live', { deterministic: false }, (generation: unknown) => {
    if (!isWanted(generation)) throw new Error(REPLACED)
    return 1
  })
  port.on('message', (request: CountRequest) => {
    const post = (answer: CountAnswer): void => port.postMessage(answer)
    if (!isWanted(request.generation)) return post({ id: request.id, cancelled: true })
    try {
      const total = db
        .prepare(request.text)
        .pluck()
        .get(...request.values) as number
      post({ id: request.id, total })
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (message.includes(REPLACED)) post({ id: request.id, cancelled: true })
      else post({ id: request.id, error: message })
    }
  })
}

main(workerData as CountWorkerData)
