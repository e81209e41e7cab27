import { UserError } from '../../shared/contract/errors'
import type { mturkCalls } from '../../shared/contract/mturk'
import { workerActionEntries } from '../db/queries/mturkActions'
import { statusCounts, workerAssignments } from '../db/queries/mturkAssignments'
import { hitRows, upsertHits } from '../db/queries/mturkHits'
import { lastPull } from '../db/queries/mturkPulls'
import { accountBalance, countQualifiedWorkers, qualificationTypes } from '../mturk/actions'
import { listHITs } from '../mturk/pull'
import { toListedHit } from '../mturk/pullPlan'
import { explain, explainAction } from '../mturk/pullRun'
import {
  balanceOf,
  secretsOf,
  startPullJob,
  testConnection,
  withActions,
  withConnection,
} from '../mturk/service'
import { settingsView, writeEndpoint } from '../mturk/settings'
import {
  approveAssignments,
  blockWorkers,
  disqualifyWorkers,
  notifyWorkers,
  payBonuses,
  qualifyWorkers,
  rejectAssignments,
  unblockWorkers,
} from '../mturk/workerActions'
import type { Session } from '../session'
import type { Handlers } from './handlers'

const nowSeconds = (): number => Math.floor(Date.now() / 1000)

function editableSecrets(session: Session) {
  const store = secretsOf(session)
  if (!store.save || !store.clear) {
    throw new UserError({
      type: 'conflict',
      code: 'mturk-credentials-readonly',
      message: `The access key comes from ${store.describe().label}; change it there.`,
    })
  }
  return { save: store.save.bind(store), clear: store.clear.bind(store) }
}

/** Every call that records an action tells the page its data changed (statuses, records). */
function changed<T>(session: Session, result: T): T {
  session.dataChanged()
  return result
}

export const mturkHandlers: Handlers<keyof typeof mturkCalls> = {
  'mturk.settings': (_args, { session }) => settingsView(session.project().db, secretsOf(session)),
  'mturk.saveSettings': (args, { session }) => {
    const { db } = session.project()
    writeEndpoint(db, args)
    return settingsView(db, secretsOf(session))
  },
  'mturk.setCredentials': ({ accessKeyId, secretAccessKey }, { session }) => {
    editableSecrets(session).save({ accessKeyId, secretAccessKey })
    return settingsView(session.project().db, secretsOf(session))
  },
  'mturk.clearCredentials': (_args, { session }) => {
    editableSecrets(session).clear()
    return settingsView(session.project().db, secretsOf(session))
  },
  'mturk.test': (_args, { session }) => testConnection(session),
  'mturk.balance': (_args, { session }) =>
    withConnection(session, async (ctx) => {
      const r = await accountBalance(ctx)
      if (r.error) throw explainAction(r.error)
      return balanceOf(r.response)
    }),
  'mturk.summary': (_args, { session }) => {
    const { db } = session.project()
    const hits = hitRows(db, nowSeconds())
    return {
      hits: hits.filter((h) => !h.gone).length,
      nearDisposal: hits.filter((h) => h.nearDisposal).length,
      byStatus: statusCounts(db),
      lastPull: lastPull(db),
    }
  },
  'mturk.hits': async ({ refresh }, { session }) => {
    const { db } = session.project()
    if (refresh) {
      const hits = await withConnection(session, (ctx) =>
        listHITs(ctx).catch((e: unknown) => Promise.reject(explain(e))),
      )
      upsertHits(db, hits.map(toListedHit), Date.now())
    }
    return hitRows(db, nowSeconds())
  },
  'mturk.pull': ({ mode, hitTypeIds, titleContains }, { session }) => {
    const selection = {
      ...(hitTypeIds?.length ? { hitTypeIds } : {}),
      ...(titleContains ? { titleContains } : {}),
    }
    return { jobId: startPullJob(session, { mode, selection }).id }
  },
  'mturk.workerAssignments': ({ workerId }, { session }) =>
    workerAssignments(session.project().db, workerId),
  'mturk.workerActions': ({ workerId }, { session }) =>
    workerActionEntries(session.project().db, workerId),
  'mturk.approve': async (args, { session }) =>
    changed(session, await withActions(session, (ac) => approveAssignments(ac, args))),
  'mturk.reject': async (args, { session }) =>
    changed(session, await withActions(session, (ac) => rejectAssignments(ac, args))),
  'mturk.bonus': async (args, { session }) =>
    changed(session, await withActions(session, (ac) => payBonuses(ac, args))),
  'mturk.notify': async (args, { session }) =>
    changed(session, await withActions(session, (ac) => notifyWorkers(ac, args))),
  'mturk.qualify': async (args, { session }) =>
    changed(session, await withActions(session, (ac) => qualifyWorkers(ac, args))),
  'mturk.disqualify': async (args, { session }) =>
    changed(session, await withActions(session, (ac) => disqualifyWorkers(ac, args))),
  'mturk.block': async (args, { session }) =>
    changed(session, await withActions(session, (ac) => blockWorkers(ac, args))),
  'mturk.unblock': async (args, { session }) =>
    changed(session, await withActions(session, (ac) => unblockWorkers(ac, args))),
  'mturk.qualificationTypes': ({ counts }, { session }) =>
    withConnection(session, async (ctx) => {
      const types = await qualificationTypes(ctx)
      if (types.error) throw explainAction(types.error)
      const rows = []
      for (const t of types.response?.QualificationTypes ?? []) {
        const id = t.QualificationTypeId ?? ''
        const count = counts
          ? (await countQualifiedWorkers(ctx, { qualificationTypeId: id })).response?.count
          : undefined
        rows.push({
          id,
          name: t.Name ?? id,
          description: t.Description ?? '',
          status: t.QualificationTypeStatus ?? '',
          count: count ?? null,
        })
      }
      return rows
    }),
  'mturk.countQualified': ({ qualificationTypeId }, { session }) =>
    withConnection(session, async (ctx) => {
      const r = await countQualifiedWorkers(ctx, { qualificationTypeId })
      if (r.error || !r.response)
        throw explainAction(r.error ?? { name: 'Error', message: 'no answer' })
      return { count: r.response.count }
    }),
}
