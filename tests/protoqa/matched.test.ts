import { describe, expect, it } from 'vitest'
import { explain } from '../../src/main/collections/protoqa/wordnetTasks'
import { METRICS, type Similarity, scoreQuestion } from '../../src/shared/protoqa/scoring'
import type { ProtoqaQuestion } from '../../src/shared/protoqa/types'

const ALL = METRICS.find((m) => m.name === 'Max Answers - None') ?? METRICS[0]
if (!ALL) throw new Error('no metric')

const question: ProtoqaQuestion = {
  id: 'q',
  question: 'name something you carry.',
  clusters: [
    { id: 'q.0', count: 40, answers: ['cellphone', 'phone', 'mobile'] },
    { id: 'q.1', count: 20, answers: ['keys'] },
  ],
}

/**
 * A graded similarity that rounds, as WordNet's does: "telephone" is 0.6 like "cellphone" (which
 * rounds to 1 as well) and 1 like "phone"; it counts the pairs it scores.
 */
function countingSimilarity(): Similarity & { pairs: number } {
  const table: Record<string, number> = {
    'telephone|cellphone': 0.6,
    'telephone|phone': 1,
    'telephone|mobile': 0.9,
    'key|keys': 0.8,
  }
  const s = {
    name: 'graded',
    rounds: true,
    pairs: 0,
    score(prediction: string, member: string): number {
      s.pairs++
      return table[`${prediction}|${member}`] ?? 0
    },
  }
  return s
}

describe('the member an answer matched', () => {
  it('is the member that gave its cluster’s best similarity, as the scorer found it', () => {
    const similarity = countingSimilarity()
    const score = scoreQuestion(question, ['telephone', 'key', 'umbrella'], ALL, similarity)
    expect(score.answers.map((a) => [a.cluster, a.points])).toEqual([
      [0, 40],
      [1, 20],
      [null, 0],
    ])
    // "cellphone" rounds to 1 too, but "phone" scored 1 before rounding: it gave the maximum.
    expect(score.answers.map((a) => a.member)).toEqual(['phone', 'keys', null])
    const pairs = similarity.pairs
    expect(explain(score).matched).toEqual(['phone', 'keys', null])
    // Saying which member matched scores no pair again.
    expect(similarity.pairs).toBe(pairs)
  })
})
