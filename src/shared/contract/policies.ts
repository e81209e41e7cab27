import { z } from 'zod'
import { call } from './define'
import type { JobProgress } from './jobs'

/** A parameter a policy declares; the page shows it as a form field. */
export type PolicyParam =
  | {
      name: string
      type: 'number'
      label: string
      default: number | null
      min?: number
      max?: number
      optional: boolean
    }
  | { name: string; type: 'rating'; label: string; default: number | null; optional: boolean }
  | { name: string; type: 'ratings'; label: string; default: number[] }
  | { name: string; type: 'workers'; label: string; default: string[] }
  | { name: string; type: 'boolean'; label: string; default: boolean }

export type PolicyParamValue = number | null | number[] | string[] | boolean

/** What the script declares, read without touching the project's data. */
export interface PolicyOutline {
  name: string
  description: string
  params: PolicyParam[]
}

export interface PolicyRuleReport {
  name: string
  /** The script line that made the rule, where known. */
  line: number | null
  to: number
  reason: string
  /** Annotations the rule selects first (an earlier rule did not take them). */
  selected: number
  /** Of those, annotations whose effective rating it changes. */
  annotations: number
  /** Workers with at least one annotation it changes. */
  workers: number
}

export interface PolicyTransition {
  /** null = unrated. */
  from: number | null
  to: number
  annotations: number
}

export interface PolicySample {
  annotationId: number
  submissionId: number
  worker: string | null
  dimension: number
  rule: number
  from: number | null
  to: number
  /** The story sentence the annotation is about, and its specific and general statements. */
  sentence: string
  specific: string
  general: string
}

export interface PolicyTimings {
  /** Starting the engine and loading the script, ms. */
  sandboxMs: number
  /** Reading the facts, ms. */
  factsMs: number
  /** Running `rules(facts, params)`, ms. */
  scriptMs: number
  /** Selecting and counting the moves in the project, ms. */
  selectMs: number
}

/** A dry run: what applying the policy would do. Nothing was changed. */
export interface PolicyReport {
  name: string
  sha256: string
  params: Record<string, PolicyParamValue>
  rules: PolicyRuleReport[]
  transitions: PolicyTransition[]
  /** Annotations whose effective rating changes. */
  changed: number
  samples: PolicySample[]
  /** The state of the project the report describes; apply refuses if it has changed since. */
  basis: string
  timings: PolicyTimings
}

export interface PolicyApplied extends PolicyReport {
  /** The change set written; null when the policy moved nothing. */
  changeSet: number | null
}

export interface PolicyRunDetail {
  changeSet: number
  name: string
  fileName: string
  sha256: string
  script: string
  params: Record<string, PolicyParamValue>
  report: Omit<PolicyReport, 'timings'>
}

const source = z.string().max(1_000_000)
const fileName = z
  .string()
  .min(1)
  .max(500)
  .regex(/\.[cm]?[jt]s$/, 'a policy file ends in .ts or .js')
/** A value, or its text as the form and `--param` give it (parsed in main by the parameter's type). */
const paramValue = z.union([
  z.string().max(1_000_000),
  z.number().finite(),
  z.null(),
  z.boolean(),
  z.array(z.number().finite()).max(100),
  z.array(z.string().min(1).max(200)).max(100_000),
])
const params = z.record(z.string().max(100), paramValue)
const script = z.object({ source, fileName, params: params.optional() })

export const policyCalls = {
  /** The shipped policies: the starter and GLUCOSE's cleanup. */
  'policies.shipped': call(z.object({})).returns<{ fileName: string; source: string }[]>(),
  /** Name and parameters of a script; a bad script fails with its line. Reads no project data. */
  'policies.outline': call(z.object({ source, fileName })).returns<PolicyOutline>(),
  'policies.dryRun': call(script).returns<PolicyReport>(),
  /** Applies the policy as one change set (a job); `basis` is the dry run's it confirms. */
  'policies.apply': call(script.extend({ basis: z.string().max(200) })).returns<JobProgress>(),
  'policies.run': call(
    z.object({ changeSetId: z.number().int().positive() }),
  ).returns<PolicyRunDetail>(),
  /** A policy file on disk (a `.ts` or `.js` file), with its modification time for watching. */
  'policies.readFile': call(z.object({ path: fileName })).returns<{
    path: string
    source: string
    modifiedAt: number
  }>(),
  'policies.saveFile': call(z.object({ path: fileName, source })).returns<{ modifiedAt: number }>(),
}

export const policyEvents = {}
