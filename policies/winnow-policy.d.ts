/**
 * The Winnow policy API. A policy file imports it and default-exports `definePolicy({...})`:
 *
 *   import { definePolicy, rule } from './winnow-policy'
 *   export default definePolicy({ name: '…', params: {…}, rules(facts, params) { return [rule({…})] } })
 *
 * The script runs in a sandbox: no file system, no network, no clock, no other imports. It reads
 * facts (read-only) and returns rules; Winnow applies them to whole sets of annotations.
 * Rules are ordered: an annotation is moved by the first rule that selects it.
 *
 * Limits: 10 s for the script (and as long for selecting what its rules move), 256 MB of memory,
 * at most 10,000 rules and 16 MB of JSON returned. `new Date()` and `Date.now()` refuse: give
 * dates explicitly. Throw an Error (`throw new Error('…')`) to stop with a message.
 */

/** A rating on the project's scale, e.g. 3, 2, 1.5, 1, 0, -1, -2. */
export type Rating = number

/** A day, `YYYY-MM-DD` (UTC). */
export type Day = string

export interface RatingCount {
  /** The effective rating; null = unrated. */
  rating: Rating | null
  /** Submissions with at least one annotation at this rating. */
  submissions: number
  annotations: number
}

export interface DimensionCount {
  dimension: number
  annotations: number
  byRating: RatingCount[]
}

export interface DayCount {
  day: Day
  submissions: number
  annotations: number
}

export interface WorkerFacts {
  /** The worker id as the files and MTurk write it. */
  readonly id: string
  readonly submissions: number
  readonly annotations: number
  readonly firstSubmission: Day | null
  readonly lastSubmission: Day | null
  /** Submissions and annotations by current effective rating, highest rating first. */
  readonly byRating: readonly RatingCount[]
  /** Submissions whose annotations include one at `rating` (null = unrated). */
  submissionsRated(rating: Rating | null): number
  annotationsRated(rating: Rating | null): number
  /** Annotations by dimension (1–10), each by rating. */
  readonly byDimension: readonly DimensionCount[]
  /** Submissions and annotations per day of submission, oldest first. */
  readonly byDay: readonly DayCount[]
}

export interface ScaleStep {
  value: Rating
  label: string
}

/**
 * The result of one audit (a random sample judged by a reviewer on the Audits page or with
 * `winnow audit`); only audits with at least one item judged are listed.
 */
export interface AuditFact {
  readonly id: number
  readonly name: string
  /** Workers the audit covers, or null for the whole project. */
  readonly workers: readonly string[] | null
  /** The rating whose work was sampled, or null for all. */
  readonly rating: Rating | null
  readonly sampled: number
  readonly passed: number
  /** passed / sampled. */
  readonly precision: number
}

export interface Facts {
  /** The project's rating scale, highest first. */
  readonly scale: readonly ScaleStep[]
  /** Annotations by effective rating over the whole project. */
  readonly ratings: readonly RatingCount[]
  /** Every worker with at least one submission, by id. */
  readonly workers: readonly WorkerFacts[]
  worker(id: string): WorkerFacts | undefined
  /** Audit results, newest first. */
  readonly audits: readonly AuditFact[]
  /** Dates of the first and last submission in the project. */
  readonly firstSubmission: Day | null
  readonly lastSubmission: Day | null
}

/** A review-grid filter (the same fields as the grid's filter bar). */
export interface GridFilter {
  workers?: string[]
  stories?: string[]
  dimensions?: number[]
  sentence?: string
  text?: string
  from?: Day
  to?: Day
  ratings?: (Rating | 'unrated')[]
  flagged?: boolean
}

/** Which annotations a rule selects; every field given must hold (AND). */
export interface Selection {
  /** Only these workers' annotations. */
  workers?: readonly string[]
  /** Only annotations whose current effective rating is one of these (null = unrated). */
  ratings?: readonly (Rating | null)[]
  dimensions?: readonly number[]
  /** Submitted on or after `from` and on or before `to` (days, inclusive). */
  submitted?: { from?: Day; to?: Day }
  /** Any review-grid filter. */
  filter?: GridFilter
}

export interface RuleSpec {
  /** Shown in the dry run, in History and in the item ratings' note. */
  name: string
  /** The annotations it selects; `{}` selects every annotation not taken by an earlier rule. */
  where: Selection
  /** The rating they get. */
  to: Rating
  /** Why, in a sentence (stored with every rating it writes). */
  reason?: string
}

export interface Rule extends RuleSpec {
  /** The script line that made the rule (filled in by `rule`). */
  readonly line?: number
}

export type ParamSpec =
  | {
      type: 'number'
      label?: string
      default: number | null
      min?: number
      max?: number
      optional?: boolean
    }
  | { type: 'rating'; label?: string; default: Rating | null; optional?: boolean }
  | { type: 'ratings'; label?: string; default: Rating[] }
  | { type: 'workers'; label?: string; default: string[] }
  | { type: 'boolean'; label?: string; default: boolean }

type ParamValue<P extends ParamSpec> = P extends { type: 'number' | 'rating' }
  ? P extends { optional: true }
    ? number | null
    : number
  : P extends { type: 'ratings' }
    ? Rating[]
    : P extends { type: 'workers' }
      ? string[]
      : boolean

export type ParamValues<P extends Record<string, ParamSpec>> = {
  readonly [K in keyof P]: ParamValue<P[K]>
}

export interface PolicyDefinition<P extends Record<string, ParamSpec>> {
  name: string
  description?: string
  /** Parameters, shown as a form in the app and given as `--param name=value` on the command line. */
  params?: P
  /** The ordered rules: an annotation is moved by the first rule that selects it. */
  rules(facts: Facts, params: ParamValues<P>): Rule[]
}

export function definePolicy<P extends Record<string, ParamSpec>>(
  definition: PolicyDefinition<P>,
): PolicyDefinition<P>

/** A rule, remembering the line that made it (for messages). */
export function rule(spec: RuleSpec): Rule

/** A number in [0, 1) from the policy's seeded source (Math.random is the same source). */
export function random(): number
