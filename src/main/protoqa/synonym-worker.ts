import { parentPort } from 'node:worker_threads'
import type { SynonymPair } from '../../shared/protoqa/model'
import { synonymPairs } from './synonyms'
import { loadWordNet } from './wordnet'

/**
 * The WordNet thread: reads WordNet when first asked (seconds from a cold disk) and keeps it,
 * then answers each request for a question's synonym pairs, so the app's thread never waits.
 */

export interface SynonymRequest {
  id: number
  texts: string[]
}

export type SynonymReply = { id: number; pairs: SynonymPair[] } | { id: number; error: string }

const port = parentPort
if (!port) throw new Error('synonym-worker must run as a worker thread')
port.on('message', ({ id, texts }: SynonymRequest) => {
  try {
    port.postMessage({ id, pairs: synonymPairs(loadWordNet(), texts) } satisfies SynonymReply)
  } catch (error) {
    port.postMessage({ id, error: String(error) } satisfies SynonymReply)
  }
})
