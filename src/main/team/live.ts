import { UserError } from '../../shared/contract/errors'
import type { TeamLiveStatus } from '../../shared/contract/team'
import type { Db } from '../db/connection'
import { type TeamState, pendingCount } from '../db/queries/team/state'
import {
  connectServer,
  isConnectionError,
  parseServerUrl,
  scrubPassword,
} from '../db/server/connect'
import { listenForPushes } from '../db/server/log'
import { LIVE_APPLICATION, announcePresence, membersWorking } from '../db/server/presence'
import { type TeamServer, closeServer } from './server'
import { PushRefused, askMember, pull, requireTeam, syncWith } from './sync'
import { teamStep } from './steps'
import { type UpgradeResult, upgradeWith } from './upgrade'

/** What the live link needs from whoever has the project open (the app's session). */
export interface LiveHooks {
  /** Runs work in the project's write turn, after any import or long write already started. */
  inTurn<R>(work: () => Promise<R>): Promise<R>
  /** Other members' change sets were applied: the page reads again. */
  pulled(): void
  /** The status changed. */
  status(status: TeamLiveStatus): void
  /** The member's password kept by the app, or null for libpq's conventions. */
  password: string | null
}

const RETRY_FIRST_MS = 500
const RETRY_MAX_MS = 5_000
/**
 * How often who else is working is asked, pending work written by others (the CLI) noticed, and
 * the server's schema and the member's role checked.
 */
const PRESENCE_MS = 5_000
/** An exchange within this long of the last check of schema and role does not ask again. */
const CHECKED_MS = 2 * PRESENCE_MS + 1_000

/**
 * A team project open in the app: one connection that LISTENs for others' pushes and pulls
 * within a moment of each, pushes local writes soon after they are made, and while the server
 * is away keeps reconnecting with growing pauses; the work waits in the project file meanwhile.
 * Every exchange goes through `syncWith`, as `winnow team sync` does, in the project's write turn.
 */
export class TeamLive {
  private server: TeamServer | null = null
  private connecting = false
  private stopped = false
  private retryMs = RETRY_FIRST_MS
  private retryTimer: NodeJS.Timeout | null = null
  private syncTimer: NodeJS.Timeout | null = null
  private readonly presenceTimer: NodeJS.Timeout
  private running: Promise<void> | null = null
  /** The connection's queries, one flow at a time (node-postgres does not interleave them). */
  private clientTurn: Promise<unknown> = Promise.resolve()
  private again = false
  /** When the server's schema and the member's role were last checked on this connection. */
  private checkedAt = 0
  private state: TeamLiveStatus
  private readonly team: TeamState

  constructor(
    private readonly db: Db,
    private readonly hooks: LiveHooks,
  ) {
    this.team = requireTeam(db)
    this.state = {
      server: this.team.server,
      member: this.team.member,
      role: this.team.role,
      connection: 'connecting',
      pending: pendingCount(db),
      lastContact: null,
      others: [],
      problem: null,
      refused: null,
      upgrade: false,
    }
    this.presenceTimer = setInterval(() => void this.lookAround(), PRESENCE_MS)
    this.presenceTimer.unref()
    void this.connect()
  }

  status(): TeamLiveStatus {
    return { ...this.state, others: [...this.state.others] }
  }

  /**
   * A write was made on this replica: it shows as waiting and is pushed at once; writes made
   * while an exchange runs go together in the next one.
   */
  changedHere(): void {
    if (this.stopped || !this.db.open) return
    this.update({ pending: pendingCount(this.db) })
    this.schedule(0)
  }

