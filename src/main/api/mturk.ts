import { UserError } from '../../shared/contract/errors'
import type { ParsedArgs } from '../../shared/contract'
import type { ActionOutcome, mturkCalls } from '../../shared/contract/mturk'
import { workerActionEntries } from '../db/queries/mturk/actions'
import { statusCounts, workerAssignments } from '../db/queries/mturk/assignments'
import { queryTargetCounts } from '../db/queries/mturk/targets'
import { hitRows, upsertHits } from '../db/queries/mturk/hits'
import { lastPull } from '../db/queries/mturk/pulls'
import { accountBalance, countQualifiedWorkers, qualificationTypes } from '../mturk/actions'
import {
  fieldMappingView,
  projectFieldMap,
  readFieldMapFile,
  rememberFieldMap,
} from '../mturk/fieldMapFile'
import { listHITs } from '../mturk/pull'
import { toListedHit } from '../mturk/pullPlan'
import { explain, explainAction } from '../mturk/pullRun'
import { requireExam } from '../collections/crowdaq/grade'
import {
  balanceOf,
  secretsOf,
  startPullJob,
  testConnection,
  withActions,
  withConnection,
} from '../mturk/service'
import { settingsView, writeEndpoint } from '../mturk/settings'
import { localAuthor } from '../ratings/author'
import { WORKER_ACTIONS, type WorkerActionSpec } from '../mturk/workerActionTable'
import type { Session } from '../session'
import type { Handlers } from './handlers'
import { recorded } from './recorded'

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

/**
 * Runs an action; every call that records one tells the page its data changed. It runs in the
 * jobs' turn, so a team's exchange pushes its change set whole, after the batch.
 */
async function act<K extends WorkerActionSpec['call']>(
  session: Session,
  spec: WorkerActionSpec<K>,
  args: ParsedArgs<K>,
): Promise<ActionOutcome> {
  const outcome = await session.jobs.inTurn(() => withActions(session, (ac) => spec.run(ac, args)))
  session.dataChanged()
  return outcome
}

export const mturkHandlers: Handlers<keyof typeof mturkCalls> = {
  'mturk.settings': (_args, { session }) => settingsView(session.project().db, secretsOf(session)),
  'mturk.saveSettings': (args, { session }) => {
    const { db } = session.project()
    writeEndpoint(db, args, localAuthor())
    return recorded(session, settingsView(db, secretsOf(session)))
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
  'mturk.pull': ({ mode, hitTypeIds, titleContains, examId }, { session }) => {
    // An unknown exam is an answer to the click, not a failed job.
    if (examId) requireExam(session.project().db, examId)
    const selection = {
      ...(hitTypeIds?.length ? { hitTypeIds } : {}),
      ...(titleContains ? { titleContains } : {}),
      ...(examId ? { examId } : {}),
    }
    return { jobId: startPullJob(session, { mode, selection }).id }
  },
  'mturk.workerAssignments': ({ workerId }, { session }) =>
    workerAssignments(session.project().db, workerId),
  'mturk.workerActions': ({ workerId }, { session }) =>
    workerActionEntries(session.project().db, workerId),
  'mturk.fieldMapping': (_args, { session }) =>
    fieldMappingView(projectFieldMap(session.project().db)),
  'mturk.pickFieldMapping': async (_args, context) => {
    const path = (await context.dialogs?.openMappingFile()) ?? null
    return path === null ? null : context.session.grantFile(path)
  },
  'mturk.setFieldMapping': ({ file }, { session }) => {
    const { db } = session.project()
    if (file === null) {
      rememberFieldMap(db, null, localAuthor())
      return recorded(session, null)
    }
    const chosen = session.resolveFile(file)
    const mapping = readFieldMapFile(chosen.path, chosen.name)
    rememberFieldMap(db, mapping, localAuthor())
    return recorded(session, fieldMappingView(mapping))
  },
  'mturk.queryTargets': ({ filter }, { session }) =>
    queryTargetCounts(session.project().db, filter),
  'mturk.approve': (args, { session }) => act(session, WORKER_ACTIONS.approve, args),
  'mturk.reject': (args, { session }) => act(session, WORKER_ACTIONS.reject, args),
  'mturk.bonus': (args, { session }) => act(session, WORKER_ACTIONS.bonus, args),
  'mturk.notify': (args, { session }) => act(session, WORKER_ACTIONS.notify, args),
  'mturk.qualify': (args, { session }) => act(session, WORKER_ACTIONS.qualify, args),
  'mturk.disqualify': (args, { session }) => act(session, WORKER_ACTIONS.disqualify, args),
  'mturk.block': (args, { session }) => act(session, WORKER_ACTIONS.block, args),
  'mturk.unblock': (args, { session }) => act(session, WORKER_ACTIONS.unblock, args),
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
