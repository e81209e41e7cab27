import { randomBytes } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import type { EventName, EventPayload } from '../shared/contract'
import { UserError } from '../shared/contract/errors'
import type { FileRef, PickedFile } from '../shared/contract/imports'
import type { ProjectInfo, RecentProject } from '../shared/contract/project'
import type { CollectionId } from '../shared/pages'
import { toErrorInfo } from './api/errors'
import type { Db } from './db/connection'
import { openProject } from './db/connection'
import { heldCollections } from './db/queries/collections'
import { LATEST_VERSION } from './db/migrations'
import { resumeSearchIndexing } from './search/indexJob'
import { stopGridCounts } from './review/gridCounts'
import { JobManager } from './jobs/manager'
import type { SecretStore } from './mturk/credentials'
import type { TeamLiveStatus } from '../shared/contract/team'
import { isTeamProject, teamState } from './db/queries/team/state'
import { TeamLive } from './team/live'
import type { TeamPasswords } from './team/passwords'
import type { UpgradeResult } from './team/upgrade'

export type Emit = <E extends EventName>(name: E, payload: EventPayload<E>) => void

export interface OpenProject {
  path: string
  db: Db
  isDemo: boolean
  /** The collections beside GLUCOSE it holds: found on opening, again after an import. */
  collections: CollectionId[]
}

const CHECKPOINT_INTERVAL_MS = 2_000
/** Long enough for a pull's or an indexing step's short commits, short enough not to hang the app. */
const APP_LOCK_WAIT_MS = 500

export interface SessionOptions {
  /** Where the demo project lives (created on first use). */
  demoPath?: string
  /** Recently opened projects, kept by the app outside any project file. */
  recents?: { list(): RecentProject[]; add(project: ProjectInfo): void }
  /** Where the MTurk access key pair is kept (never in a project file); default: the environment. */
  secrets?: SecretStore
  /** Where team members' passwords are kept (the desktop app's keychain); default: libpq's ways. */
  teamPasswords?: TeamPasswords
}

/**
 * What one window (or one serve-mode server) has open: the project, its jobs, and the files the
 * page may name. Handlers reach everything through it.
 */
export class Session {
  private current: OpenProject | null = null
  private checkpoints: NodeJS.Timeout | null = null
  /** The live link to the team's server while a team project is open in the app. */
  private live: TeamLive | null = null
  readonly jobs: JobManager
  /** Paths handed out by a dialog or a drop, with the name shown: the only files the page may name. */
  private readonly grantedFiles = new Map<string, string>()
  private readonly uploads = new Map<string, { path: string; name: string }>()

  constructor(
    readonly mode: 'electron' | 'serve' | 'cli',
    readonly emit: Emit,
    readonly options: SessionOptions = {},
  ) {
    this.jobs = new JobManager((progress) => emit('job.progress', progress), toErrorInfo)
  }

  open(path: string, { create = false, isDemo = false } = {}): ProjectInfo {
    if (!create && !existsSync(path)) {
      throw new UserError({
        type: 'not-found',
        code: 'no-such-project',
        message: `No project file at ${path}.`,
        file: path,
      })
    }
    // The app's connection runs on the main thread, where a wait for a lock freezes the window: a
    // change made while an import holds the project fails at once as "busy" instead.
    const db = openProject(path, {
      create,
      ...(this.mode === 'cli' ? {} : { lockWaitMs: APP_LOCK_WAIT_MS }),
    })
    this.close()
    this.current = { path, db, isDemo, collections: heldCollections(db) }
    if (this.mode !== 'cli') this.checkpointWhenIdle(db)
    if (this.mode !== 'cli' && isTeamProject(db)) this.live = this.goLive(db)
    const info = this.info()
    if (info) {
      if (!isDemo) this.options.recents?.add(info)
      this.emit('project.changed', { project: info, reason: 'opened' })
      if (this.mode !== 'cli') resumeSearchIndexing(this.jobs, db)
      this.emit('team.status', this.teamStatus())
    }
    return info as ProjectInfo
  }

  close(): void {
    if (this.checkpoints) clearInterval(this.checkpoints)
    this.checkpoints = null
    void this.live?.stop()
    this.live = null
    if (this.current) stopGridCounts(this.current.db)
    this.current?.db.close()
    this.current = null
  }

