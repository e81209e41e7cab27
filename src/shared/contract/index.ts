import './zodConfig'
import type { z } from 'zod'
import type { CallSpec, EventSpec } from './define'
import { crowdaqCalls, crowdaqEvents } from '../crowdaq/contract'
import type { Outcome } from './errors'
import { auditCalls } from './audits'
import { dashboardCalls } from './dashboard'
import { halieCalls } from '../halie/contract'
import { importCalls, type PickedFile } from './imports'
import { jobCalls, jobEvents } from './jobs'
import { mturkCalls, mturkEvents } from './mturk'
import { policyCalls, policyEvents } from './policies'
import { projectCalls, projectEvents } from './project'
import { protoqaCalls } from '../protoqa/contract'
import { ratingsCalls, ratingsEvents } from './ratings'
import { releaseCalls } from './release'
import { reviewCalls, reviewEvents } from './review'
import { teamCalls, teamEvents } from './team'
import { triageCalls } from './triage'

/** Every call main answers, by name. IPC handlers, the preload, HTTP routes and the CLI derive from this. */
export const contract = {
  ...projectCalls,
  ...jobCalls,
  ...importCalls,
  ...reviewCalls,
  ...ratingsCalls,
  ...mturkCalls,
  ...protoqaCalls,
  ...releaseCalls,
  ...triageCalls,
  ...auditCalls,
  ...dashboardCalls,
  ...crowdaqCalls,
  ...policyCalls,
  ...halieCalls,
  ...teamCalls,
} satisfies Record<string, CallSpec>

/** Every event main pushes to the page. */
const events = {
  ...projectEvents,
  ...jobEvents,
  ...reviewEvents,
  ...ratingsEvents,
  ...mturkEvents,
  ...crowdaqEvents,
  ...policyEvents,
  ...teamEvents,
} satisfies Record<string, EventSpec>

type Contract = typeof contract
export type CallName = Extract<keyof Contract, string>
export type EventName = Extract<keyof typeof events, string>

type CallArgs<K extends CallName> = z.input<Contract[K]['args']>
export type ParsedArgs<K extends CallName> = z.output<Contract[K]['args']>
export type CallResult<K extends CallName> =
  Contract[K] extends CallSpec<z.ZodType, infer R> ? R : never
export type EventPayload<E extends EventName> =
  (typeof events)[E] extends EventSpec<infer P> ? P : never

export const callNames = Object.keys(contract) as CallName[]
export const eventNames = Object.keys(events) as EventName[]

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(contract, name)
}

/** What the preload exposes to the page (and what serve mode's HTTP client implements). */
export interface Bridge {
  invoke(name: CallName, args: unknown): Promise<Outcome<unknown>>
  on(name: EventName, listener: (payload: unknown) => void): () => void
  /** Electron only: the path of a dropped file, granted to main for import. */
  grantDroppedFile?(file: Blob): Promise<PickedFile | null>
}

type Domain<K extends string> = K extends `${infer D}.${string}` ? D : never
type Method<K extends string, D extends string> = K extends `${D}.${infer M}` ? M : never

/** The page's API: `api.project.open({path})`, grouped by domain, with typed arguments and results. */
export type WinnowApi = {
  [D in Domain<CallName>]: {
    [K in CallName as Method<K, D>]: (args: CallArgs<K>) => Promise<CallResult<K>>
  }
}

export * from './errors'
export type { CallSpec, EventSpec } from './define'
