import type { auditCalls } from '../../shared/contract/audits'
import { auditDetail, drawAudit, drawMore, judge } from '../audits/audits'
import { auditResults } from '../db/queries/audits'
import { localAuthor } from '../ratings/author'
import type { Handlers } from './handlers'
import { recorded } from './recorded'

export const auditHandlers: Handlers<keyof typeof auditCalls> = {
  'audits.list': (_args, { session }) => auditResults(session.project().db),
  'audits.get': ({ auditId }, { session }) => auditDetail(session.project().db, auditId),
  'audits.draw': ({ name, filter, n, seed, targetMargin }, { session }) =>
    recorded(
      session,
      drawAudit(session.project().db, {
        name,
        filter,
        n,
        ...(seed !== undefined ? { seed } : {}),
        ...(targetMargin !== undefined ? { targetMargin } : {}),
        author: localAuthor(),
      }),
    ),
  'audits.drawMore': ({ auditId, n }, { session }) =>
    recorded(session, drawMore(session.project().db, auditId, n, localAuthor())),
  'audits.judge': ({ auditId, annotationId, verdict, note }, { session }) =>
    recorded(
      session,
      judge(session.project().db, { auditId, annotationId, verdict, note, author: localAuthor() }),
    ),
}
