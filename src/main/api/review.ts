import type { reviewCalls } from '../../shared/contract/review'
import type { Handlers } from './handlers'

export const reviewHandlers: Handlers<keyof typeof reviewCalls & string> = {}
