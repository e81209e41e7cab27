import { describe, expect, it } from 'vitest'
import { blanc, disagreements } from '../../../src/shared/protoqa/blanc'
import { checkSelection } from '../../../src/shared/protoqa/selection'

const clustering = (...groups: string[][]): Map<string, string | null> => {
  const m = new Map<string, string | null>()
  groups.forEach((g, k) => {
    for (const item of g) m.set(item, `${k}`)
  })
  return m
}

describe('BLANC (FORMATS.md §6.3)', () => {
  const key = clustering(['a', 'b', 'c'], ['d'], ['e'])
  const response = clustering(['a', 'b'], ['c', 'd'], ['e'])

  it('the worked example: Fc 0.4, Fn 0.8, BLANC 0.6, R 25/42, P 0.625', () => {
    const b = blanc(key, response)
    expect(b.c.f).toBeCloseTo(0.4, 12)
    expect(b.n.f).toBeCloseTo(0.8, 12)
    expect(b.blanc).toBeCloseTo(0.6, 12)
    expect(b.recall).toBeCloseTo(25 / 42, 12)
    expect(b.precision).toBeCloseTo(0.625, 12)
    expect(b.c).toMatchObject({ recall: 1 / 3, precision: 1 / 2 })
    expect(b.n.recall).toBeCloseTo(6 / 7, 12)
    expect(b.n.precision).toBeCloseTo(3 / 4, 12)
  })

  it('swapping sides keeps 0.6', () => {
    expect(blanc(response, key).blanc).toBeCloseTo(0.6, 12)
  })

  it('identical clusterings score 1', () => {
    expect(blanc(key, key).blanc).toBe(1)
  })

  it('boundaries, decided on the key: no pairs 0, no C pairs → N alone, no N pairs → C alone', () => {
    expect(blanc(clustering(['a']), clustering(['a']))).toMatchObject({ blanc: 0, uses: 'none' })
    const singletons = clustering(['a'], ['b'], ['c'])
    expect(blanc(singletons, singletons)).toMatchObject({ blanc: 1, uses: 'n' })
    expect(blanc(singletons, clustering(['a', 'b'], ['c']))).toMatchObject({ uses: 'n' })
    expect(blanc(singletons, clustering(['a', 'b'], ['c'])).blanc).toBeCloseTo(0.8, 12)
    const one = clustering(['a', 'b', 'c'])
    expect(blanc(one, one)).toMatchObject({ blanc: 1, uses: 'c' })
    expect(blanc(one, singletons)).toMatchObject({ blanc: 0, uses: 'c' })
    // The response's lack of pairs does not change the rule: it is decided on the key.
    expect(blanc(key, singletons).uses).toBe('both')
  })

  it('weights make an answer that many responses in one cluster', () => {
    const weights = new Map([['a', 2]])
    const k = clustering(['a', 'b'])
    const r = clustering(['a'], ['b'])
    // Key: 3 responses, all linked (3 C pairs); response: the 2 a's linked (1 C pair, 2 N pairs).
    const b = blanc(k, r, weights)
    expect(b.uses).toBe('c')
    expect(b.c.recall).toBeCloseTo(1 / 3, 12)
    expect(b.c.precision).toBe(1)
  })

  it('an answer one side marks invalid: excluded, or a singleton', () => {
    const k = clustering(['a', 'b', 'c'], ['d', 'e'])
    const r = new Map<string, string | null>([...clustering(['a', 'b'], ['d', 'e']), ['c', null]])
    const excluded = blanc(k, r)
    // Key has 4 C pairs and 6 N pairs over 5 items; response 2 C and 4 N over 4; shared 2 C, 4 N.
    expect(excluded.c).toMatchObject({ recall: 2 / 4, precision: 1 })
    expect(excluded.n).toMatchObject({ recall: 4 / 6, precision: 1 })
    const singleton = blanc(k, r, new Map(), { invalid: 'singleton' })
    expect(singleton.c).toMatchObject({ recall: 2 / 4, precision: 1 })
    expect(singleton.n.precision).toBeCloseTo(6 / 8, 12)
    expect(singleton.n.recall).toBe(1)
  })

  it('lists the answers the two put apart', () => {
    const d = disagreements(key, response)
    expect(d.map((x) => x.answer)).toEqual(['a', 'b', 'c', 'd'])
    expect(d.find((x) => x.answer === 'c')).toMatchObject({
      onlyKey: ['a', 'b'],
      onlyResponse: ['d'],
    })
  })
})

describe('the selection rule', () => {
  it('warns when the 8 largest clusters hold fewer than 85 answers', () => {
    expect(checkSelection([35, 28, 12, 11, 6, 5, 1])).toEqual({ topAnswers: 98, passes: true })
    expect(checkSelection([20, 10, 10, 10, 10, 10, 5, 9, 1])).toEqual({
      topAnswers: 84,
      passes: false,
    })
    expect(checkSelection([85])).toEqual({ topAnswers: 85, passes: true })
  })
})
