import { callNames, eventNames } from '../shared/contract'

/** The names the preload lets through, read from the contract at build time. */
export const callNameList: readonly string[] = callNames
export const eventNameList: readonly string[] = eventNames
