import type { SynonymPair } from '../../../shared/protoqa/model'
import { type WordNet, contentWords, wordnetScore } from './wordnet'

/**
 * Answers longer than this (in content words) are left out: the similarity tries every way to
 * cut both answers into phrases, which doubles with each word, and such answers are sentences
 * that a reviewer reads anyway.
 */
export const MAX_SYNONYM_WORDS = 6

/**
 * The pairs of `texts` that are WordNet synonyms for clustering suggestions: the scorer's WordNet
 * similarity (FORMATS.md §6.2) is 1, so a prediction of one would earn the other's cluster.
 * Answers of stopwords only are left out (to the scorer "them" and "it" are the same, which
 * suggests nothing). Only pairs that share a word, a phrase or a synset are scored: a similarity
 * of 1 needs at least one such match.
 */
export function synonymPairs(wordnet: WordNet, texts: readonly string[]): SynonymPair[] {
  const distinct = [...new Set(texts)]
  const byKey = new Map<string, number[]>()
  distinct.forEach((text, index) => {
    const words = contentWords(text)
    if (words.length === 0 || words.length > MAX_SYNONYM_WORDS) return
    const keys = new Set<string>()
    for (let start = 0; start < words.length; start++)
      for (let end = start + 1; end <= words.length; end++) {
        const phrase = words.slice(start, end).join(' ').toLowerCase()
        keys.add(`w:${phrase}`)
        for (const id of wordnet.synsets(phrase)) keys.add(`s:${id}`)
      }
    for (const key of keys) {
      const list = byKey.get(key)
      if (list) list.push(index)
      else byKey.set(key, [index])
    }
  })
  const seen = new Set<number>()
  const pairs: SynonymPair[] = []
  for (const list of byKey.values())
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const x = list[i] ?? 0
        const y = list[j] ?? 0
        const id = x * distinct.length + y
        if (seen.has(id)) continue
        seen.add(id)
        const a = distinct[x] ?? ''
        const b = distinct[y] ?? ''
        if (wordnetScore(wordnet, a, b) === 1) pairs.push({ a, b, form: sameWords(wordnet, a, b) })
      }
  return pairs
}

/**
 * True when two answers are the same words but for their forms ("leaves" and "leaf", "the buses"
 * and "bus"): word for word, the two share a dictionary form. Such a pair is a normalised match
 * to the reviewer, not a synonym.
 */
function sameWords(wordnet: WordNet, a: string, b: string): boolean {
  const wa = contentWords(a).map((w) => w.toLowerCase())
  const wb = contentWords(b).map((w) => w.toLowerCase())
  if (wa.length !== wb.length) return false
  return wa.every((x, i) => {
    const y = wb[i] ?? ''
    if (x === y) return true
    const lemmas = wordnet.lemmas(y)
    for (const lemma of wordnet.lemmas(x)) if (lemmas.has(lemma)) return true
    return false
  })
}
