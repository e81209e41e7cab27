import { UserError } from '../../shared/contract/errors'
import type { PolicyApplied, PolicyReport, PolicyRuleReport } from '../../shared/contract/policies'
import { plural } from '../../shared/text'
import { type Db, TempStore, withPragmas } from '../db/connection'
import { createChangeSet } from '../db/queries/changes/sets'
import { recordEffects } from '../db/queries/changes/history'
import {
  dataState,
  insertPolicyRun,
  keepChangingMoves,
  moveRatings,
  moveSamples,
  moveTransitions,
  ruleCounts,
} from '../db/queries/policies'
import { pendingCount } from '../db/queries/ratings/import'
import { QUIET, type WriteHooks, step } from '../jobs/writeHooks'
import { settlePending } from '../ratings/importTimelines'
import { recordItemRatings } from '../ratings/rate'
import { ratingScale } from '../ratings/scale'
import { type Evaluation, type PolicyInput, sha256 } from './evaluation'
import { selectMoves } from './selection'
import { evaluateIsolated } from './thread'

export type { PolicyInput } from './evaluation'
export { outlinePolicy } from './evaluation'

/**
 * A policy run: the script reads facts in the sandbox and returns ordered rules; the rules become
 * one set of moves in the project (the first rule that selects an annotation takes it). A dry run
 * counts the moves; apply writes them as one change set of item ratings.
 */

const SAMPLES_PER_RULE = 5

/**
 * The last evaluation of each open project. A script has no clock and only seeded randomness, so
 * the same script, parameters and limits on the same data return the same rules: an apply that
 * confirms its dry run takes the dry run's rules instead of running the script again.
 */
const lastEvaluation = new WeakMap<Db, { key: string; evaluation: Evaluation }>()

function evaluationKey(db: Db, input: PolicyInput): string {
  return JSON.stringify([
    dataState(db),
    ratingScale(db),
    sha256(input.source),
    input.params ?? {},
    input.limits ?? {},
  ])
}

/** Settles ratings left pending by an earlier writer, then runs the script on its thread. */
async function evaluated(db: Db, input: PolicyInput): Promise<Evaluation> {
  if (pendingCount(db) > 0) db.transaction(() => settlePending(db, 'policy')).immediate()
  const key = evaluationKey(db, input)
  const last = lastEvaluation.get(db)
  if (last?.key === key) return last.evaluation
  const evaluation = await evaluateIsolated(db, input)
  lastEvaluation.set(db, { key, evaluation })
  return evaluation
}

function report(db: Db, e: Evaluation, selectStarted: number): PolicyReport {
  const counts = new Map(ruleCounts(db).map((c) => [c.rule, c]))
  const rules: PolicyRuleReport[] = e.rules.map(({ rule }, i) => ({
    name: rule.name,
    line: rule.line ?? null,
    to: rule.to,
    reason: rule.reason ?? '',
    selected: counts.get(i)?.selected ?? 0,
    annotations: counts.get(i)?.annotations ?? 0,
    workers: counts.get(i)?.workers ?? 0,
  }))
  const transitions = moveTransitions(db)
  return {
    name: e.outline.name,
    sha256: e.sha256,
    params: e.params,
    rules,
    transitions,
    changed: transitions.reduce((n, t) => n + t.annotations, 0),
    samples: moveSamples(db, SAMPLES_PER_RULE),
    basis: e.basis,
    timings: { ...e.timings, selectMs: performance.now() - selectStarted },
  }
}

/** What applying the policy would do. Changes nothing in the project. */
export async function dryRunPolicy(db: Db, input: PolicyInput): Promise<PolicyReport> {
  const e = await evaluated(db, input)
  return withMovesOnDisk(db, () =>
    db
      .transaction(() => {
        if (dataState(db) !== e.basis.split(':')[0]) throw changedMeanwhile(false)
        const started = performance.now()
        selectMoves(db, e.rules, { file: input.fileName, timeMs: e.timeMs })
        return report(db, e, started)
      })
      .deferred(),
  )
}

/**
 * Runs `work` with the connection's temporary tables in a file: the moves a policy selects hold a
 * row per annotation moved (millions at ten million annotations), on whichever connection runs it.
 */
