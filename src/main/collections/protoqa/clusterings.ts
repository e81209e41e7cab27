import { UserError } from '../../../shared/contract/errors'
import type { ClusteringDraft, SavedClustering } from '../../../shared/protoqa/model'
import type { Db } from '../../db/connection'
import { createChangeSet } from '../../db/queries/changes/sets'
import { addClustering, currentClusterings } from './db/clusterings'
import { questionAnswers, questionRow } from './db/questions'
import { showValue } from '../../importers/errors'

export interface SaveClustering {
  question: string
  role: 'reviewer' | 'final'
  /** The reviewer whose clustering this is; for a final one, who decided. */
  reviewer: string
  draft: ClusteringDraft
  /** Who the change set is by (the local account). */
  author: string
}

/**
 * Records a reviewer's clustering, or the final one, as a new clustering in its own change set
 * (the earlier ones stay in the history). Refused, with nothing written, when it names an answer
 * the question does not have, puts an answer in two places, or holds two clusters with the same
 * answers. Empty clusters are dropped; an unnamed cluster is named after its first answer.
 */
export function saveClustering(db: Db, save: SaveClustering): SavedClustering {
  const question = questionRow(db, save.question)
  if (!question)
    throw new UserError({
      type: 'not-found',
      code: 'no-such-question',
      message: `No question ${save.question}`,
    })
  const reviewer = save.reviewer.trim()
  if (reviewer === '') throw invalid('reviewer', 'Name the reviewer this clustering is by.')
  const answers = questionAnswers(db, question.id)
  const answerIds = new Map(answers.map((a) => [a.text, a.id]))
  const placed = new Map<string, string>()
  const place = (answer: string, where: string): void => {
    if (!answerIds.has(answer))
      throw invalid('draft', `${question.externalId} has no answer ${showValue(answer)}.`)
    const other = placed.get(answer)
    if (other !== undefined)
      throw invalid('draft', `${showValue(answer)} is in ${other} and in ${where}.`)
    placed.set(answer, where)
  }
  const clusters = save.draft.clusters.filter((c) => c.answers.length > 0)
  const sets = new Set<string>()
  clusters.forEach((c, i) => {
    const name = c.name.trim() || (c.answers[0] ?? '')
    for (const a of c.answers) place(a, `cluster ${showValue(name)}`)
    const key = [...c.answers].sort().join('\u0000')
    if (sets.has(key))
      throw invalid('draft', `Two clusters hold the same answers (cluster ${i + 1}).`)
    sets.add(key)
  })
  for (const a of save.draft.invalid) place(a, 'the invalid answers')
  for (const a of Object.keys(save.draft.fixes))
    if (!answerIds.has(a))
      throw invalid('draft', `${question.externalId} has no answer ${showValue(a)}.`)
  return db
    .transaction(() => {
      const changeSet = createChangeSet(db, {
        kind: 'protoqa',
        author: save.author,
        description:
          save.role === 'final'
            ? `Final clustering of ${question.externalId}, decided by ${reviewer}`
            : `Clustering of ${question.externalId} by ${reviewer}`,
      })
      const id = addClustering(db, {
        questionId: question.id,
        role: save.role,
        author: reviewer,
        decidedBy: save.role === 'final' ? reviewer : null,
        changeSetId: changeSet.id,
        answerIds,
        clusters: clusters.map((c, i) => ({
          label: `${question.externalId}.${i}`,
          name: c.name.trim() || (c.answers[0] ?? ''),
          declaredCount: null,
          answers: c.answers,
        })),
        invalid: save.draft.invalid,
        fixes: Object.fromEntries(
          Object.entries(save.draft.fixes).filter(([a, f]) => f.trim() !== '' && f !== a),
        ),
        at: changeSet.at,
      })
      const saved = currentClusterings(db, question.id).find((c) => c.id === id)
      if (!saved) throw new Error('the clustering just saved is not current')
      return saved
    })
    .immediate()
}

function invalid(field: string, message: string): UserError {
  return new UserError({ type: 'input', code: 'bad-clustering', message, field })
}
