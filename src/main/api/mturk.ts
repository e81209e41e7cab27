import type { mturkCalls } from '../../shared/contract/mturk'
import type { Handlers } from './handlers'

export const mturkHandlers: Handlers<keyof typeof mturkCalls & string> = {}
