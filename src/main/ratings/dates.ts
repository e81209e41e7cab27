import { UserError } from '../../shared/contract/errors'

/** Commit dates are days: `YYYY-MM-DD` ↔ epoch seconds at 00:00 UTC (how submission days are stored). */

export function parseDay(text: string, field = 'from'): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN
  // Date.UTC rolls 2019-02-30 over to March; a real date formats back to itself.
  if (!match || Number.isNaN(ms) || formatDay(ms / 1000) !== text) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'bad-date',
      message: `${field}: '${text}' is not a date (YYYY-MM-DD).`,
      field,
    })
  }
  return ms / 1000
}

export function formatDay(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10)
}

export function today(now = Date.now()): number {
  return Math.floor(now / 86_400_000) * 86_400
}

/**
 * A moment for "as of": epoch milliseconds (13 digits), epoch seconds (10 digits or fewer), or an
 * ISO date/time (`2019-10-01` = 00:00 UTC that day). Returns epoch ms.
 */
export function parseMoment(text: string, field = 'as-of'): number {
  const trimmed = text.trim()
  let ms: number
  if (/^\d+$/.test(trimmed)) {
    const n = Number(trimmed)
    ms = trimmed.length <= 10 ? n * 1000 : n
  } else if (/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
    ms = parseDay(trimmed, field) * 1000
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) {
    ms = Date.parse(trimmed)
  } else {
    ms = NaN
  }
  if (!Number.isSafeInteger(ms)) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'bad-moment',
      message: `${field}: '${text}' is not a moment (epoch ms, epoch s, or ISO date/time).`,
      field,
    })
  }
  // Moments are kept from 1970 on; nothing of a project was recorded before then.
  if (ms < 0) {
    throw new UserError({
      type: 'invalid-argument',
      code: 'bad-moment',
      message: `${field}: '${text}' is before 1970, before any project began: nothing was recorded then.`,
      field,
    })
  }
  return ms
}
