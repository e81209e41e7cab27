import apiTypes from '../../../policies/winnow-policy.d.ts?raw'
import glucoseCleanup from '../../../policies/glucose-cleanup.ts?raw'
import starter from '../../../policies/starter.ts?raw'

/** The policy files the app ships, bundled into the build as text. */

/** The API definition file a policy imports its types from (`./winnow-policy`). */
export const API_TYPES = { fileName: 'winnow-policy.d.ts', source: apiTypes }

export const SHIPPED_POLICIES: readonly { fileName: string; source: string }[] = [
  { fileName: 'starter.ts', source: starter },
  { fileName: 'glucose-cleanup.ts', source: glucoseCleanup },
]

export const STARTER = { fileName: 'starter.ts', source: starter }
