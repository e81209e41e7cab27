import type { CallName } from '../../shared/contract'
import { auditHandlers } from './audits'
import { dashboardHandlers } from './dashboard'
import { crowdaqHandlers } from './crowdaq'
import { halieHandlers } from '../collections/halie/api'
import type { Handlers } from './handlers'
import { importHandlers } from './imports'
import { jobHandlers } from './jobs'
import { mturkHandlers } from './mturk'
import { policyHandlers } from './policies'
import { projectHandlers } from './project'
import { protoqaHandlers } from './protoqa'
import { ratingsHandlers } from './ratings'
import { releaseHandlers } from './release'
import { reviewHandlers } from './review'
import { teamHandlers } from './team'
import { triageHandlers } from './triage'

/** Every call of the contract has exactly one handler; the type fails the build if one is missing. */
export const handlers: Handlers<CallName> = {
  ...projectHandlers,
  ...jobHandlers,
  ...importHandlers,
  ...reviewHandlers,
  ...ratingsHandlers,
  ...mturkHandlers,
  ...protoqaHandlers,
  ...releaseHandlers,
  ...triageHandlers,
  ...auditHandlers,
  ...dashboardHandlers,
  ...crowdaqHandlers,
  ...policyHandlers,
  ...halieHandlers,
  ...teamHandlers,
}