function withMovesOnDisk<T>(db: Db, work: () => T): T {
  return withPragmas(db, { temp_store: TempStore.file }, work)
}

/** `sinceDryRun`: an apply confirming a dry run; else the change came while the script ran. */
function changedMeanwhile(sinceDryRun: boolean): UserError {
  return new UserError({
    type: 'conflict',
    code: 'policy-data-changed',
    message: sinceDryRun
      ? 'The project changed since the dry run (a rating, an import, an audit verdict or a new rating scale in between); dry run the policy again before applying it.'
      : 'The project changed while the policy ran (a rating, an import, an audit verdict or a new rating scale in between); nothing was changed by it. Run it again.',
  })
}

export interface ApplyRequest {
  /** The script's outcome (from `evaluatePolicy`). */
  evaluation: Evaluation
  source: string
  fileName: string
  /** The dry run's basis this apply confirms; none applies whatever the script selects now. */
  basis?: string
  author: string
}

/** Runs the script (on its thread) for an apply; the write itself is `applyEvaluated`. */
export async function evaluatePolicy(db: Db, input: PolicyInput): Promise<Evaluation> {
  return evaluated(db, input)
}

/**
 * Applies the policy as one change set of item ratings (kind `policy`), with the script, its
 * hash, the parameters and the report. With `basis` (a dry run's), refuses when the project or
 * the script changed since that dry run.
 */
export async function applyPolicy(
  db: Db,
  input: PolicyInput & { basis?: string; author: string },
): Promise<PolicyApplied> {
  const evaluation = await evaluated(db, input)
  return applyEvaluated(db, {
    evaluation,
    source: input.source,
    fileName: input.fileName,
    author: input.author,
    ...(input.basis !== undefined ? { basis: input.basis } : {}),
  })
}

/**
 * The write of an apply: one immediate transaction that checks nothing changed since the
 * evaluation (and the dry run it confirms), selects the moves again and writes them.
 */
export function applyEvaluated(
  db: Db,
  request: ApplyRequest,
  hooks: WriteHooks = QUIET,
): PolicyApplied {
  const e = request.evaluation
  if (request.basis !== undefined && request.basis !== e.basis) {
    const [data, script] = request.basis.split(':')
    const [nowData, nowScript] = e.basis.split(':')
    if (data !== nowData) throw changedMeanwhile(true)
    throw new UserError({
      type: 'conflict',
      code: 'policy-script-changed',
      message:
        script !== nowScript
          ? 'The policy script changed since the dry run; dry run it again before applying it.'
          : 'The parameters changed since the dry run; dry run again before applying.',
    })
  }
  const write = db.transaction((): PolicyApplied => {
    step(hooks, 'Selecting the annotations each rule moves')
    if (dataState(db) !== e.basis.split(':')[0]) throw changedMeanwhile(request.basis !== undefined)
    const started = performance.now()
    selectMoves(db, e.rules, { file: request.fileName, timeMs: e.timeMs })
    const result = report(db, e, started)
    const rows = keepChangingMoves(db)
    if (rows === 0) return { ...result, changeSet: null }
    step(hooks, 'Recording item ratings', 0, rows)
    const changeSet = createChangeSet(db, {
      kind: 'policy',
      author: request.author,
      description: `Policy ${e.outline.name} (${request.fileName}, ${e.sha256.slice(0, 12)}): ${plural(rows, 'annotation')} re-rated`,
    })
    recordItemRatings(db, moveRatings, rows, {
      changeSetId: changeSet.id,
      at: changeSet.at,
      author: request.author,
    })
    step(hooks, 'Recording what moved', rows, rows)
    recordEffects(
      db,
      changeSet.id,
      result.changed,
      result.transitions.map((t) => ({ from: t.from, to: t.to, count: t.annotations })),
    )
    insertPolicyRun(db, {
      changeSetId: changeSet.id,
      name: e.outline.name,
      fileName: request.fileName,
      script: request.source,
      sha256: e.sha256,
      params: JSON.stringify(e.params),
      report: JSON.stringify({ ...result, timings: undefined }),
    })
    return { ...result, changeSet: changeSet.id }
  })
  return withMovesOnDisk(db, () => write.immediate())
}
