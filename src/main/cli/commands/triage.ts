import { isDay } from '../../../shared/filter'
import { openProject } from '../../db/connection'
import { triageReport } from '../../triage/report'
import {
  type Command,
  type ParsedValues,
  UsageError,
  dbOption,
  optionalString,
  requireString,
} from '../command'
import { plural } from '../../../shared/text'

function day(values: ParsedValues, name: string): string | undefined {
  const value = optionalString(values, name)
  if (value !== undefined && !isDay(value))
    throw new UsageError(`--${name} must be a date YYYY-MM-DD, got '${value}'`)
  return value
}

const seconds = (s: number | null) => (s === null ? '–' : `${Math.round(s)} s`)

export const triageCommand: Command = {
  name: 'triage',
  summary: "Per worker figures of a day's (or a range's) new submissions, with flags",
  usage: [
    'winnow triage --db P [--date YYYY-MM-DD | --from YYYY-MM-DD --to YYYY-MM-DD] [--json]',
    '  default: the days since the last triage queue (or the last day with submissions)',
  ].join('\n'),
  options: {
    ...dbOption,
    date: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
  },
  run(values) {
    const date = day(values, 'date')
    const from = day(values, 'from')
    const to = day(values, 'to')
    if (date !== undefined && (from !== undefined || to !== undefined))
      throw new UsageError('give either --date or --from/--to')
    if (from !== undefined && to !== undefined && from > to)
      throw new UsageError(`--from ${from} is after --to ${to}`)
    const range = date !== undefined ? { from: date, to: date } : { from, to }
    const db = openProject(requireString(values, 'db'))
    try {
      const report = triageReport(db, {
        ...(range.from !== undefined ? { from: range.from } : {}),
        ...(range.to !== undefined ? { to: range.to } : {}),
      })
      const workers = report.workers.map((w) => ({
        workerId: w.workerId,
        submissions: w.submissions,
        avgDimensions: w.avgDimensions,
        medianWorkSeconds: w.medianWorkSeconds,
        minimalShare: w.minimalShare,
        flags: w.flags,
      }))
      const text = [
        `${report.from} to ${report.to}: ${plural(workers.length, 'worker')}`,
        ...workers.map(
          (w) =>
            `${w.workerId}\t${plural(w.submissions, 'submission')}\t${w.avgDimensions.toFixed(2)} dims\t${seconds(w.medianWorkSeconds)}\t${(w.minimalShare * 100).toFixed(0)}% minimal${w.flags.length ? `\t${w.flags.join(', ')}` : ''}`,
        ),
        ...(workers.some((w) => w.medianWorkSeconds === null)
          ? [
              `– : no MTurk accept and submit times in the files (release files carry none); rushing rests on the minimal share alone (at least ${Math.round(report.settings.rushMinimalShare * 100)}%)`,
            ]
          : []),
      ].join('\n')
      return { json: { from: report.from, to: report.to, workers }, text }
    } finally {
      db.close()
    }
  },
}
