import { createHash } from 'node:crypto'
import { UserError } from '../../shared/contract/errors'
import type {
  PolicyApplied,
  PolicyOutline,
  PolicyParamValue,
  PolicyReport,
  PolicyRuleReport,
  PolicyTimings,
} from '../../shared/contract/policies'
import { ratingKey } from '../../shared/ratings/key'
import { plural } from '../../shared/text'
import type { Db } from '../db/connection'
import { createChangeSet } from '../db/queries/changeSets'
import { recordEffects } from '../db/queries/history'
import { matchingAnnotationIds } from '../db/queries/review'
import {
  addRuleMoves,
  beginMoves,
  dataState,
  insertPolicyRun,
  keepChangingMoves,
  moveSamples,
  moveTransitions,
  ruleCounts,
  workerIdsByExternal,
  writeMoves,
} from '../db/queries/policies'
import { pendingCount } from '../db/queries/ratingsImport'
import { settlePending } from '../ratings/importTimelines'
import { ratingScale } from '../ratings/scale'
import { type PolicyRule, readOutline, readRules, resolveParams } from './definition'
import { lazyFact, readFacts } from './facts'
import { DEFAULT_LIMITS, PolicyError, PolicySandbox, type SandboxLimits } from './sandbox'

/**
 * A policy run: the script reads facts in the sandbox and returns ordered rules; the rules become
 * one set of moves in the project (the first rule that selects an annotation takes it). A dry run
 * counts the moves; apply writes them as one change set of item ratings.
 */

export interface PolicyInput {
  source: string
  /** Shown in messages (`FILE:LINE`) and stored with the change set. */
  fileName: string
  /** Parameter values; text (from `--param`) is parsed by each parameter's type. */
  params?: Record<string, PolicyParamValue | string>
  limits?: Partial<SandboxLimits>
}

const SAMPLES_PER_RULE = 5

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

function limitsOf(input: PolicyInput): SandboxLimits {
  return { ...DEFAULT_LIMITS, ...input.limits }
}

/** Name, description and parameters of a script; reads no project data. */
export async function outlinePolicy(source: string, fileName: string): Promise<PolicyOutline> {
  const sandbox = await PolicySandbox.load(source, fileName)
  try {
    return readOutline(sandbox.describe(), fileName)
  } finally {
    sandbox.dispose()
  }
}

interface ResolvedRule {
  rule: PolicyRule
  note: string
  workerIds?: number[]
}

interface Evaluation {
  outline: PolicyOutline
  params: Record<string, PolicyParamValue>
  rules: ResolvedRule[]
  sha256: string
  /** Project state and script, for "nothing changed since the dry run". */
  basis: string
  timings: PolicyTimings
}

function basisOf(db: Db, source: string, params: Record<string, PolicyParamValue>): string {
  return `${dataState(db)}:${sha256(source).slice(0, 16)}:${sha256(JSON.stringify(params)).slice(0, 16)}`
}

/** Runs the script against the project's facts (a consistent read) and checks its rules. */
async function evaluate(db: Db, input: PolicyInput): Promise<Evaluation> {
  if (pendingCount(db) > 0) db.transaction(() => settlePending(db, 'policy')).immediate()
  const started = performance.now()
  const sandbox = await PolicySandbox.load(input.source, input.fileName, limitsOf(input), (kind) =>
    lazyFact(db, kind),
  )
  try {
    const loaded = performance.now()
    return db
      .transaction((): Evaluation => {
        const outline = readOutline(sandbox.describe(), input.fileName)
        const scale = ratingScale(db).map((l) => l.value)
        const params = resolveParams(outline, input.params ?? {}, {
          scale,
          unknownWorkers: (ids) => {
            const known = workerIdsByExternal(db, ids)
            return ids.filter((id) => !known.has(id))
          },
        })
        const factsStarted = performance.now()
        const facts = JSON.stringify(readFacts(db))
        const scriptStarted = performance.now()
        const raw = sandbox.rules(facts, JSON.stringify(params))
        const scriptDone = performance.now()
        const rules = resolveRules(
          db,
          readRules(raw, input.fileName),
          outline,
          input.fileName,
          scale,
        )
        return {
          outline,
          params,
          rules,
          sha256: sha256(input.source),
          basis: basisOf(db, input.source, params),
          timings: {
            sandboxMs: loaded - started,
            factsMs: scriptStarted - factsStarted,
            scriptMs: scriptDone - scriptStarted,
            selectMs: 0,
          },
        }
      })
      .deferred()
  } finally {
    sandbox.dispose()
  }
}

