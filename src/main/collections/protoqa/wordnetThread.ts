import type { Worker } from 'node:worker_threads'
import { startThread, threadScript } from '../../jobs/threadScript'
import type { WordNetReply, WordNetRequest } from './wordnet-worker'
import {
  type WordNetInput,
  type WordNetOutput,
  type WordNetTask,
  wordnetTasks,
} from './wordnetTasks'
import { loadWordNet } from './wordnet'

/**
 * The app's WordNet work (a question's synonyms, scoring by WordNet similarity) runs on a thread
 * of its own that reads WordNet the first time it is asked and keeps it for the next. Where the
 * app is not built (tests run the sources) it runs on the calling thread.
 */

let worker: Worker | null = null
let nextId = 0
const waiting = new Map<
  number,
  { resolve: (output: unknown) => void; reject: (e: Error) => void }
>()

function thread(): Worker | null {
  if (worker) return worker
  const found = threadScript(import.meta.url, 'wordnet-worker', { sources: false })
  if (found === null) return null
  const started = startThread(found, {})
  started.on('message', (reply: WordNetReply) => {
    const request = waiting.get(reply.id)
    waiting.delete(reply.id)
    if ('output' in reply) request?.resolve(reply.output)
    else request?.reject(new Error(`WordNet: ${reply.error}`))
  })
  const fail = (error: Error): void => {
    worker = null
    for (const request of waiting.values()) request.reject(error)
    waiting.clear()
  }
  started.on('error', fail)
  started.on('exit', (code) => fail(new Error(`the WordNet thread stopped (exit code ${code})`)))
  // An idle thread must not keep the server or a test run alive; after the listeners, which
  // would otherwise hold it again.
  started.unref()
  worker = started
  return started
}

export function onWordNet<K extends WordNetTask>(
  task: K,
  input: WordNetInput<K>,
): Promise<WordNetOutput<K>> {
  const target = thread()
  if (target === null) {
    const run = wordnetTasks[task] as (
      wordnet: ReturnType<typeof loadWordNet>,
      i: WordNetInput<K>,
    ) => WordNetOutput<K>
    return Promise.resolve(run(loadWordNet(), input))
  }
  const id = ++nextId
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve: (output) => resolve(output as WordNetOutput<K>), reject })
    target.postMessage({ id, task, input } satisfies WordNetRequest)
  })
}
