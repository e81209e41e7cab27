/**
 * Pagination as the service does it: MaxResults 1–100 (default 10), an opaque NextToken, no token
 * on the last page. A full page that ends exactly at the last item still carries a token, and the
 * page after it is empty — clients must tolerate that (FORMATS §3.3).
 */
import type { Args } from './validate'
import { invalidParameter } from './wire'

export interface Page<T> {
  items: T[]
  NumResults: number
  NextToken?: string
}

/** `scope` ties a token to one list (operation + filter), so a token cannot be replayed elsewhere. */
export function paginate<T>(all: readonly T[], args: Args, scope: string): Page<T> {
  const max = args.optInt('MaxResults') ?? 10
  const token = args.optStr('NextToken')
  const offset = token === undefined ? 0 : decode(token, scope)
  const items = all.slice(offset, offset + max)
  const end = offset + items.length
  const full = items.length === max
  return {
    items,
    NumResults: items.length,
    ...(end < all.length || (full && end === all.length) ? { NextToken: encode(end, scope) } : {}),
  }
}

function encode(offset: number, scope: string): string {
  return Buffer.from(JSON.stringify({ s: scope, o: offset })).toString('base64')
}

function decode(token: string, scope: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as unknown
    if (typeof parsed === 'object' && parsed !== null) {
      const { s, o } = parsed as { s?: unknown; o?: unknown }
      if (s === scope && typeof o === 'number' && Number.isInteger(o) && o >= 0) return o
    }
  } catch {
    // fall through: any undecodable token is a bad parameter
  }
  throw invalidParameter('NextToken', token)
}
