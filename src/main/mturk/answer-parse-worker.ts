import { parentPort, workerData } from 'node:worker_threads'
import { errorInfo } from '../api/errorInfo'
import { encodeRows } from '../importers/rowBatch'
import { mapAssignment } from './glucose-map'
import { presentAssignments } from './pullStore'
import {
  type AnswerParseData,
  type FromStoreThread,
  type ParsedPage,
  type ToStoreThread,
} from './pullStoreProtocol'

/**
 * The parsing stage of a pull's store: reads the answers of each page the pull posts and passes
 * the page on to the store thread with them, in the order the pages came. The raw answers stay
 * on the page (the store takes them from there), so they cross between threads once.
 */
function main(data: AnswerParseData): void {
  const input = parentPort
  if (!input) throw new Error('answer-parse-worker must run as a worker thread')
  const { output } = data
  const options = data.map ? { map: data.map } : {}
  input.on('message', (message: ToStoreThread) => {
    try {
      if (message.type === 'page') {
        const start = performance.now()
        const parsed = encodeRows(
          presentAssignments(message.page).map((a) => ({
            ...mapAssignment(message.page.hit, a, options),
            raw: null,
          })),
        )
        output.postMessage({
          ...message,
          parsed,
          parseMs: performance.now() - start,
        } satisfies ParsedPage)
        return
      }
      output.postMessage(message)
      input.close()
      output.close()
    } catch (error) {
      input.postMessage({ type: 'failed', error: errorInfo(error) } satisfies FromStoreThread)
      input.close()
      output.close()
    }
  })
}

main(workerData as AnswerParseData)
