/**
 * JSON written as Python's `json.dumps` writes it by default (the released ProtoQA files were):
 * `", "` and `": "` separators, every character beyond ASCII escaped as `\uXXXX`.
 */
export function pythonJson(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'string') return pythonString(value)
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`
  if (value instanceof Map)
    return `{${[...(value as Map<string, unknown>)].map(([k, v]) => `${pythonString(k)}: ${pythonJson(v)}`).join(', ')}}`
  if (typeof value === 'object')
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${pythonString(k)}: ${pythonJson(v)}`)
      .join(', ')}}`
  throw new Error(`cannot write ${typeof value} as JSON`)
}

function pythonString(s: string): string {
  return JSON.stringify(s).replace(
    /[\u007f-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
