import type { Worker } from 'node:worker_threads'
import { startThread, threadScript } from '../jobs/threadScript'
import type { SynonymReply, SynonymRequest } from './synonym-worker'
import type { SynonymPair } from '../../shared/protoqa/model'
import { synonymPairs } from './synonyms'
import { loadWordNet } from './wordnet'

/**
 * WordNet synonyms for the clustering workspace, found on a thread of their own that loads
 * WordNet the first time a question asks and keeps it for the next. Where the app is not built
 * (tests run the sources) they are found on the calling thread.
 */

let worker: Worker | null = null
let nextId = 0
const waiting = new Map<
  number,
  { resolve: (p: SynonymPair[]) => void; reject: (e: Error) => void }
>()

function thread(): Worker | null {
  if (worker) return worker
  const found = threadScript(import.meta.url, 'synonym-worker', { sources: false })
  if (found === null) return null
  const started = startThread(found, {})
  started.on('message', (reply: SynonymReply) => {
    const request = waiting.get(reply.id)
    waiting.delete(reply.id)
    if ('pairs' in reply) request?.resolve(reply.pairs)
    else request?.reject(new Error(`WordNet synonyms: ${reply.error}`))
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

export function findSynonyms(texts: string[]): Promise<SynonymPair[]> {
  const target = thread()
  if (target === null) return Promise.resolve(synonymPairs(loadWordNet(), texts))
  const id = ++nextId
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject })
    target.postMessage({ id, texts } satisfies SynonymRequest)
  })
}
