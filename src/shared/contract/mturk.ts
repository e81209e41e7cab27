// Calls and events of the mturk domain.
export const mturkCalls = {}

export const mturkEvents = {}
