import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normalizePrediction } from '../../../src/shared/protoqa/normalize'
import {
  METRICS,
  type Metric,
  roundHalfEven,
  scoreAll,
  scoreQuestion,
} from '../../../src/shared/protoqa/scoring'
import type { ProtoqaQuestion } from '../../../src/shared/protoqa/types'

const metric = (name: string): Metric => {
  const m = METRICS.find((x) => x.name === name)
  if (!m) throw new Error(name)
  return m
}

/** FORMATS.md §6.2: clusters named by their counts. */
const tens: ProtoqaQuestion = {
  id: 'q',
  question: 'name something.',
  clusters: [
    { id: 'q.0', count: 10, answers: ['10'] },
    { id: 'q.1', count: 60, answers: ['60'] },
    { id: 'q.2', count: 30, answers: ['30'] },
  ],
}

/** Dev r1q1's cluster counts (35, 28, 12, 11, 6, 5, 1; total 98). */
const r1q1: ProtoqaQuestion = {
  id: 'r1q1',
  question: 'name something that is hard to guess about a person you are just meeting.',
  clusters: [35, 28, 12, 11, 6, 5, 1].map((count, k) => ({
    id: `r1q1.${k}`,
    count,
    answers: [`answer ${k}`, `other ${k}`],
  })),
}

describe('ProtoQA scoring, worked examples (FORMATS.md §6.2)', () => {
  it('MA@1 ["30","a","b"] = 30/60', () => {
    expect(scoreQuestion(tens, ['30', 'a', 'b'], metric('Max Answers - 1')).score).toBe(0.5)
  })

  it('MI@3 ["30","X","X","10","X","60"] = 40/100', () => {
    const s = scoreQuestion(tens, ['30', 'X', 'X', '10', 'X', '60'], metric('Max Incorrect - 3'))
    expect(s.score).toBeCloseTo(0.4, 12)
    expect(s.answers.map((a) => a.cluster)).toEqual([2, null, null, 0, null])
  })

  it('MI@3 ["60","60","60"] = 0.6: a repeat is not incorrect and earns nothing', () => {
    const s = scoreQuestion(tens, ['60', '60', '60'], metric('Max Incorrect - 3'))
    expect(s.score).toBeCloseTo(0.6, 12)
    expect(s.answers.map((a) => a.points)).toEqual([60, 0, 0])
  })

  it('dev r1q1: MA@1 1.0, MA@3 35/75, MI@3 35/98, MA@none 75/98', () => {
    const list = ['Answer 0', 'wrong', 'wronger', 'wrongest', 'other 1', ' ANSWER 2 ']
    expect(scoreQuestion(r1q1, list, metric('Max Answers - 1')).score).toBe(1)
    expect(scoreQuestion(r1q1, list, metric('Max Answers - 3')).score).toBeCloseTo(35 / 75, 12)
    expect(scoreQuestion(r1q1, list, metric('Max Incorrect - 3')).score).toBeCloseTo(35 / 98, 12)
    expect(scoreQuestion(r1q1, list, metric('Max Answers - None')).score).toBeCloseTo(75 / 98, 12)
    expect(Number((35 / 75).toFixed(4))).toBe(0.4667)
    expect(Number((35 / 98).toFixed(4))).toBe(0.3571)
    expect(Number((75 / 98).toFixed(4))).toBe(0.7653)
  })

  it('exact-match oracle: MA@k is the top-k counts, MI all counts', () => {
    expect(scoreQuestion(tens, ['10'], metric('Max Answers - 1')).oracle).toBe(60)
    expect(scoreQuestion(tens, ['10'], metric('Max Answers - 3')).oracle).toBe(100)
    expect(scoreQuestion(tens, ['10'], metric('Max Incorrect - 1')).oracle).toBe(100)
  })

  it('an empty list scores 0, as do clusters whose counts are all 0', () => {
    for (const m of METRICS) expect(scoreQuestion(tens, [], m).score).toBe(0)
    const zero = { ...tens, clusters: tens.clusters.map((c) => ({ ...c, count: 0 })) }
    expect(scoreQuestion(zero, ['10'], metric('Max Answers - 1')).score).toBe(0)
  })

  it('the mean is unweighted over questions, a question without predictions scores 0', () => {
    const report = scoreAll([tens, r1q1], new Map([['q', ['60']]]))
    expect(report.metrics['Max Answers - 1']).toEqual({ mean: 0.5, perQuestion: { q: 1, r1q1: 0 } })
    expect(report.missing).toEqual(['r1q1'])
    expect(Object.keys(report.metrics)).toEqual(METRICS.map((m) => m.name))
  })
})

describe('normalisation of predictions (Python semantics)', () => {
  it('lower-cases, keeps 50 code points, then strips Python whitespace', () => {
    expect(normalizePrediction('  Hot DOG \t')).toBe('hot dog')
    expect(normalizePrediction('x'.repeat(49) + ' yz')).toBe('x'.repeat(49))
    expect(normalizePrediction('😀'.repeat(60))).toBe('😀'.repeat(50))
    expect(normalizePrediction('\x1cage\x85')).toBe('age')
    expect(normalizePrediction('\ufeffage')).toBe('\ufeffage')
    expect(normalizePrediction('')).toBe('')
  })

  it('rounds half to even, as numpy does', () => {
    expect([0, 0.49, 0.5, 0.51, 1, 1.5, 2.5].map(roundHalfEven)).toEqual([0, 0, 0, 1, 1, 2, 2])
  })
})

describe('property: naming every cluster once, largest first', () => {
  const word = fc.stringMatching(/^[a-z]{1,12}$/)
  const question = fc
    .array(
      fc.record({
        count: fc.integer({ min: 1, max: 60 }),
        extra: fc.array(word, { maxLength: 3 }),
      }),
      {
        minLength: 1,
        maxLength: 19,
      },
    )
    .map((cs): ProtoqaQuestion => ({
      id: 'g',
      question: 'name something.',
      clusters: cs.map((c, k) => ({
        id: `g.${k}`,
        count: c.count,
        answers: [`cluster ${k}`, ...c.extra.map((w) => `${w} ${k}`)],
      })),
    }))

  it('scores 1.0 on every Max Answers metric', () => {
    fc.assert(
      fc.property(question, (q) => {
        const list = q.clusters
          .map((c, index) => ({ c, index }))
          .sort((a, b) => b.c.count - a.c.count || a.index - b.index)
          .map(({ c }) => c.answers[c.answers.length - 1] ?? '')
        for (const m of METRICS.filter((x) => x.kind === 'answers'))
          expect(scoreQuestion(q, list, m).score).toBeCloseTo(1, 12)
      }),
    )
  })
})
