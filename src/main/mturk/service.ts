/**
 * MTurk as the API handlers use it: a connection made from the open project's endpoint and the
 * session's secret store, the pull job, and the connection test.
 */
import type {
  MTurkBalance,
  MTurkConnectionTest,
  MTurkPullResult,
} from '../../shared/contract/mturk'
import type { JobProgress } from '../../shared/contract/jobs'
import { UserError } from '../../shared/contract/errors'
import { describePull } from '../../shared/summaries'
import { localAuthor } from '../ratings/author'
import type { Session } from '../session'
import { accountBalance } from './actions'
import { type MTurkConnection, connect } from './connect'
import { type SecretStore, environmentSecrets, requireCredentials } from './credentials'
import { projectFieldMap } from './fieldMapFile'
import { type PullRequest, runPull } from './pullRun'
import { projectId, readEndpoint, resolveEndpoint } from './settings'
import type { ActionContext } from './workerActions'

const fallbackSecrets = environmentSecrets()

/** The session's store; without one (tests, embedders), the AWS environment variables. */
export function secretsOf(session: Session): SecretStore {
  return session.options.secrets ?? fallbackSecrets
}

export function openConnection(session: Session, signal?: AbortSignal): MTurkConnection {
  const { db } = session.project()
  const credentials = requireCredentials(secretsOf(session))
  return connect({
    endpoint: resolveEndpoint(readEndpoint(db)),
    credentials,
    ...(signal ? { signal } : {}),
  })
}

/** Runs `work` with a connection that is closed afterwards. */
export async function withConnection<T>(
  session: Session,
  work: (connection: MTurkConnection) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const connection = openConnection(session, signal)
  try {
    return await work(connection)
  } finally {
    connection.close()
  }
}

export async function withActions<T>(
  session: Session,
  work: (ac: ActionContext) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const { db } = session.project()
  return withConnection(
    session,
    (ctx) => work({ db, ctx, endpoint: ctx.url, projectId: projectId(db), author: localAuthor() }),
    signal,
  )
}

const ENDPOINT_NAMES: Record<string, string> = {
  sandbox: 'the MTurk sandbox',
  production: 'MTurk (production)',
  custom: 'the custom endpoint',
}

/** GetAccountBalance, read as a sentence; a failure is a result, not an error. */
export async function testConnection(session: Session): Promise<MTurkConnectionTest> {
  const setting = readEndpoint(session.project().db)
  let url = ''
  try {
    url = resolveEndpoint(setting)
    return await withConnection(session, async (ctx) => {
      const r = await accountBalance(ctx)
      const where = `${ENDPOINT_NAMES[setting.endpoint] ?? url} (${url})`
      if (r.error) {
        return {
          ok: false,
          url,
          balance: null,
          code: r.error.code ?? r.error.name,
          message: refusal(where, r.error),
        }
      }
      const balance = balanceOf(r.response)
      return {
        ok: true,
        url,
        balance,
        code: null,
        message: `Connected to ${where}. Available balance ${dollars(balance.available)}.`,
      }
    })
  } catch (error) {
    if (!(error instanceof UserError)) throw error
    return { ok: false, url, balance: null, code: error.info.code, message: error.message }
  }
}

function refusal(
  where: string,
  e: { name: string; code?: string; message: string; httpStatus?: number },
): string {
  const auth =
    /UnrecognizedClient|InvalidClientTokenId|InvalidSignature|AccessDenied|SignatureDoesNotMatch|MissingAuthenticationToken/
  if (auth.test(e.name)) return `${where} refused the access key (${e.name}): ${e.message}`
  const network =
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|socket hang up|TimeoutError/
  if (network.test(`${e.name} ${e.message}`)) return `Nothing answered at ${where}: ${e.message}`
  return `${where} answered with an error (${e.code ?? e.name}): ${e.message}`
}

const dollars = (amount: string): string =>
  Number.isFinite(Number(amount))
    ? Number(amount).toLocaleString('en-US', { style: 'currency', currency: 'USD' })
    : `$${amount}`

/** GetAccountBalance's answer (dollar strings) as the page shows it. */
export function balanceOf(response: Record<string, unknown> | undefined): MTurkBalance {
  const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)
  return {
    available: text(response?.AvailableBalance) ?? '0.00',
    onHold: text(response?.OnHoldBalance),
  }
}

const DATA_CHANGED_EVERY_MS = 2000

/** Starts a pull as a job (kind `pull`): progress in assignments, cancel keeps the pages stored. */
export function startPullJob(session: Session, request: PullRequest): JobProgress {
  const project = session.project()
  if (session.jobs.list().some((j) => j.kind === 'pull' && j.state === 'running')) {
    throw new UserError({
      type: 'conflict',
      code: 'pull-running',
      message: 'A pull is already running.',
    })
  }
  // Resolve credentials and endpoint now, so a missing key is an answer to the click, not a failed job.
  openConnection(session).close()
  const what = request.selection.examId
    ? `exam ${request.selection.examId}'s attempts`
    : request.mode === 'new'
      ? 'new work'
      : 'assignments'
  return session.jobs.start<MTurkPullResult>({
    kind: 'pull',
    title: `Pulling ${what} from MTurk`,
    unit: 'assignments',
    run: async (job) => {
      const connection = openConnection(session, job.signal)
      const mapping = projectFieldMap(project.db)
      let lastNotice = Date.now()
      try {
        return await runPull(project.db, connection, request, {
          endpoint: connection.url,
          author: localAuthor(),
          ...(mapping ? { map: mapping.map } : {}),
          progress: (p) => job.report({ done: p.done, total: p.total, detail: p.detail }),
          onCommit: () => {
            if (Date.now() - lastNotice < DATA_CHANGED_EVERY_MS) return
            lastNotice = Date.now()
            session.dataChanged()
          },
        })
      } finally {
        connection.close()
        session.dataChanged()
      }
    },
    summary: describePull,
  })
}
