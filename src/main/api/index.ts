import type { CallName } from '../../shared/contract'
import { collectionHandlers } from '../collections/registry'
import { auditHandlers } from './audits'
import { dashboardHandlers } from './dashboard'
import type { Handlers } from './handlers'
import { importHandlers } from './imports'
import { jobHandlers } from './jobs'
import { mturkHandlers } from './mturk'
import { policyHandlers } from './policies'
import { projectHandlers } from './project'
import { ratingsHandlers } from './ratings'
import { releaseHandlers } from './release'
import { reviewHandlers } from './review'
import { teamHandlers } from './team'
import { triageHandlers } from './triage'

/**
 * Every call of the contract has exactly one handler; the type fails the build if one is missing.
 * The collections' come from their registry (`collections/registry.ts`).
 */
export const handlers: Handlers<CallName> = {
  ...projectHandlers,
  ...jobHandlers,
  ...importHandlers,
  ...reviewHandlers,
  ...ratingsHandlers,
  ...mturkHandlers,
  ...releaseHandlers,
  ...triageHandlers,
  ...auditHandlers,
  ...dashboardHandlers,
  ...policyHandlers,
  ...collectionHandlers,
  ...teamHandlers,
}
