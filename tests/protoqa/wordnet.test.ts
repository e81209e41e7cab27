import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  STOPWORDS,
  loadWordNet,
  tokens,
  wordnetScore,
  wordnetSimilarity,
} from '../../src/main/collections/protoqa/wordnet'
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

  it('strips endings again until a lemma is found, as NLTK’s morphy does', () => {
    // "ringings" is no verb, nor is "ringing"; one more strip finds "ring".
    const verbs = [...wordnet.synsets('ring')].filter((id) => id.startsWith('verb:'))
    expect(verbs.length).toBeGreaterThan(0)
    expect([...wordnet.synsets('ringings')]).toEqual(expect.arrayContaining(verbs))
    expect(wordnet.synsets('qqqqs').size).toBe(0)
  })

  it('gives the official evaluator’s own WordNet figures', () => {
    // The evaluator's test suite: "odor" and "looks" against the answers smell (2) and face (5)
    // score 0.4 as fast money (Max Answers - 1) and 1.0 as family feud (Max Incorrect - 3).
    const q = {
      id: 'q',
      question: 'q',
      clusters: [
        { id: 'q.0', count: 2, answers: ['smell'] },
        { id: 'q.1', count: 5, answers: ['face'] },
      ],
    }
    const score = (name: string): number | undefined => {
      const metric = METRICS.find((m) => m.name === name)
      return metric && scoreQuestion(q, ['odor', 'looks'], metric, wordnetSimilarity(wordnet)).score
    }
    expect(score('Max Answers - 1')).toBe(0.4)
    expect(score('Max Incorrect - 3')).toBe(1)
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
