import { workerData } from 'node:worker_threads'
import { setDefaultNativeBinding } from '../db/connection'
import { InputError } from './errors'
import { openGlucoseFile } from './glucose/open'
import {
  MAX_AHEAD,
  ROWS_PER_MESSAGE,
  type ReadAheadData,
  type ReadAheadMessage,
  type ReadFailure,
  Slot,
} from './readAheadProtocol'
import { encodeRows } from './rowBatch'
import type { ImportedSubmission } from './types'

/**
 * The read-ahead thread of an import: reads, maps and checks the rows of each file in turn and
 * posts them in batches, at most `MAX_AHEAD` messages ahead of the import that writes them.
 */

class Stopped extends Error {}

function main(data: ReadAheadData): void {
  const { state, port } = data
  setDefaultNativeBinding(data.nativeBinding ?? undefined)
  Atomics.store(state, Slot.started, 1)
  Atomics.notify(state, Slot.posted)
  const post = (message: ReadAheadMessage): void => {
    for (;;) {
      if (Atomics.load(state, Slot.stop) === 1) throw new Stopped()
      const taken = Atomics.load(state, Slot.taken)
      if (Atomics.load(state, Slot.posted) - taken < MAX_AHEAD) break
      Atomics.wait(state, Slot.taken, taken, 100)
    }
    port.postMessage(message)
    Atomics.add(state, Slot.posted, 1)
    Atomics.notify(state, Slot.posted)
  }
  try {
    data.files.forEach((file, index) => {
      const glucose = openGlucoseFile(file.path, {
        format: file.format,
        ...(file.year !== undefined ? { year: file.year } : {}),
        csv: { sha256: true },
      })
      let rows: ImportedSubmission[] = []
      for (const row of glucose.records()) {
        rows.push(row)
        if (rows.length === ROWS_PER_MESSAGE) {
          post({
            type: 'rows',
            file: index,
            rows: encodeRows(rows),
            bytesRead: glucose.reader.bytesRead(),
          })
          rows = []
        }
      }
      if (rows.length > 0) {
        post({
          type: 'rows',
          file: index,
          rows: encodeRows(rows),
          bytesRead: glucose.reader.bytesRead(),
        })
      }
      post({
        type: 'end',
        file: index,
        sha256: glucose.reader.sha256(),
        warnings: glucose.warnings,
      })
    })
  } catch (error) {
    if (!(error instanceof Stopped)) {
      try {
        post({ type: 'failed', failure: failureOf(error) })
      } catch (stopped) {
        if (!(stopped instanceof Stopped)) throw stopped
      }
    }
  } finally {
    Atomics.store(state, Slot.done, 1)
    Atomics.notify(state, Slot.posted)
  }
}

function failureOf(error: unknown): ReadFailure {
  if (error instanceof InputError) {
    return {
      kind: 'input',
      code: error.code,
      reason: error.reason,
      path: error.path,
      line: error.line,
      column: error.column,
      ...(error.field !== undefined ? { field: error.field } : {}),
    }
  }
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) }
}

main(workerData as ReadAheadData)
