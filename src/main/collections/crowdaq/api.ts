import type { crowdaqCalls, ExamSummary } from '../../../shared/crowdaq/contract'
import type { Db } from '../../db/connection'
import { examRows, resourceLists } from './db/specs'
import { examSpec, saveExamSettings, saveQuestionSet, tutorialSpec } from './authoring'
import { gradeExam, requireExam } from './grade'
import { previewQuestionSet, previewTask } from './preview'
import { bandsDryRun } from './qualify'
import { buildExamReport } from './report'
import { taskReview } from './tasks'
import { taskResponseCount } from './db/tasks'
import { localAuthor } from '../../ratings/author'
import { startImportJob } from '../../tasks/importJob'
import { startQualifyJob } from './qualifyJob'
import type { Handlers } from '../../api/handlers'

function examSummary(db: Db, examId: string): ExamSummary {
  const row = examRows(db).find((e) => e.id === examId)
  if (!row) return { ...requireExam(db, examId), questions: 0, attempts: 0, workers: 0 }
  return row
}

export const crowdaqHandlers: Handlers<keyof typeof crowdaqCalls> = {
  'crowdaq.overview': (_args, { session }) => {
    const { db } = session.project()
    return { exams: examRows(db), ...resourceLists(db), taskResponses: taskResponseCount(db) }
  },
  'crowdaq.import': ({ file, examId }, { session }) => {
    const project = session.project()
    const resolved = session.resolveFile(file)
    const job = startImportJob(session, project.path, {
      collection: 'crowdaq',
      path: resolved.path,
      name: resolved.name,
      options: { author: localAuthor(), examId },
    })
    return { jobId: job.id }
  },
  'crowdaq.previewQuestions': ({ kind, id }, { session }) =>
    previewQuestionSet(session.project().db, kind, id),
  'crowdaq.previewTask': ({ id }, { session }) => previewTask(session.project().db, id),
  'crowdaq.saveSettings': ({ examId, settings }, { session }) => {
    const { db } = session.project()
    requireExam(db, examId)
    saveExamSettings(db, examId, settings, localAuthor())
    session.historyChanged()
    return examSummary(db, examId)
  },
  'crowdaq.grade': ({ examId }, { session }) =>
    gradeExam(session.project().db, examId).graded.map((a) => ({
      workerId: a.workerId,
      attempt: a.attempt,
      grade: a.grade,
      band: a.band,
      flags: a.flags,
      shown: a.shown,
      correct: a.correct,
      completedAt: a.completedAt,
      durationSeconds: a.durationSeconds,
    })),
  'crowdaq.report': ({ examId }, { session }) => buildExamReport(session.project().db, examId),
  'crowdaq.planQualifications': ({ examId }, { session }) =>
    bandsDryRun(session.project().db, examId),
  'crowdaq.qualify': ({ examId }, { session }) => {
    requireExam(session.project().db, examId)
    return { jobId: startQualifyJob(session, examId).id }
  },
  'crowdaq.questionSetSpec': ({ kind, id }, { session }) =>
    kind === 'exam' ? examSpec(session.project().db, id) : tutorialSpec(session.project().db, id),
  'crowdaq.saveQuestionSet': ({ kind, spec, create }, { session }) => {
    const result = saveQuestionSet(session.project().db, kind, spec, {
      create,
      author: localAuthor(),
    })
    if (result.id !== null) session.dataChanged({ collections: create })
    return result
  },
  'crowdaq.taskReview': ({ taskId, limit }, { session }) =>
    taskReview(session.project().db, taskId, limit),
}
