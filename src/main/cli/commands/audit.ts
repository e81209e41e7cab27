import {
  AUDIT_VERDICTS,
  type AuditResult,
  type AuditVerdict,
} from '../../../shared/contract/audits'
import { MAX_SEED } from '../../../shared/stats/sampleKey'
import { drawAudit, judge } from '../../audits/audits'
import { openProject } from '../../db/connection'
import { auditResult } from '../../db/queries/audits'
import { localAuthor } from '../../ratings/author'
import {
  type Command,
  type ParsedValues,
  UsageError,
  dbOption,
  optionalString,
  parseNumber,
  requireString,
} from '../command'
import { filterFromOptions, filterOptionSpec } from './query'
import { plural } from '../../../shared/text'

const percent = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`)

function auditId(positionals: string[]): number {
  const text = positionals[1]
  if (text === undefined) throw new UsageError('name the AUDIT id')
  if (positionals.length > 2) throw new UsageError(`unexpected argument: ${positionals[2] ?? ''}`)
  return parseNumber(text, 'AUDIT', { integer: true, min: 1 })
}

function report(result: AuditResult) {
  return {
    json: {
      judged: result.judged,
      yes: result.yes,
      precision: result.precision,
      low: result.low,
      high: result.high,
    },
    text: `Audit ${result.id} (${result.name}): ${result.yes} yes of ${result.judged} judged (${result.skipped} skipped, ${result.sample} drawn): ${percent(result.precision)}, 95% interval ${percent(result.low)} to ${percent(result.high)}`,
  }
}

function draw(values: ParsedValues) {
  const n = parseNumber(optionalString(values, 'n') ?? '50', 'n', {
    integer: true,
    min: 1,
    max: 10_000,
  })
  const seedText = optionalString(values, 'seed')
  const seed =
    seedText === undefined
      ? undefined
      : parseNumber(seedText, 'seed', { integer: true, min: 0, max: MAX_SEED })
  const marginText = optionalString(values, 'target-margin')
  const targetMargin =
    marginText === undefined
      ? undefined
      : parseNumber(marginText, 'target-margin', { min: 0.001, max: 0.5 })
  const filter = filterFromOptions(values)
  const db = openProject(requireString(values, 'db'))
  try {
    const detail = drawAudit(db, {
      name: optionalString(values, 'name') ?? `Audit of ${new Date().toISOString().slice(0, 10)}`,
      filter,
      n,
      ...(seed !== undefined ? { seed } : {}),
      ...(targetMargin !== undefined ? { targetMargin } : {}),
      author: localAuthor(),
    })
    const items = detail.items.map((i) => i.annotationId)
    return {
      json: { audit: detail.result.id, seed: detail.result.seed, items },
      text: `Audit ${detail.result.id} (seed ${detail.result.seed}): ${plural(items.length, 'annotation')}\n${items.join('\n')}`,
    }
  } finally {
    db.close()
  }
}

export const auditCommand: Command = {
  name: 'audit',
  summary:
    'Spot-check audits: draw a seeded sample, judge items, report precision with a 95% interval',
  usage: [
    'winnow audit draw --db P [--n 50] [--seed S] [--name TEXT] [--target-margin X] [query filters] [--json]',
    '       winnow audit judge AUDIT --db P --item ANNOTATION --verdict yes|no|skip [--note TEXT]',
    '       winnow audit report AUDIT --db P [--json]',
    '  query filters: --worker W... --story S... --dimension N... --sentence TEXT --text TEXT',
    '                 --from YYYY-MM-DD --to YYYY-MM-DD --rating R|unrated... --flagged',
    '  report: judged counts yes and no (skip is not judged); Wilson score interval, z = 1.96',
  ].join('\n'),
  positionals: true,
  options: {
    ...dbOption,
    ...filterOptionSpec,
    n: { type: 'string' },
    seed: { type: 'string' },
    name: { type: 'string' },
    'target-margin': { type: 'string' },
    item: { type: 'string' },
    verdict: { type: 'string' },
    note: { type: 'string' },
  },
  run(values, positionals) {
    const action = positionals[0]
    if (action === 'draw') {
      if (positionals.length > 1)
        throw new UsageError(`unexpected argument: ${positionals[1] ?? ''}`)
      return draw(values)
    }
    if (action === 'judge') {
      const id = auditId(positionals)
      const item = parseNumber(requireString(values, 'item'), 'item', { integer: true, min: 1 })
      const verdict = requireString(values, 'verdict')
      if (!AUDIT_VERDICTS.includes(verdict as AuditVerdict))
        throw new UsageError(
          `--verdict must be one of ${AUDIT_VERDICTS.join(', ')}, got '${verdict}'`,
        )
      const db = openProject(requireString(values, 'db'))
      try {
        const detail = judge(db, {
          auditId: id,
          annotationId: item,
          verdict: verdict as AuditVerdict,
          note: optionalString(values, 'note'),
          author: localAuthor(),
        })
        return report(detail.result)
      } finally {
        db.close()
      }
    }
    if (action === 'report') {
      const id = auditId(positionals)
      const db = openProject(requireString(values, 'db'))
      try {
        return report(auditResult(db, id))
      } finally {
        db.close()
      }
    }
    throw new UsageError('name an action: draw, judge or report')
  },
}
