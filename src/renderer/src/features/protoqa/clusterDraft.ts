import type { ClusteringDraft, SynonymPair } from '../../../../shared/protoqa/model'
import { looseAnswerKey } from '../../../../shared/protoqa/normalize'
import { checkSelection, type SelectionCheck } from '../../../../shared/protoqa/selection'

/**
 * The clustering a reviewer is editing, as pure steps: each returns a new draft. Clusters keep
 * their numbers while the reviewer works (keys 1–9 name them), so an emptied cluster stays until
 * the clustering is saved.
 */
export type Draft = ClusteringDraft

export const emptyDraft: Draft = { clusters: [], invalid: [], fixes: {} }

/** Where an answer is: a cluster's index, `invalid`, or null (not clustered yet). */
export function placeOf(draft: Draft, answer: string): number | 'invalid' | null {
  if (draft.invalid.includes(answer)) return 'invalid'
  const i = draft.clusters.findIndex((c) => c.answers.includes(answer))
  return i === -1 ? null : i
}

function without(draft: Draft, answer: string): Draft {
  return {
    ...draft,
    clusters: draft.clusters.map((c) =>
      c.answers.includes(answer) ? { ...c, answers: c.answers.filter((a) => a !== answer) } : c,
    ),
    invalid: draft.invalid.filter((a) => a !== answer),
  }
}

/** Moves an answer into cluster `index`; the index one past the last makes a new cluster. */
export function moveTo(draft: Draft, answer: string, index: number): Draft {
  if (index < 0 || index > draft.clusters.length) return draft
  if (placeOf(draft, answer) === index) return draft
  const rest = without(draft, answer)
  if (index === rest.clusters.length)
    return { ...rest, clusters: [...rest.clusters, { name: '', answers: [answer] }] }
  return {
    ...rest,
    clusters: rest.clusters.map((c, i) =>
      i === index ? { ...c, answers: [...c.answers, answer] } : c,
    ),
  }
}

/** A new cluster holding this answer alone (also how an answer is split out of its cluster). */
export function newCluster(draft: Draft, answer: string): Draft {
  return moveTo(draft, answer, draft.clusters.length)
}

/** Marks an answer invalid, or takes the mark off (it is then not clustered). */
export function toggleInvalid(draft: Draft, answer: string): Draft {
  const rest = without(draft, answer)
  return placeOf(draft, answer) === 'invalid'
    ? rest
    : { ...rest, invalid: [...rest.invalid, answer] }
}

export function unassign(draft: Draft, answer: string): Draft {
  return without(draft, answer)
}

/** Cluster `from`'s answers join cluster `into`; `from` stays, empty. */
export function merge(draft: Draft, from: number, into: number): Draft {
  const source = draft.clusters[from]
  if (!source || from === into || !draft.clusters[into]) return draft
  return {
    ...draft,
    clusters: draft.clusters.map((c, i) =>
      i === into
        ? { ...c, answers: [...c.answers, ...source.answers], name: c.name || source.name }
        : i === from
          ? { ...c, answers: [] }
          : c,
    ),
  }
}

export function rename(draft: Draft, index: number, name: string): Draft {
  return { ...draft, clusters: draft.clusters.map((c, i) => (i === index ? { ...c, name } : c)) }
}

/** Records a spelling fix (an empty or unchanged text removes it). */
export function fixSpelling(draft: Draft, answer: string, text: string): Draft {
  const fixes = { ...draft.fixes }
  if (text.trim() === '' || text === answer) delete fixes[answer]
  else fixes[answer] = text.trim()
  return { ...draft, fixes }
}

/** The draft as saved: empty clusters dropped. */
export function forSaving(draft: Draft): Draft {
  return { ...draft, clusters: draft.clusters.filter((c) => c.answers.length > 0) }
}

/** A cluster's name as shown: its own, else its first answer. */
export function clusterName(draft: Draft, index: number): string {
  const c = draft.clusters[index]
  if (!c) return ''
  return c.name || (c.answers[0] ? (draft.fixes[c.answers[0]] ?? c.answers[0]) : '(empty)')
}

/** Respondents per cluster. */
export function clusterCounts(draft: Draft, counts: ReadonlyMap<string, number>): number[] {
  return draft.clusters.map((c) => c.answers.reduce((s, a) => s + (counts.get(a) ?? 0), 0))
}

/** The 85-of-100 rule on the draft as it stands. */
export function selectionOf(draft: Draft, counts: ReadonlyMap<string, number>): SelectionCheck {
  return checkSelection(clusterCounts(draft, counts))
}

export interface Suggestion {
  cluster: number
  /** The clustered answer it matches. */
  like: string
  kind: 'exact' | 'normalised' | 'synonym'
}

/**
 * Answer text → the texts that are its WordNet synonyms (main finds them), each marked `form`
 * when it is the same words in another form (a plural, another inflection).
 */
export type Synonyms = ReadonlyMap<string, ReadonlyMap<string, 'form' | 'synonym'>>

export const noSynonyms: Synonyms = new Map()

export function synonymIndex(pairs: readonly SynonymPair[]): Synonyms {
  const index = new Map<string, Map<string, 'form' | 'synonym'>>()
  const add = (from: string, to: string, kind: 'form' | 'synonym'): void => {
    const map = index.get(from)
    if (map) map.set(to, kind)
    else index.set(from, new Map([[to, kind]]))
  }
  for (const { a, b, form } of pairs) {
    add(a, b, form ? 'form' : 'synonym')
    add(b, a, form ? 'form' : 'synonym')
  }
  return index
}

/** The texts to ask synonyms of: the answers and their spelling fixes. */
export function synonymTexts(draft: Draft, answers: readonly string[]): string[] {
  return [...new Set([...answers, ...Object.values(draft.fixes)])].sort()
}

/**
 * Where an answer probably belongs: the cluster of an answer whose text (after spelling fixes)
 * is the same, else the same once case, punctuation, articles and the forms of words (a plural
 * `s`, or another form WordNet knows: "leaves", "leaf") are set aside, else a WordNet synonym of
 * it. The first cluster that matches best wins.
 */
export function suggest(draft: Draft, answer: string, synonyms = noSynonyms): Suggestion | null {
  const text = draft.fixes[answer] ?? answer
  const key = looseAnswerKey(text)
  const alike = synonyms.get(text)
  let loose: Suggestion | null = null
  let synonym: Suggestion | null = null
  for (const [index, c] of draft.clusters.entries()) {
    for (const member of c.answers) {
      if (member === answer) continue
      const other = draft.fixes[member] ?? member
      if (other.trim().toLowerCase() === text.trim().toLowerCase())
        return { cluster: index, like: member, kind: 'exact' }
      const wordnet = alike?.get(other)
      if (loose === null && ((key !== '' && looseAnswerKey(other) === key) || wordnet === 'form'))
        loose = { cluster: index, like: member, kind: 'normalised' }
      if (synonym === null && wordnet === 'synonym')
        synonym = { cluster: index, like: member, kind: 'synonym' }
    }
  }
  return loose ?? synonym
}

/** Why a suggestion is made, as the workspace shows it. */
export function suggestionReason(s: Suggestion): string {
  return s.kind === 'synonym' ? `synonym of “${s.like}”` : `${s.kind} match of “${s.like}”`
}
