import { UserError } from '../../shared/contract/errors'
import { type Db, getDefaultNativeBinding } from '../db/connection'
import { startThread, threadScript } from '../jobs/threadScript'
import { type Evaluation, type PolicyInput, evaluate, limitsOf } from './evaluation'
import type { PolicyWorkerData, PolicyWorkerMessage } from './policy-worker'
import { PolicyError } from './sandbox'

/**
 * Runs a policy's script on a thread of its own. The engine stops a script's own loops at the
 * time limit, but not one long built-in call (an `indexOf` over 2^34 indexes): the thread is then
 * terminated a moment after the limit. The main thread stays free meanwhile.
 */

/** What the engine gets before the thread itself is stopped. */
const GRACE_MS = 1_000

/**
 * Where scripts run: `auto` on the thread when the app is built, else in this thread (tests and
 * benchmarks run the sources, and loading them on a thread through tsx costs far more than most
 * policies take to run); `thread` always on the thread, loading the sources through tsx if need be.
 */
export const policyThread: { mode: 'auto' | 'thread' } = { mode: 'auto' }

/** Evaluates the policy on its thread, or in this one for a database that is not a file. */
export async function evaluateIsolated(db: Db, input: PolicyInput): Promise<Evaluation> {
  const found = threadScript(import.meta.url, 'policy-worker', {
    sources: policyThread.mode === 'thread',
  })
  if (found === null || db.memory) return evaluate(db, input)
  const data: PolicyWorkerData = {
    dbPath: db.name,
    nativeBinding: getDefaultNativeBinding() ?? null,
    input,
  }
  const timeMs = limitsOf(input).timeMs
  const worker = startThread(found, { workerData: data })
  return new Promise<Evaluation>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined
    const finish = (settle: () => void): void => {
      clearTimeout(timer)
      worker.removeAllListeners()
      void worker.terminate()
      settle()
    }
    worker.on('message', (message: PolicyWorkerMessage) => {
      if (message.type === 'script-started') {
        // Sent as the script loads and again as its rules run: the facts in between are not its time.
        clearTimeout(timer)
        timer = setTimeout(() => {
          finish(() =>
            reject(
              new PolicyError(
                'policy-timeout',
                `The policy ran longer than its time limit (${timeMs / 1000} s) and was stopped.`,
                { file: input.fileName },
              ),
            ),
          )
        }, timeMs + GRACE_MS)
      } else if (message.type === 'done') {
        finish(() => resolve(message.evaluation))
      } else {
        finish(() => reject(new UserError(message.error)))
      }
    })
    worker.on('error', (error) => finish(() => reject(error)))
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`the policy thread stopped early (exit code ${code})`))),
    )
  })
}
