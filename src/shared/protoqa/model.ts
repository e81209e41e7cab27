/** What the ProtoQA pages and commands exchange with main. */

export type ClusteringRole = 'imported' | 'reviewer' | 'final'

/** A clustering as a reviewer edits it: answers named by their text as imported. */
export interface ClusteringDraft {
  clusters: { name: string; answers: string[] }[]
  /** Answers marked invalid: kept in the raw answers, in no cluster. */
  invalid: string[]
  /** Spelling fixes: answer → the text it is exported as. */
  fixes: Record<string, string>
}

export interface SavedClustering extends ClusteringDraft {
  id: number
  role: ClusteringRole
  author: string
  decidedBy: string | null
  recordedAt: number
  /** Per cluster, the respondents it holds (a released file's own count when imported). */
  counts: number[]
}

export interface QuestionSummary {
  id: string
  question: string
  answers: number
  responses: number
  /** Authors with a reviewer clustering of this question. */
  reviewers: string[]
  /** Whether a final clustering was recorded (or imported). */
  final: boolean
  /** Σ of the 8 largest final clusters' counts, null without a final clustering. */
  topAnswers: number | null
}

/** Two answers whose every content word (or phrase) has a WordNet synonym in the other. */
export interface SynonymPair {
  a: string
  b: string
  /** The same words in other forms (a plural, another inflection), not different words. */
  form: boolean
}

export interface ProtoqaAnswer {
  text: string
  count: number
}

export interface QuestionDetail {
  id: string
  source: string
  original: string
  normalized: string
  answers: ProtoqaAnswer[]
  /** The current clustering of each author and role. */
  clusterings: SavedClustering[]
}

export interface ProtoqaOverview {
  questions: number
  answers: number
  responses: number
  predictionSets: { id: number; name: string; questions: number }[]
}

export interface ProtoqaImportResult {
  questions: number
  answers: number
  clusters: number
  responses: number
  predictions: number
  files: { file: string; format: ProtoqaFormat; warnings: string[] }[]
}

export const protoqaFormats = [
  'protoqa-questions',
  'protoqa-answers',
  'protoqa-predictions',
] as const
export type ProtoqaFormat = (typeof protoqaFormats)[number]