  /** Resolves once every exchange under way has finished; pushes and pulls no more. */
  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.presenceTimer)
    if (this.retryTimer) clearTimeout(this.retryTimer)
    if (this.syncTimer) clearTimeout(this.syncTimer)
    await this.running?.catch(() => undefined)
    const server = this.server
    this.server = null
    if (server) await closeServer(server)
  }

  /** Whether an exchange is due or under way (the app's checkpoint of its file waits). */
  busy(): boolean {
    return this.syncTimer !== null || this.running !== null
  }

  /** Resolves when no exchange is due or under way (tests and benchmarks wait on it). */
  async settled(): Promise<void> {
    while (this.syncTimer !== null || this.running !== null) {
      await (this.running ?? new Promise((resolve) => setTimeout(resolve, 20)))
    }
  }

  private async connect(): Promise<void> {
    if (this.stopped || this.server || this.connecting) return
    this.connecting = true
    const { password, ...address } = parseServerUrl(this.team.server)
    const secret = password ?? this.hooks.password
    try {
      const client = await connectServer(address, secret, LIVE_APPLICATION)
      const server: TeamServer = { client, address }
      if (this.stopped) {
        await closeServer(server)
        return
      }
      client.on('error', () => this.lost(server))
      client.on('end', () => this.lost(server))
      await listenForPushes(client, () => {
        teamStep(this.db.name, 'heard')
        this.schedule(0)
      })
      this.server = server
      this.checkedAt = 0
      this.retryMs = RETRY_FIRST_MS
      this.update({ connection: 'online', lastContact: Date.now() })
      this.schedule(0)
      // A connection lost meanwhile says so through its events; presence is no reason to fail.
      await this.onClient(() => announcePresence(client, () => void this.lookAround())).catch(
        () => undefined,
      )
    } catch (error) {
      this.update({
        connection: 'offline',
        others: [],
        problem: isConnectionError(error) ? null : this.describe(error, secret),
      })
      this.retryLater()
    } finally {
      this.connecting = false
    }
  }

  private lost(server: TeamServer): void {
    if (this.server !== server) return
    this.server = null
    void closeServer(server)
    this.update({ connection: 'offline', others: [] })
    this.retryLater()
  }

  private retryLater(): void {
    if (this.stopped || this.retryTimer) return
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      void this.connect()
    }, this.retryMs)
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS)
  }

  /** An exchange after `delay` ms; an earlier one already due stays. */
  private schedule(delay: number): void {
    if (this.stopped) return
    if (this.syncTimer) {
      if (delay > 0) return
      clearTimeout(this.syncTimer)
    }
    this.syncTimer = setTimeout(() => {
      this.syncTimer = null
      this.exchange()
    }, delay)
  }

  /** One exchange at a time; a reason for another met meanwhile runs one more after it. */
  private exchange(): void {
    if (this.running) {
      this.again = true
      return
    }
    this.running = (async () => {
      do {
        this.again = false
        await this.exchangeOnce()
      } while (this.again && !this.stopped)
    })().finally(() => {
      this.running = null
    })
  }

  private async exchangeOnce(): Promise<void> {
    const server = this.server
    // Offline: the reconnection pushes and pulls when it succeeds.
    if (!server || this.stopped) return
    try {
      const { problem, refused, upgrade } = await this.hooks.inTurn(() =>
        this.onClient(() => this.pushAndPull(server)),
      )
      if (this.stopped || !this.db.open) return
      this.update({
        connection: 'online',
        lastContact: Date.now(),
        pending: pendingCount(this.db),
        problem,
        refused,
        upgrade,
      })
    } catch (error) {
      if (isConnectionError(error)) this.lost(server)
      else if (!this.stopped) this.update({ problem: this.describe(error, this.hooks.password) })
    }
  }

  /**
   * `winnow team sync`'s push and pull. A push the server refuses holds back the pending work,
   * but what others pushed still arrives.
   */
  private async pushAndPull(
    server: TeamServer,
  ): Promise<Pick<TeamLiveStatus, 'problem' | 'refused' | 'upgrade'>> {
    if (this.stopped || !this.db.open) return { problem: null, refused: null, upgrade: false }
    // The page reads again as soon as others' work is applied, not after the claims' refresh.
    const told = (pulled: number): void => {
      if (pulled > 0 && !this.stopped && this.db.open) this.hooks.pulled()
    }
    try {
      // The schema and the role are asked again every few seconds, not on every push heard of.
      const checked = Date.now() - this.checkedAt < CHECKED_MS
      const startedAt = Date.now()
      await syncWith(this.db, server, this.team.member, { checked, pulled: told })
      if (!checked) this.checkedAt = startedAt
      return { problem: null, refused: null, upgrade: false }
    } catch (error) {
      if (isConnectionError(error) || !(error instanceof UserError)) throw error
      if (error.info.code === 'not-a-member') throw error
      this.checkedAt = 0
      // An older server is offered to a lead to upgrade; nothing is pulled through its schema.
      if (error.info.code === 'server-too-old') {
        return { problem: error.message, refused: null, upgrade: this.team.role === 'lead' }
      }
      told((await pull(this.db, server)).pulled)
      const refused =
        error instanceof PushRefused
          ? { changeSetId: error.changeSet.id, description: error.changeSet.description }
          : null
      return { problem: error.message, refused, upgrade: false }
    }
  }

  /** Upgrades the team's server over this connection (a lead's Upgrade), then exchanges. */
  async upgradeServer(): Promise<UpgradeResult> {
    const server = this.server
    if (!server) {
      throw new UserError({
        type: 'conflict',
        code: 'offline',
        message: `The team's server ${this.team.server} cannot be reached now; upgrade it when it is back.`,
      })
    }
    const result = await this.hooks.inTurn(() => this.onClient(() => upgradeWith(this.db, server)))
    this.update({ upgrade: false, problem: null })
    this.schedule(0)
    return result
  }

  /** Who else is working; also notices work written into the file by another program. */
  private async lookAround(): Promise<void> {
    if (this.stopped || !this.db.open) return
    const pending = pendingCount(this.db)
    if (pending !== this.state.pending) this.update({ pending })
    const server = this.server
    if (!server) return
    if (pending > 0) this.schedule(0)
    try {
      const others = await this.onClient(() => membersWorking(server.client))
      if (!this.stopped) this.update({ others, lastContact: Date.now() })
    } catch (error) {
      if (isConnectionError(error)) this.lost(server)
      return
    }
    // Checked here, between exchanges, so a push made meanwhile goes without asking first.
    const checkedAt = Date.now()
    try {
      const role = await this.onClient(() => askMember(server, this.team.member, this.team.role))
      if (this.stopped || !this.db.open) return
      if (role !== null && role === requireTeam(this.db).role) {
        this.checkedAt = checkedAt
        return
      }
    } catch (error) {
      if (isConnectionError(error)) {
        this.lost(server)
        return
      }
    }
    // A role changed (or a check failed): the next exchange checks in full and says why.
    this.checkedAt = 0
    this.schedule(0)
  }

  private onClient<R>(work: () => Promise<R>): Promise<R> {
    const run = this.clientTurn.then(work)
    this.clientTurn = run.catch(() => undefined)
    return run
  }

  private describe(error: unknown, password: string | null): string {
    const message = error instanceof Error ? error.message : String(error)
    return scrubPassword(message, password)
  }

  private update(change: Partial<TeamLiveStatus>): void {
    const next = { ...this.state, ...change }
    // lastContact alone moves every few seconds; the page hears of it with the next real change.
    const shown = (s: TeamLiveStatus): string => JSON.stringify({ ...s, lastContact: null })
    const changed = shown(next) !== shown(this.state)
    this.state = next
    if (changed) this.hooks.status(this.status())
  }
}
