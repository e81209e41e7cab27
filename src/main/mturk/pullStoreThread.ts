/**
 * Where a pull's pages are parsed and stored: on a second thread for large pulls, so the pull's
 * thread only handles HTTP and keeps requests flowing, or on the pull's own thread (small pulls,
 * projects in memory). Both commit the same groups with the same checkpoints (PullStore).
 */
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads'
import { UserError } from '../../shared/contract/errors'
import type { Db } from '../db/connection'
import { getDefaultNativeBinding } from '../db/connection'
import { type ThreadScript, startThread, threadScript } from '../jobs/threadScript'
import { type CommitResult, PullStore, type PullTiming, type StorePage } from './pullStore'
import type { FromStoreThread, PullStoreData, ToStoreThread } from './pullStoreProtocol'

/** Assignments the pull may post ahead of the store thread: a commit group's worth. */
const AHEAD_ASSIGNMENTS = 2_000

export interface PageStore {
  /** Queues a page; resolves once the next one may come. */
  add(page: StorePage, at: number): Promise<void>
  /** Commits the queue if it is due (the thread decides this itself). */
  commitIfDue(): void
  /** Commits everything queued. Once a failure was thrown, flushing adds nothing and says nothing. */
  flush(at: number): Promise<void>
  close(): void
}

export interface PageStoreEvents {
  onCommit(result: CommitResult): void
  timing?: PullTiming
}

export type PageStoreOptions = Omit<PullStoreData, 'dbPath' | 'nativeBinding' | 'input'>

/** The store thread's script: built, or its source through tsx (tests run the sources). */
function script(): ThreadScript | null {
  return threadScript(import.meta.url, 'pull-store-worker')
}

/** A store thread needs the project as a file it can open a second time. */
export function canStoreOnThread(db: Db): boolean {
  return !db.memory && script() !== null
}

/** Parses and stores the pull's pages on a store thread (`onThread`), or on the pull's own. */
export function openPageStore(
  db: Db,
  options: PageStoreOptions,
  events: PageStoreEvents,
  onThread: boolean,
): PageStore {
  if (!onThread) return new StoreHere(db, options, events)
  return new StoreThread(
    { ...options, dbPath: db.name, nativeBinding: getDefaultNativeBinding() ?? null },
    events,
  )
}

class StoreHere implements PageStore {
  private readonly store: PullStore
  private at = 0

  constructor(
    db: Db,
    { pullId, ...options }: PageStoreOptions,
    private readonly events: PageStoreEvents,
  ) {
    this.store = new PullStore(db, pullId, {
      ...options,
      now: () => this.at,
      ...(events.timing ? { timing: events.timing } : {}),
    })
  }

  add(page: StorePage, at: number): Promise<void> {
    this.at = at
    this.store.take(page)
    return Promise.resolve()
  }

  commitIfDue(): void {
    if (this.store.due()) this.commit()
  }

  flush(at: number): Promise<void> {
    this.at = at
    this.commit()
    return Promise.resolve()
  }

  close(): void {}

  private commit(): void {
    const result = this.store.commit()
    if (result.pages > 0) this.events.onCommit(result)
  }
}

/**
 * A store thread: the pull's thread posts pages to it and hears from it what was taken and
 * committed.
 */
class StoreThread implements PageStore {
  private readonly storer: Worker
  /** Where the pull posts its pages: the store thread's input. */
  private readonly pages: MessagePort
  /** Assignments posted and not yet taken by the store thread. */
  private ahead = 0
  private failure: Error | null = null
  private failureThrown = false
  private finished = false
  private closed = false
  private wake: (() => void) | null = null

  constructor(
    data: Omit<PullStoreData, 'input'>,
    private readonly events: PageStoreEvents,
  ) {
    const found = script()
    if (found === null) throw new Error('the thread script pull-store-worker is not built')
    const { port1, port2 } = new MessageChannel()
    this.pages = port1
    this.storer = startThread(found, {
      workerData: { ...data, input: port2 },
      transferList: [port2],
    })
    this.storer.on('message', (message: FromStoreThread) => this.receive(message))
    this.storer.on('error', (error) => this.fail(error))
    this.storer.on('exit', () => {
      if (!this.finished) this.fail(new Error('the store thread of the pull stopped'))
    })
  }

  async add(page: StorePage, at: number): Promise<void> {
    this.check()
    const { hit, assignments, nextToken, gone } = page
    const message: ToStoreThread = {
      type: 'page',
      page: { hit, assignments, nextToken, ...(gone ? { gone } : {}) },
      at,
    }
    this.pages.postMessage(message)
    this.ahead += assignments.length
    while (this.ahead > AHEAD_ASSIGNMENTS && this.failure === null) await this.changed()
    this.check()
  }

  commitIfDue(): void {}

  async flush(at: number): Promise<void> {
    if (this.finished || this.failureThrown) return
    this.check()
    this.pages.postMessage({ type: 'finish', at } satisfies ToStoreThread)
    while (!this.finished && this.failure === null) await this.changed()
    this.check()
  }

  close(): void {
    this.closed = true
    this.pages.close()
    void this.storer.terminate()
  }

  private receive(message: FromStoreThread): void {
    switch (message.type) {
      case 'taken':
        this.ahead -= message.assignments
        break
      case 'committed':
        if (message.result.pages > 0) this.events.onCommit(message.result)
        break
      case 'finished':
        this.finished = true
        if (this.events.timing) {
          this.events.timing.parseMs += message.timing.parseMs
          this.events.timing.storeMs += message.timing.storeMs
        }
        break
      case 'failed':
        this.fail(
          message.error.type === 'internal'
            ? new Error(message.error.message)
            : new UserError(message.error),
        )
        break
    }
    this.notify()
  }

  private fail(error: Error): void {
    if (this.closed || this.failure !== null) return
    this.failure = error
    this.notify()
  }

  private check(): void {
    if (this.failure === null) return
    this.failureThrown = true
    throw this.failure
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve))
  }

  private notify(): void {
    const wake = this.wake
    this.wake = null
    wake?.()
  }
}
