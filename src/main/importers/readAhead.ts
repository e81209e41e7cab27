import { MessageChannel, type Worker, receiveMessageOnPort } from 'node:worker_threads'
import { getDefaultNativeBinding } from '../db/connection'
import { type ThreadScript, startThread, threadScript } from '../jobs/threadScript'
import { InputError } from './errors'
import {
  type ReadAheadData,
  type ReadAheadFile,
  type ReadAheadMessage,
  type ReadFailure,
  SLOTS,
  Slot,
} from './readAheadProtocol'
import { decodeRows } from './rowBatch'
import type { ImportedSubmission, ImportWarning } from './types'

/** How long the thread may take to load before the import gives up on it. */
const STARTUP_MS = 60_000

/** The rows of one file as an import takes them, read on this thread or ahead on another. */
export interface FileRows {
  rows(): Iterable<ImportedSubmission>
  bytesRead(): number
  /** Once `rows()` is done: the file's SHA-256 and the warnings its rows gave. */
  sha256(): string
  warnings(): ImportWarning[]
}

/** The read-ahead thread's script: built, or its source through tsx (tests run the sources). */
function script(): ThreadScript | null {
  return threadScript(import.meta.url, 'read-ahead-worker')
}

export function canReadAhead(): boolean {
  return script() !== null
}

/**
 * Reads, maps and checks the rows of the files on a second thread while the import writes the
 * rows before them: the import's loop is synchronous (one transaction), so it takes messages with
 * `receiveMessageOnPort` and sleeps on shared counters in between. Bad input arrives as the same
 * `InputError` the file read here would give. `close()` stops the thread; call it in any case.
 */
export class ReadAhead {
  private readonly worker: Worker
  private readonly state = new Int32Array(new SharedArrayBuffer(SLOTS * 4))
  private readonly port: MessageChannel['port1']
  private readonly started = Date.now()
  private taken = 0

  constructor(private readonly files: readonly ReadAheadFile[]) {
    const found = script()
    if (found === null) throw new Error('the read-ahead thread is not built')
    const channel = new MessageChannel()
    this.port = channel.port1
    const data: ReadAheadData = {
      files: [...files],
      state: this.state,
      port: channel.port2,
      nativeBinding: getDefaultNativeBinding() ?? null,
    }
    this.worker = startThread(found, {
      workerData: data,
      transferList: [channel.port2],
    })
    this.worker.unref()
  }

  /** File `index`'s rows; files must be taken in order, each to its end. */
  file(index: number): FileRows {
    let bytesRead = 0
    let end: Extract<ReadAheadMessage, { type: 'end' }> | null = null
    const path = this.files[index]?.path ?? ''
    const next = (): ReadAheadMessage => this.next()
    return {
      *rows() {
        for (;;) {
          const message = next()
          if (message.type === 'failed') throw errorOf(message.failure)
          if (message.file !== index) throw new Error(`${path}: rows arrived out of order`)
          if (message.type === 'end') {
            end = message
            return
          }
          bytesRead = message.bytesRead
          yield* decodeRows(message.rows)
        }
      },
      bytesRead: () => bytesRead,
      sha256: () => {
        if (end === null) throw new Error(`${path}: not read to the end`)
        return end.sha256
      },
      warnings: () => end?.warnings ?? [],
    }
  }

  close(): void {
    Atomics.store(this.state, Slot.stop, 1)
    Atomics.notify(this.state, Slot.taken)
    this.port.close()
    void this.worker.terminate()
  }

  private next(): ReadAheadMessage {
    for (;;) {
      const received = receiveMessageOnPort(this.port)
      if (received !== undefined) {
        this.taken++
        Atomics.store(this.state, Slot.taken, this.taken)
        Atomics.notify(this.state, Slot.taken)
        return received.message as ReadAheadMessage
      }
      const posted = Atomics.load(this.state, Slot.posted)
      if (posted > this.taken) continue
      if (Atomics.load(this.state, Slot.done) === 1) {
        throw new Error('the read-ahead thread stopped before the end of the files')
      }
      if (Atomics.load(this.state, Slot.started) === 0 && Date.now() - this.started > STARTUP_MS) {
        throw new Error('the read-ahead thread did not start')
      }
      Atomics.wait(this.state, Slot.posted, posted, 100)
    }
  }
}

function errorOf(failure: ReadFailure): Error {
  if (failure.kind === 'other') return new Error(failure.message)
  return new InputError(failure.code, failure.reason, {
    path: failure.path,
    line: failure.line,
    column: failure.column,
    ...(failure.field !== undefined ? { field: failure.field } : {}),
  })
}
