import {
  type Blanc,
  type Labels,
  blanc,
  disagreements,
  type Disagreement,
} from '../../../shared/protoqa/blanc'
import type { SavedClustering } from '../../../shared/protoqa/model'
import type { Db } from '../../db/connection'
import { currentClusterings } from './db/clusterings'
import { questionAnswers, questionRow, questionRows } from './db/questions'

/** An answer's cluster in a clustering (by position), null when invalid; unclustered answers are absent. */
function labelsOf(c: Pick<SavedClustering, 'clusters' | 'invalid'>): Map<string, string | null> {
  const labels = new Map<string, string | null>()
  c.clusters.forEach((cluster, i) => {
    for (const a of cluster.answers) labels.set(a, String(i))
  })
  for (const a of c.invalid) labels.set(a, null)
  return labels
}

interface QuestionAgreement {
  question: string
  /** The two reviewers compared (the first two by name when more clustered it). */
  reviewers: [string, string]
  blanc: Blanc
}

export interface AgreementReport {
  questions: QuestionAgreement[]
  /** Means over the questions two reviewers clustered; null when there are none. */
  overall: { blanc: number; c: number; n: number; questions: number } | null
}

function pairOf(clusterings: SavedClustering[]): [SavedClustering, SavedClustering] | null {
  const reviewers = clusterings.filter((c) => c.role === 'reviewer')
  const [a, b] = reviewers
  return a && b ? [a, b] : null
}

/**
 * BLANC between the two reviewers' clusterings of each question, items being responses (an
 * answer counts as many times as respondents gave it), invalid answers left out of the side that
 * marked them; overall = the mean over questions.
 */
export function agreement(db: Db, only?: string): AgreementReport {
  const rows =
    only === undefined ? questionRows(db) : [questionRow(db, only)].filter((q) => q !== undefined)
  const questions: QuestionAgreement[] = []
  for (const q of rows) {
    const pair = pairOf(currentClusterings(db, q.id))
    if (!pair) continue
    const weights = new Map(questionAnswers(db, q.id).map((a) => [a.text, a.count]))
    questions.push({
      question: q.externalId,
      reviewers: [pair[0].author, pair[1].author],
      blanc: blanc(labelsOf(pair[0]), labelsOf(pair[1]), weights),
    })
  }
  const mean = (f: (a: QuestionAgreement) => number): number =>
    questions.reduce((s, a) => s + f(a), 0) / questions.length
  return {
    questions,
    overall:
      questions.length === 0
        ? null
        : {
            blanc: mean((a) => a.blanc.blanc),
            c: mean((a) => a.blanc.c.f),
            n: mean((a) => a.blanc.n.f),
            questions: questions.length,
          },
  }
}

export interface Comparison {
  question: string
  reviewers: [string, string] | null
  blanc: Blanc | null
  /** The answers the two put apart. */
  disagreements: Disagreement[]
}

/** What the adjudication view shows for a question. */
export function compareReviewers(db: Db, question: string, a?: string, b?: string): Comparison {
  const q = questionRow(db, question)
  if (!q) return { question, reviewers: null, blanc: null, disagreements: [] }
  const clusterings = currentClusterings(db, q.id).filter((c) => c.role === 'reviewer')
  const first = a ? clusterings.find((c) => c.author === a) : clusterings[0]
  const second = b ? clusterings.find((c) => c.author === b) : clusterings.find((c) => c !== first)
  if (!first || !second) return { question, reviewers: null, blanc: null, disagreements: [] }
  const weights = new Map(questionAnswers(db, q.id).map((x) => [x.text, x.count]))
  const ka: Labels = labelsOf(first)
  const kb: Labels = labelsOf(second)
  return {
    question,
    reviewers: [first.author, second.author],
    blanc: blanc(ka, kb, weights),
    disagreements: disagreements(ka, kb),
  }
}
