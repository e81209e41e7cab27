/** A JSON object (not an array, not null), as CROWDAQ's files and responses nest them. */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