/** Checks every rating and worker a rule names against the project. */
function resolveRules(
  db: Db,
  rules: readonly PolicyRule[],
  outline: PolicyOutline,
  file: string,
  scale: readonly number[],
): ResolvedRule[] {
  const fail = (rule: PolicyRule, i: number, message: string): never => {
    throw new PolicyError(
      'policy-rules',
      `Rule ${i + 1} (${rule.name}): ${message}`,
      rule.line !== undefined ? { file, line: rule.line } : { file },
    )
  }
  const scaleText = scale.map(ratingKey).join(', ')
  return rules.map((rule, i) => {
    if (!scale.includes(rule.to))
      fail(rule, i, `rating ${rule.to} is not on this project's scale (${scaleText})`)
    for (const r of rule.where.ratings ?? []) {
      if (r !== null && !scale.includes(r))
        fail(rule, i, `rating ${r} is not on this project's scale (${scaleText})`)
    }
    const note = `${outline.name}: ${rule.name}${rule.reason ? ` — ${rule.reason}` : ''}`
    const workers = rule.where.workers
    if (workers === undefined) return { rule, note }
    const known = workerIdsByExternal(db, workers)
    const unknown = workers.filter((w) => !known.has(w))
    if (unknown.length > 0) {
      fail(
        rule,
        i,
        `no worker ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ' …' : ''} in this project`,
      )
    }
    return { rule, note, workerIds: [...new Set(known.values())] }
  })
}

/** Fills the moves of every rule, in order. */
function selectMoves(db: Db, rules: readonly ResolvedRule[]): void {
  beginMoves(db)
  rules.forEach(({ rule, note, workerIds }, i) => {
    const w = rule.where
    addRuleMoves(db, i, rule.to, note, {
      ...(workerIds !== undefined ? { workerIds } : {}),
      ...(w.ratings !== undefined ? { ratings: w.ratings } : {}),
      ...(w.dimensions !== undefined ? { dimensions: w.dimensions } : {}),
      ...(w.submitted?.from !== undefined ? { from: w.submitted.from } : {}),
      ...(w.submitted?.to !== undefined ? { to: w.submitted.to } : {}),
      ...(w.filter !== undefined ? { matching: matchingAnnotationIds(db, w.filter) } : {}),
    })
  })
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
  const e = await evaluate(db, input)
  return db
    .transaction(() => {
      if (dataState(db) !== e.basis.split(':')[0]) throw changedMeanwhile()
      const started = performance.now()
      selectMoves(db, e.rules)
      return report(db, e, started)
    })
    .deferred()
}

function changedMeanwhile(): UserError {
  return new UserError({
    type: 'conflict',
    code: 'policy-data-changed',
    message:
      'The project changed since the dry run (a rating or an import in between); dry run the policy again before applying it.',
  })
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
  const e = await evaluate(db, input)
  if (input.basis !== undefined && input.basis !== e.basis) {
    const [data, script] = input.basis.split(':')
    const [nowData, nowScript] = e.basis.split(':')
    if (data !== nowData) throw changedMeanwhile()
    throw new UserError({
      type: 'conflict',
      code: 'policy-script-changed',
      message:
        script !== nowScript
          ? 'The policy script changed since the dry run; dry run it again before applying it.'
          : 'The parameters changed since the dry run; dry run again before applying.',
    })
  }
  return db
    .transaction((): PolicyApplied => {
      if (dataState(db) !== e.basis.split(':')[0]) throw changedMeanwhile()
      const started = performance.now()
      selectMoves(db, e.rules)
      const result = report(db, e, started)
      const rows = keepChangingMoves(db)
      if (rows === 0) return { ...result, changeSet: null }
      const changeSet = createChangeSet(db, {
        kind: 'policy',
        author: input.author,
        description: `Policy ${e.outline.name} (${input.fileName}, ${e.sha256.slice(0, 12)}): ${plural(rows, 'annotation')} re-rated`,
      })
      writeMoves(db, rows, { changeSetId: changeSet.id, at: changeSet.at, author: input.author })
      recordEffects(
        db,
        changeSet.id,
        result.changed,
        result.transitions.map((t) => ({ from: t.from, to: t.to, count: t.annotations })),
      )
      insertPolicyRun(db, {
        changeSetId: changeSet.id,
        name: e.outline.name,
        fileName: input.fileName,
        script: input.source,
        sha256: e.sha256,
        params: JSON.stringify(e.params),
        report: JSON.stringify({ ...result, timings: undefined }),
      })
      return { ...result, changeSet: changeSet.id }
    })
    .immediate()
}
