import { parentPort } from 'node:worker_threads'
import { type WordNetTask, wordnetTasks } from './wordnetTasks'
import { loadWordNet } from './wordnet'

/**
 * The WordNet thread: reads WordNet when first asked (seconds from a cold disk) and keeps it,
 * then runs each task (a question's synonyms, scoring by WordNet similarity), so the app's
 * thread never waits.
 */

export interface WordNetRequest {
  id: number
  task: WordNetTask
  input: unknown
}

export type WordNetReply = { id: number; output: unknown } | { id: number; error: string }

const port = parentPort
if (!port) throw new Error('wordnet-worker must run as a worker thread')
port.on('message', ({ id, task, input }: WordNetRequest) => {
  try {
    const run = wordnetTasks[task] as (
      wordnet: ReturnType<typeof loadWordNet>,
      i: unknown,
    ) => unknown
    port.postMessage({ id, output: run(loadWordNet(), input) } satisfies WordNetReply)
  } catch (error) {
    port.postMessage({ id, error: String(error) } satisfies WordNetReply)
  }
})
