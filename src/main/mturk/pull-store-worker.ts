import { parentPort, workerData } from 'node:worker_threads'
import { errorInfo } from '../jobs/errorInfo'
import { openProject } from '../db/connection'
import { deferCheckpoints } from '../db/queries/mturk/pulls'
import { PullStore } from './pullStore'
import { type FromStoreThread, type PullStoreData, type ToStoreThread } from './pullStoreProtocol'

/**
 * The store thread of a pull: takes and parses the pages and commits them in groups on its own
 * connection, exactly as PullStore does on the pull's thread, so the pull's thread only handles
 * HTTP. It stops at the first failure; what it committed before stays.
 */
function main(data: PullStoreData): void {
  const port = parentPort
  if (!port) throw new Error('pull-store-worker must run as a worker thread')
  const post = (message: FromStoreThread): void => port.postMessage(message)
  let db: ReturnType<typeof openProject> | null = null
  let stopped = false
  const stop = (error?: unknown): void => {
    stopped = true
    if (error !== undefined) post({ type: 'failed', error: errorInfo(error) })
    data.input.close()
    port.close()
    db?.close()
  }
  try {
    db = openProject(data.dbPath, data.nativeBinding ? { nativeBinding: data.nativeBinding } : {})
    deferCheckpoints(db)
    // A background job can wait out the app's longest writes (a bulk rating or revert of a large
    // query holds the lock for a while) instead of failing the pull as "database is locked".
    db.pragma('busy_timeout = 60000')
    let at = 0
    const timing = { parseMs: 0, storeMs: 0 }
    const store = new PullStore(db, data.pullId, {
      author: data.author,
      now: () => at,
      timing,
      ...(data.map ? { map: data.map } : {}),
      ...(data.exam ? { exam: data.exam } : {}),
      ...(data.commitAssignments !== undefined
        ? { commitAssignments: data.commitAssignments }
        : {}),
      ...(data.commitAfterMs !== undefined ? { commitAfterMs: data.commitAfterMs } : {}),
    })
    data.input.on('message', (message: ToStoreThread) => {
      if (stopped) return
      try {
        at = message.at
        if (message.type === 'page') {
          store.take(message.page)
          post({ type: 'taken', assignments: message.page.assignments.length })
          if (store.due()) post({ type: 'committed', result: store.commit() })
          return
        }
        post({ type: 'committed', result: store.commit() })
        post({ type: 'finished', timing })
        stop()
      } catch (error) {
        stop(error)
      }
    })
  } catch (error) {
    stop(error)
  }
}

main(workerData as PullStoreData)