  /**
   * An interactive write (a rating change) should not pay for copying the WAL into the file:
   * the app's connection checkpoints on a timer instead of at commit. Other connections (the
   * import worker, the command line) keep SQLite's automatic checkpoints.
   */
  private checkpointWhenIdle(db: Db): void {
    db.pragma('wal_autocheckpoint = 0')
    this.checkpoints = setInterval(() => {
      // A team exchange due or under way goes first: the checkpoint of a large write would hold
      // the thread the push waits for.
      if (db.open && !db.inTransaction && !this.live?.busy()) db.pragma('wal_checkpoint(PASSIVE)')
    }, CHECKPOINT_INTERVAL_MS)
    this.checkpoints.unref()
  }

  /** Hears and pulls other members' pushes, pushes this replica's writes, says how it stands. */
  private goLive(db: Db): TeamLive {
    const server = teamState(db)?.server ?? null
    return new TeamLive(db, {
      inTurn: (work) => this.jobs.inTurn(work),
      pulled: () => {
        // Others' change sets may have brought a collection's first data: its page shows.
        if (this.current) this.current.collections = heldCollections(this.current.db)
        this.emit('project.changed', { project: this.info(), reason: 'data' })
        this.emit('history.changed', {})
      },
      status: (status) => this.emit('team.status', status),
      password: server === null ? null : (this.options.teamPasswords?.read(server) ?? null),
    })
  }

  /** The open team project's status; null when the open project is not a team's. */
  teamStatus(): TeamLiveStatus | null {
    return this.live?.status() ?? null
  }

  /** A lead's upgrade of the open team project's server (the status bar's Upgrade). */
  async upgradeTeamServer(): Promise<UpgradeResult> {
    if (!this.live) {
      throw new UserError({
        type: 'conflict',
        code: 'not-a-team-project',
        message: 'The open project is not a team project.',
      })
    }
    return await this.live.upgradeServer()
  }

  /** The open team project's live link (tests and benchmarks wait on it). */
  teamLive(): TeamLive | null {
    return this.live
  }

  info(): ProjectInfo | null {
    if (!this.current) return null
    return {
      path: this.current.path,
      name: basename(this.current.path).replace(/\.winnow$/, ''),
      isDemo: this.current.isDemo,
      schemaVersion: LATEST_VERSION,
      collections: [...this.current.collections],
    }
  }

  /** The open project, or a clear error when there is none. */
  project(): OpenProject {
    if (!this.current) {
      throw new UserError({
        type: 'not-found',
        code: 'no-project',
        message: 'No project is open. Open or create one first.',
      })
    }
    return this.current
  }

  /**
   * Tells the page the project's data changed. `collections`: the change may have added the
   * first data of a collection (an import, a question set written in the app), so they are
   * looked up again; other changes keep what the project was found to hold.
   */
  dataChanged({ collections = false }: { collections?: boolean } = {}): void {
    if (collections && this.current) this.current.collections = heldCollections(this.current.db)
    this.emit('project.changed', { project: this.info(), reason: 'data' })
    this.live?.changedHere()
  }

  /** A change set was written that leaves ratings as they were: History and Undo read again. */
  historyChanged(): void {
    this.emit('history.changed', {})
    this.live?.changedHere()
  }

  /** Lets the page name a file the user chose (dialog, drop) or uploaded (serve mode). */
  grantFile(path: string, name = basename(path)): PickedFile {
    const bytes = statSync(path).size
    this.grantedFiles.set(path, name)
    return { ref: { kind: 'path', path }, name, bytes }
  }

  registerUpload(path: string, name: string): PickedFile {
    const id = randomBytes(16).toString('hex')
    this.uploads.set(id, { path, name })
    return { ref: { kind: 'upload', id }, name, bytes: statSync(path).size }
  }

  /** The file behind a reference from the page; refuses anything the user did not choose. */
  resolveFile(ref: FileRef): { path: string; name: string } {
    if (ref.kind === 'upload') {
      const upload = this.uploads.get(ref.id)
      if (upload) return upload
    } else {
      const name = this.grantedFiles.get(ref.path)
      if (name !== undefined) return { path: ref.path, name }
    }
    throw new UserError({
      type: 'invalid-argument',
      code: 'file-not-granted',
      message: 'That file was not chosen in this session; pick or drop it again.',
    })
  }
}
