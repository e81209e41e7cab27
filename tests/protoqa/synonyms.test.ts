import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_SYNONYM_WORDS, synonymPairs } from '../../src/main/collections/protoqa/synonyms'
import { onWordNet } from '../../src/main/collections/protoqa/wordnetThread'
import { loadWordNet, wordnetScore } from '../../src/main/collections/protoqa/wordnet'

const SAMPLE = join(
  import.meta.dirname,
  '../../../shared/data/protoqa/dev_crowdsourced_sample.jsonl',
)

describe('WordNet synonyms for clustering suggestions', () => {
  const wordnet = loadWordNet()
  const sorted = (pairs: { a: string; b: string }[]): string[] =>
    pairs.map(({ a, b }) => [a, b].sort().join(' ~ ')).sort()

  it('pairs answers the scorer counts as the same, and no others', () => {
    const pairs = synonymPairs(wordnet, [
      'sunscreen',
      'sunblock',
      'sun hat',
      'hat',
      'hot dog',
      'frankfurter',
      'towel',
      'them',
      'it',
    ])
    // "hat" / "sun hat" is a half match; "them" / "it" are stopwords only.
    expect(sorted(pairs)).toEqual(['frankfurter ~ hot dog', 'sunblock ~ sunscreen'])
  })

  it('marks a pair of the same words in other forms, apart from synonyms', () => {
    const pairs = synonymPairs(wordnet, [
      'buses',
      'bus',
      'the leaves',
      'leaf',
      'sunscreen',
      'sunblock',
    ])
    const kind = (a: string) => pairs.find((p) => p.a === a || p.b === a)?.form
    expect(kind('bus')).toBe(true)
    expect(kind('leaf')).toBe(true)
    expect(kind('sunblock')).toBe(false)
  })

  it('leaves out answers too long to segment', () => {
    const long = 'good service '.repeat(MAX_SYNONYM_WORDS).trim()
    expect(wordnetScore(wordnet, long, long + ' ')).toBe(1)
    expect(synonymPairs(wordnet, [long, long + ' '])).toEqual([])
  })

  it.skipIf(!existsSync(SAMPLE))('finds every pair that scoring each pair would', () => {
    for (const line of readFileSync(SAMPLE, 'utf8').trim().split('\n')) {
      const answers = Object.keys(
        (JSON.parse(line) as { answers: { raw: Record<string, number> } }).answers.raw,
      )
      const all: { a: string; b: string }[] = []
      for (const [i, a] of answers.entries())
        for (const b of answers.slice(i + 1))
          if (wordnetScore(wordnet, a, b) === 1) all.push({ a, b })
      expect(all.length).toBeGreaterThan(0)
      expect(sorted(synonymPairs(wordnet, answers))).toEqual(sorted(all))
    }
  })

  it('answers the app through the WordNet thread’s tasks', async () => {
    expect(
      sorted(await onWordNet('synonyms', { texts: ['sunblock', 'towel', 'sunscreen'] })),
    ).toEqual(['sunblock ~ sunscreen'])
  })
})
