import type { CallName } from '../../shared/contract'
import type { Handlers } from './handlers'
import { importHandlers } from './imports'
import { jobHandlers } from './jobs'
import { mturkHandlers } from './mturk'
import { policyHandlers } from './policies'
import { projectHandlers } from './project'
import { ratingsHandlers } from './ratings'
import { reviewHandlers } from './review'

/** Every call of the contract has exactly one handler; the type fails the build if one is missing. */
export const handlers: Handlers<CallName> = {
  ...projectHandlers,
  ...jobHandlers,
  ...importHandlers,
  ...reviewHandlers,
  ...ratingsHandlers,
  ...mturkHandlers,
  ...policyHandlers,
}
