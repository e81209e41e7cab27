import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  STOPWORDS,
  loadWordNet,
  tokens,
  wordnetScore,
  wordnetSimilarity,
} from '../../src/main/protoqa/wordnet'
import { METRICS, scoreQuestion } from '../../src/shared/protoqa/scoring'
import { cli } from '../helpers/cli'

describe('WordNet similarity (FORMATS.md §6.2)', () => {
  const wordnet = loadWordNet()

  it('matches the worked examples', () => {
    expect(wordnetScore(wordnet, 'sunblock', 'sunscreen')).toBe(1)
    expect(wordnetScore(wordnet, 'hat', 'sun hat')).toBe(0.5)
    expect(wordnetScore(wordnet, 'hot dog', 'frankfurter')).toBe(1)
    // All stopwords on both sides: "" equals "".
    expect(wordnetScore(wordnet, 'them', 'it')).toBe(1)
    expect(wordnetScore(wordnet, 'them', 'dog')).toBe(0)
  })

  it('lemmatises as morphy does and keeps NLTK’s 179 stopwords', () => {
    expect(STOPWORDS.size).toBe(179)
    expect(wordnetScore(wordnet, 'cars', 'car')).toBe(1)
    expect(wordnetScore(wordnet, 'dog', 'cat')).toBe(0)
    expect(tokens("don't stop")).toEqual(['do', "n't", 'stop'])
  })

  it('rounds half to even before the assignment: a half match earns nothing', () => {
    const q = {
      id: 'q',
      question: 'name something you wear.',
      clusters: [{ id: 'q.0', count: 10, answers: ['sun hat'] }],
    }
    const ma1 = METRICS.find((m) => m.name === 'Max Answers - 1')
    if (!ma1) throw new Error('metric')
    expect(scoreQuestion(q, ['hat'], ma1, wordnetSimilarity(wordnet)).score).toBe(0)
    expect(scoreQuestion(q, ['Sun Hat'], ma1, wordnetSimilarity(wordnet)).score).toBe(1)
  })

  it('winnow protoqa score --similarity wordnet', async () => {
    const fixture = (name: string): string => join(import.meta.dirname, '../fixtures/protoqa', name)
    const run = await cli(
      'protoqa',
      'score',
      '--targets',
      fixture('questions.jsonl'),
      '--predictions',
      fixture('predictions.json'),
      '--similarity',
      'wordnet',
      '--json',
    )
    expect(run.code).toBe(0)
    const metrics = (
      run.json as { metrics: Record<string, { perQuestion: Record<string, number> }> }
    ).metrics
    expect(metrics['Max Answers - 1']?.perQuestion).toEqual({ t1q1: 1, t1q2: 25 / 70 })
  })
})
