import type { protoqaCalls } from '../../../shared/protoqa/contract'
import { UserError } from '../../../shared/contract/errors'
import { METRICS, exactMatch, scoreAll, scoreQuestion } from '../../../shared/protoqa/scoring'
import { currentClusterings } from './db/clusterings'
import { predictionSets, predictionsOf } from './db/predictions'
import { protoqaTotals, questionAnswers, questionRow, questionSummaries } from './db/questions'
import { protoqaRelease } from './release/writer'
import { agreement, compareReviewers } from './agreement'
import { saveClustering } from './clusterings'
import { releasedQuestion, releasedQuestions, scoringTargets } from './released'
import { onWordNet } from './wordnetThread'
import { explain } from './wordnetTasks'
import { localAuthor } from '../../ratings/author'
import { startImportJob } from '../../tasks/importJob'
import type { Handlers } from '../../api/handlers'

const noQuestion = (id: string): UserError =>
  new UserError({ type: 'not-found', code: 'no-such-question', message: `No question ${id}` })

export const protoqaHandlers: Handlers<keyof typeof protoqaCalls> = {
  'protoqa.overview': (_args, { session }) => {
    const db = session.project().db
    return { ...protoqaTotals(db), predictionSets: predictionSets(db), you: localAuthor() }
  },
  'protoqa.questions': (_args, { session }) => questionSummaries(session.project().db),
  'protoqa.question': ({ id }, { session }) => {
    const db = session.project().db
    const q = questionRow(db, id)
    if (!q) throw noQuestion(id)
    return {
      id: q.externalId,
      source: q.source,
      original: q.original,
      normalized: q.normalized,
      answers: questionAnswers(db, q.id).map(({ text, count }) => ({ text, count })),
      clusterings: currentClusterings(db, q.id),
    }
  },
  'protoqa.saveClustering': ({ question, role, reviewer, draft }, { session }) => {
    const saved = saveClustering(session.project().db, {
      question,
      role,
      reviewer,
      draft,
      author: localAuthor(),
    })
    session.dataChanged()
    return saved
  },
  'protoqa.synonyms': ({ texts }) => onWordNet('synonyms', { texts }),
  'protoqa.compare': ({ question, a, b }, { session }) => {
    const c = compareReviewers(session.project().db, question, a, b)
    return { reviewers: c.reviewers, blanc: c.blanc, disagreements: c.disagreements }
  },
  'protoqa.agreement': (_args, { session }) => agreement(session.project().db),
  'protoqa.import': ({ files }, { session }) => {
    const project = session.project()
    const resolved = files.map(({ ref, format }) => ({
      ...session.resolveFile(ref),
      ...(format ? { format } : {}),
    }))
    const job = startImportJob(session, project.path, {
      collection: 'protoqa',
      files: resolved,
      options: { author: localAuthor() },
    })
    return { jobId: job.id }
  },
  'protoqa.export': (_args, { session }) => protoqaRelease(session.project().db),
  'protoqa.score': async ({ set, question, metric, similarity }, { session }) => {
    const db = session.project().db
    const row = questionRow(db, question)
    if (!row) throw noQuestion(question)
    const released = releasedQuestion(db, row)
    if (!released)
      throw new UserError({
        type: 'conflict',
        code: 'not-clustered',
        message: `${question} has no final clustering to score against`,
      })
    const m = METRICS.find((x) => x.name === metric)
    if (!m)
      throw new UserError({
        type: 'input',
        code: 'no-such-metric',
        message: `No metric ${metric}`,
        field: 'metric',
      })
    const [target] = scoringTargets([released])
    if (!target) throw noQuestion(question)
    const predictions = predictionsOf(db, set).get(question) ?? []
    const explained =
      similarity === 'wordnet'
        ? await onWordNet('scoreQuestion', { target, predictions, metric: m })
        : explain(scoreQuestion(target, predictions, m, exactMatch))
    return { question, metric, similarity, ...explained, clusters: target.clusters }
  },
  'protoqa.scoreSet': async ({ set, similarity }, { session }) => {
    const db = session.project().db
    const targets = scoringTargets(releasedQuestions(db))
    const predictions = predictionsOf(db, set)
    const report =
      similarity === 'wordnet'
        ? await onWordNet('scoreSet', { targets, predictions })
        : scoreAll(targets, predictions, exactMatch)
    return Object.entries(report.metrics).map(([metric, r]) => ({ metric, mean: r.mean }))
  },
}
