import { z } from 'zod'
import type { Blanc, Disagreement } from './blanc'
import type {
  ProtoqaOverview,
  QuestionDetail,
  QuestionSummary,
  SavedClustering,
  SynonymPair,
} from './model'
import { protoqaFormats } from './model'
import type { QuestionScore } from './scoring'
import { call } from '../contract/define'
import { fileRefSchema } from '../contract/imports'

const questionId = z.string().min(1).max(200)
const answer = z.string().max(2000)
const reviewer = z.string().trim().min(1).max(100)

const clusteringDraftSchema = z.object({
  clusters: z
    .array(z.object({ name: z.string().max(200), answers: z.array(answer).max(5000) }))
    .max(5000),
  invalid: z.array(answer).max(5000),
  fixes: z.record(answer, z.string().max(2000)),
})

export interface QuestionAgreementView {
  reviewers: [string, string] | null
  blanc: Blanc | null
  disagreements: Disagreement[]
}

export interface AgreementView {
  questions: { question: string; reviewers: [string, string]; blanc: Blanc }[]
  overall: { blanc: number; c: number; n: number; questions: number } | null
}

export interface ProtoqaExportView {
  /** The ProtoQA JSONL text. */
  jsonl: string
  datasheet: string
  questions: number
  unclustered: string[]
  belowSelection: { question: string; topAnswers: number }[]
}

/** How predicted answers are compared with cluster members (FORMATS.md §6.2). */
export const similarities = ['exact', 'wordnet'] as const
export type SimilarityName = (typeof similarities)[number]

export interface QuestionScoreView {
  question: string
  metric: string
  similarity: SimilarityName
  score: QuestionScore
  /** Per kept answer, the member of its assigned cluster it matched; null when none. */
  matched: (string | null)[]
  clusters: { id: string; count: number; answers: string[] }[]
}

export const protoqaCalls = {
  /** What the project holds of ProtoQA, and the local account (the default reviewer name). */
  'protoqa.overview': call(z.object({})).returns<ProtoqaOverview & { you: string }>(),
  'protoqa.questions': call(z.object({})).returns<QuestionSummary[]>(),
  'protoqa.question': call(z.object({ id: questionId })).returns<QuestionDetail>(),
  /** Records a reviewer's clustering (or the final one, decided by `reviewer`) as a new version. */
  'protoqa.saveClustering': call(
    z.object({
      question: questionId,
      role: z.enum(['reviewer', 'final']),
      reviewer,
      draft: clusteringDraftSchema,
    }),
  ).returns<SavedClustering>(),
  /**
   * The pairs of these answers (a question's, with their spelling fixes) that are WordNet
   * synonyms, for clustering suggestions; WordNet is read on a thread the first time.
   */
  'protoqa.synonyms': call(z.object({ texts: z.array(answer).max(5000) })).returns<SynonymPair[]>(),
  /** BLANC of two reviewers' clusterings of a question and the answers they put apart. */
  'protoqa.compare': call(
    z.object({ question: questionId, a: reviewer.optional(), b: reviewer.optional() }),
  ).returns<QuestionAgreementView>(),
  'protoqa.agreement': call(z.object({})).returns<AgreementView>(),
  /** Every file in one transaction, as a job on the import thread. */
  'protoqa.import': call(
    z.object({
      files: z
        .array(z.object({ ref: fileRefSchema, format: z.enum(protoqaFormats).optional() }))
        .min(1)
        .max(100),
    }),
  ).returns<{ jobId: string }>(),
  'protoqa.export': call(z.object({})).returns<ProtoqaExportView>(),
  /**
   * One question's score under a prediction set, with the answer-to-cluster assignment, by exact
   * match or WordNet similarity (WordNet is read on a thread the first time).
   */
  'protoqa.score': call(
    z.object({
      set: z.number().int().positive(),
      question: questionId,
      metric: z.string().max(40),
      similarity: z.enum(similarities).default('exact'),
    }),
  ).returns<QuestionScoreView>(),
  /** Every metric's mean for a prediction set against the released clusters. */
  'protoqa.scoreSet': call(
    z.object({
      set: z.number().int().positive(),
      similarity: z.enum(similarities).default('exact'),
    }),
  ).returns<{ metric: string; mean: number }[]>(),
}
