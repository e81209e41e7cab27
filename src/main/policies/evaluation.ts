import { createHash } from 'node:crypto'
import type { PolicyOutline, PolicyParamValue, PolicyTimings } from '../../shared/contract/policies'
import { ratingKey } from '../../shared/ratings/key'
import type { Db } from '../db/connection'
import { dataState, workerIdsByExternal } from '../db/queries/policies'
import { ratingScale } from '../ratings/scale'
import { type PolicyRule, readOutline, readRules, resolveParams } from './definition'
import { lazyFact, readFacts } from './facts'
import { DEFAULT_LIMITS, PolicyError, PolicySandbox, type SandboxLimits } from './sandbox'

/**
 * Running a policy's script against the project's facts: the sandbox, the parameters, and the
 * checks of the rules it returns. Read-only; runs on the policy thread (./thread.ts).
 */

export interface PolicyInput {
  source: string
  /** Shown in messages (`FILE:LINE`) and stored with the change set. */
  fileName: string
  /** Parameter values; text (from `--param`) is parsed by each parameter's type. */
  params?: Record<string, PolicyParamValue | string>
  limits?: Partial<SandboxLimits>
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

export function limitsOf(input: PolicyInput): SandboxLimits {
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

export interface ResolvedRule {
  rule: PolicyRule
  note: string
  workerIds?: number[]
}

export interface Evaluation {
  outline: PolicyOutline
  params: Record<string, PolicyParamValue>
  rules: ResolvedRule[]
  sha256: string
  /** Project state and script, for "nothing changed since the dry run". */
  basis: string
  timings: PolicyTimings
  /** The time limit, which also bounds selecting what the rules move. */
  timeMs: number
}

function basisOf(db: Db, source: string, params: Record<string, PolicyParamValue>): string {
  return `${dataState(db)}:${sha256(source).slice(0, 16)}:${sha256(JSON.stringify(params)).slice(0, 16)}`
}

/** Runs the script against the project's facts (a consistent read) and checks its rules. */
export async function evaluate(
  db: Db,
  input: PolicyInput,
  scriptStarted?: () => void,
): Promise<Evaluation> {
  scriptStarted?.()
  const started = performance.now()
  const limits = limitsOf(input)
  const sandbox = await PolicySandbox.load(input.source, input.fileName, limits, (kind) =>
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
        const scriptAt = performance.now()
        scriptStarted?.()
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
            factsMs: scriptAt - factsStarted,
            scriptMs: scriptDone - scriptAt,
            selectMs: 0,
          },
          timeMs: limits.timeMs,
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
  // Every worker any rule names, looked up at once.
  const known = workerIdsByExternal(db, [...new Set(rules.flatMap((r) => r.where.workers ?? []))])
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
    const unknown = workers.filter((w) => !known.has(w))
    if (unknown.length > 0) {
      fail(
        rule,
        i,
        `no worker ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ' …' : ''} in this project`,
      )
    }
    return { rule, note, workerIds: [...new Set(workers.map((w) => known.get(w) ?? 0))] }
  })
}
