import { existsSync, rmSync } from 'node:fs'
import type { JobProgress } from '../../shared/contract/jobs'
import { UserError } from '../../shared/contract/errors'
import { scrubPassword } from '../db/server/connect'
import { CancelledError } from '../jobs/cancel'
import type { JobContext } from '../jobs/manager'
import type { Session } from '../session'
import type { JoinResult } from '../team/join'
import { type PublishResult, type TeamProgress, publishProject } from '../team/publish'
import { memberAddress } from '../team/server'
import { type TaskThread, runTask } from './threadTasks'
import { isPending, setWithdrawn } from '../db/queries/team/state'
import { revertAsNeeded } from './ratingJobs'
import { takeBackImport } from '../team/takeBack'
import { changeSetById } from '../db/queries/changes/history'

/** A member's way in: the server address (no password) the project keeps, and the password. */
export interface TeamLogin {
  /** The URL as given, with the password in it for this run only. */
  url: string
  /** The address the project keeps (without the password), naming the member. */
  server: string
  password: string | null
}

/**
 * The address and password the app connects with. The desktop app takes a typed password and
 * keeps it encrypted by the keychain; serve mode follows libpq's conventions and takes none, so a
 * password never crosses its HTTP API to be held in a browser tab.
 */
export function teamLogin(
  session: Session,
  given: { server: string; name: string; password?: string | undefined },
): TeamLogin {
  const { address, password: inUrl } = memberAddress(given.server, given.name)
  if (given.password !== undefined && !session.options.teamPasswords) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'team-password-here',
      message:
        'Here the password comes from PGPASSWORD or a line in ~/.pgpass on the machine running Winnow; leave it empty.',
      field: 'password',
    })
  }
  const password = given.password ?? inUrl
  const url = new URL(address.url)
  if (password !== null) url.password = encodeURIComponent(password)
  return { url: url.href, server: address.url, password }
}

/** Keeps a password that has just worked, where the app keeps them (the desktop app only). */
export function rememberPassword(session: Session, login: TeamLogin): void {
  if (login.password !== null) session.options.teamPasswords?.save(login.server, login.password)
}

/** The job's steps as progress, and the place where a cancel stops a join. */
function reporter(job: JobContext): TeamProgress {
  let last = ''
  return (step, done, total) => {
    if (job.signal.aborted) throw new CancelledError('Cancelled; no project file was made.')
    job.report({ done, total, detail: step, newStep: step !== last })
    last = step
  }
}

/** An error as the page may see it: the password, if it appears, masked. */
function withoutPassword(error: unknown, password: string | null): unknown {
  if (password === null) return error
  if (error instanceof UserError) {
    return new UserError({ ...error.info, message: scrubPassword(error.info.message, password) })
  }
  if (error instanceof Error) return new Error(scrubPassword(error.message, password))
  return error
}

/**
 * Publishes the open project (File ▸ Share with a team…) as a job; once published, the project
 * is opened again as the lead's replica, live.
 */
export async function runShareJob(session: Session, login: TeamLogin, name: string) {
  const { path } = session.project()
  const { result } = session.jobs.launch<PublishResult>({
    kind: 'team',
    title: 'Sharing the project with the team',
    unit: 'rows',
    run: async (job) => {
      try {
        const published = await publishProject(path, { server: login.url, name }, reporter(job))
        rememberPassword(session, login)
        return published
      } catch (error) {
        throw withoutPassword(error, login.password)
      }
    },
    summary: (r) => `Shared with ${r.server} as ${r.member} (lead)`,
  })
  const published = await result
  session.open(path)
  return published
}

/**
 * Joins a team into a new project file as a job with progress and cancel, on the task thread
 * (`thread`); a join that fails or is cancelled leaves no file. Once made, the app opens it.
 */
export function startJoinJob(
  session: Session,
  path: string,
  login: TeamLogin,
  name: string,
  thread: TaskThread = 'auto',
): JobProgress {
  if (existsSync(path)) {
    throw new UserError({
      type: 'conflict',
      code: 'file-exists',
      message: `${path} already exists; a team is joined into a new file.`,
      file: path,
      field: 'path',
    })
  }
  return session.jobs.start<JoinResult>({
    kind: 'team',
    title: `Joining the team at ${login.server}`,
    unit: 'rows',
    run: async (job) => {
      try {
        // On the task thread: writing a million rows would hold this one (the window) for a minute.
        const joined = await runTask('join', { path, server: login.url, name }, job, thread)
        // Cancelled after the last step reported: the file is made, so it goes now.
        if (job.signal.aborted) {
          for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true })
          throw new CancelledError('Cancelled; no project file was made.')
        }
        rememberPassword(session, login)
        session.open(path)
        return joined
      } catch (error) {
        throw withoutPassword(error, login.password)
      }
    },
    summary: (r) =>
      `Joined: ${r.submissions.toLocaleString('en-US')} submissions, ${r.changeSets.toLocaleString('en-US')} change sets`,
    cancel: { label: 'Cancel', hint: 'Nothing is kept: the new project file is removed' },
  })
}

/**
 * Reverts, here only, the change set the team's server refused: it is marked withdrawn first, so
 * neither it nor its revert is ever pushed, then reverted through the usual revert (a job when it
 * is large); the pending work after it pushes at once. A revert that fails leaves it as it was.
 */
export async function withdrawRefused(
  session: Session,
  changeSetId: number,
  author: string,
): Promise<void> {
  const { db } = session.project()
  const status = session.teamStatus()
  if (status?.refused?.changeSetId !== changeSetId || !isPending(db, changeSetId)) {
    throw new UserError({
      type: 'conflict',
      code: 'not-refused',
      message: `Change set ${changeSetId} is not one the team's server refused; revert it from History instead.`,
      field: 'changeSetId',
    })
  }
  const reason = status.problem ?? 'refused by the team’s server'
  if (changeSetById(db, changeSetId)?.kind === 'import') {
    // An import only added what it made: taking it back removes that, as no revert would.
    db.transaction(() => takeBackImport(db, changeSetId, reason)).immediate()
    session.dataChanged()
  } else {
    db.transaction(() => setWithdrawn(db, changeSetId, reason)).immediate()
    try {
      await revertAsNeeded(session, changeSetId, author)
    } catch (error) {
      db.transaction(() => setWithdrawn(db, changeSetId, null)).immediate()
      throw error
    }
  }
  const live = session.teamLive()
  live?.changedHere()
  // The status answered is the one after the push it lets go, not one an event has overtaken.
  await live?.settled()
}
