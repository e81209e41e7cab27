import type { triageCalls } from '../../shared/contract/triage'
import { triageQueue } from '../db/queries/triage'
import { localAuthor } from '../ratings/author'
import {
  currentQueue,
  markAnnotation,
  markReviewed,
  queueFeedback,
  startQueue,
} from '../triage/queue'
import { triageReport } from '../triage/report'
import { saveTriageSettings, triageSettings } from '../triage/settings'
import { claimTriage } from '../team/claims'
import type { Handlers } from './handlers'
import { recorded } from './recorded'

export const triageHandlers: Handlers<keyof typeof triageCalls> = {
  'triage.report': (range, { session }) => triageReport(session.project().db, range),
  'triage.settings': (_args, { session }) => triageSettings(session.project().db),
  'triage.saveSettings': (settings, { session }) =>
    recorded(session, saveTriageSettings(session.project().db, settings, localAuthor())),
  'triage.startQueue': ({ from, to, share, seed }, { session }) =>
    recorded(
      session,
      startQueue(session.project().db, {
        from,
        to,
        ...(share !== undefined ? { share } : {}),
        ...(seed !== undefined ? { seed } : {}),
        author: localAuthor(),
      }),
    ),
  'triage.currentQueue': (_args, { session }) => currentQueue(session.project().db),
  'triage.queue': ({ queueId }, { session }) => triageQueue(session.project().db, queueId),
  'triage.mark': ({ queueId, annotationId, mark, note }, { session }) =>
    recorded(
      session,
      markAnnotation(session.project().db, {
        queueId,
        annotationId,
        mark,
        note,
        author: localAuthor(),
      }),
    ),
  'triage.feedback': ({ queueId, position, feedback }, { session }) =>
    recorded(
      session,
      queueFeedback(session.project().db, { queueId, position, feedback, author: localAuthor() }),
    ),
  'triage.claim': async ({ queueId, count }, { session }) =>
    await claimTriage(session.project().db, { queueId, count }),
  'triage.reviewed': ({ queueId, position, reviewed }, { session }) =>
    recorded(
      session,
      markReviewed(session.project().db, { queueId, position, reviewed, author: localAuthor() }),
    ),
}
