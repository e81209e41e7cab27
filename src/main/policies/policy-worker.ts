import { parentPort, workerData } from 'node:worker_threads'
import type { ApiErrorInfo } from '../../shared/contract/errors'
import { toErrorInfo } from '../api/errors'
import { openProject } from '../db/connection'
import { type Evaluation, type PolicyInput, evaluate } from './evaluation'

/** The policy thread: reads the facts on its own connection and runs the script's sandbox. */

export interface PolicyWorkerData {
  dbPath: string
  nativeBinding: string | null
  input: PolicyInput
}

export type PolicyWorkerMessage =
  | { type: 'script-started' }
  | { type: 'done'; evaluation: Evaluation }
  | { type: 'failed'; error: ApiErrorInfo }

async function main(data: PolicyWorkerData): Promise<void> {
  const port = parentPort
  if (!port) throw new Error('policy-worker must run as a worker thread')
  const post = (message: PolicyWorkerMessage): void => port.postMessage(message)
  try {
    const db = openProject(data.dbPath, {
      memoryMap: false,
      // The facts are aggregates read once; the run's writes are on the other connection.
      cacheMb: 8,
      ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
    })
    try {
      post({
        type: 'done',
        evaluation: await evaluate(db, data.input, () => post({ type: 'script-started' })),
      })
    } finally {
      db.close()
    }
  } catch (error) {
    post({ type: 'failed', error: toErrorInfo(error) })
  }
}

void main(workerData as PolicyWorkerData)
