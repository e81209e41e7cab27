import { ratingKey } from '../../shared/ratings/key'
import { type ReleaseFacts, ROW_ORDER, isoTime } from './facts'
import { draftNotice } from './draft'

/** A Markdown table cell: crowd text never breaks the table. */
function cell(text: string | number): string {
  return String(text)
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
}

/** A Markdown table as one block of lines: a release may list any number of change sets. */
function table(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [
    `| ${head.map(cell).join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n')
}

function partName(part: string): string {
  return part === 'all' ? '(no split)' : part
}

/**
 * datasheet.md: the release described from its own data — counts per tier, dimension and split,
 * workers per tier, the rating scale and tier map, the change sets and policies behind the
 * ratings, audits, the rating snapshot, and what was left out and why.
 */
export function buildDatasheet(facts: ReleaseFacts): string {
  const o = facts.options
  const parts = facts.tally.sorted()
  const lines: string[] = [
    `# Datasheet: ${facts.card.name}`,
    '',
    facts.card.description,
    '',
    `Made by Winnow ${facts.winnowVersion} from project “${facts.projectName}” on ${isoTime(facts.createdAt) ?? ''}.`,
    '',
    ...draftNotice(facts),
    '## Scope',
    '',
    `- Annotations: ${facts.scope}.`,
    `- Ratings as of: ${o.asOf === undefined ? 'the time of export' : (isoTime(o.asOf) ?? '')}.`,
    `- Rating snapshot (the last rating change the release reflects): ${isoTime(facts.ratingSnapshot) ?? 'no ratings recorded'}.`,
    ...(facts.teamMembers === undefined
      ? []
      : [
          `- Team members whose change sets the release includes: ${facts.teamMembers.join(', ') || 'none yet (nothing placed in the team’s log)'}.`,
        ]),
    `- Tiers released: ${facts.tiers.join(', ') || 'none'}. Formats: ${o.formats.join(', ')}.`,
    `- Worker ids: ${o.pseudonymize ? 'pseudonymous integers (a stable map kept in the project, not released); worker ids in descriptions, notes, names and filters are written as the same pseudonyms' : 'as collected'}.`,
    `- Formula neutralisation: ${o.neutralizeFormulas ? 'on (cells starting with = + - @ tab or CR are prefixed with \u2019)' : 'off (text as written)'}.`,
    `- ${ROW_ORDER}`,
    '',
    '## Counts per tier and split',
    '',
    table(
      ['tier', 'split', 'submissions', 'annotations', 'workers', 'stories'],
      parts.map((p) => [
        p.tier,
        partName(p.part),
        p.submissions,
        p.annotations,
        p.workers.size,
        p.stories.size,
      ]),
    ),
    '',
    '### Workers per tier',
    '',
    table(
      ['tier', 'workers'],
      facts.tiers.map((t) => [t, facts.tally.workersOfTier(t)]),
    ),
    '',
    '### Annotations per dimension',
    '',
    table(
      ['tier', 'split', ...Array.from({ length: 10 }, (_, i) => `dim ${i + 1}`)],
      parts.map((p) => [p.tier, partName(p.part), ...p.byDimension.slice(1)]),
    ),
    '',
    '## Rating scale and tier map',
    '',
    table(
      ['rating', 'label', 'tier'],
      facts.scale.map((l) => [
        ratingKey(l.value),
        l.label,
        facts.tierMap.find((s) => s.rating === l.value)?.tier ?? 'left out',
      ]),
    ),
    '',
    'Annotations by effective rating in the scope, before the tier map:',
    '',
    table(
      ['rating', 'annotations'],
      [...facts.tally.byRating].sort(byRatingDesc).map(([r, n]) => [r, n]),
    ),
    '',
  ]
  if (facts.split) {
    const s = o.split
    lines.push(
      '## Split',
      '',
      `Held-out stories were drawn from tier ${s?.tier ?? ''} (${facts.split.candidates} stories with work in that tier), ` +
        `seed “${s?.seed ?? ''}”: ${facts.split.test} for test${facts.split.dev > 0 ? `, ${facts.split.dev} for dev` : ''}. ` +
        'A held-out story’s work in other tiers is left out, so no story is on two sides.',
      '',
    )
  }
  const policies = facts.changeSets.filter((c) => c.kind === 'policy')
  lines.push('## Policies applied', '')
  if (policies.length === 0) lines.push('No policy change sets.', '')
  else {
    lines.push(
      table(
        [
          'change set',
          'policy',
          'script SHA-256',
          'when',
          'author',
          'what',
          'annotations changed',
          'reverted by',
        ],
        policies.map((c) => [
          c.id,
          c.policyName ?? '',
          c.policySha256 ?? '',
          isoTime(c.createdAt) ?? '',
          c.author,
          c.description,
          c.changed ?? '',
          c.revertedBy ?? '',
        ]),
      ),
      '',
    )
  }
  lines.push('## Rating change sets', '')
  const ratingSets = facts.changeSets.filter((c) => c.kind !== 'import')
  if (ratingSets.length === 0) lines.push('None: every rating comes from the imported files.', '')
  else {
    lines.push(
      table(
        ['change set', 'kind', 'when', 'author', 'what', 'annotations changed', 'reverted by'],
        ratingSets.map((c) => [
          c.id,
          c.kind,
          isoTime(c.createdAt) ?? '',
          c.author,
          c.description,
          c.changed ?? '',
          c.revertedBy ?? '',
        ]),
      ),
      '',
    )
  }
  lines.push('## Audits', '')
  if (facts.audits.length === 0) lines.push('No audits recorded.', '')
  else {
    lines.push(
      table(
        ['audit', 'what', 'finished', 'sampled', 'passed', 'precision', 'interval'],
        facts.audits.map((a) => [
          a.id,
          a.description,
          isoTime(a.finishedAt) ?? '',
          a.sampled,
          a.passed,
          a.precision.toFixed(3),
          `${a.interval.low.toFixed(3)}–${a.interval.high.toFixed(3)} (${Math.round(a.interval.confidence * 100)}%)`,
        ]),
      ),
      '',
    )
  }
  lines.push('## Left out', '')
  if (facts.tally.leftOut.size === 0) lines.push('Nothing in the scope was left out.', '')
  else {
    lines.push(
      table(
        ['reason', 'annotations'],
        [...facts.tally.leftOut].sort().map(([reason, n]) => [reason, n]),
      ),
      '',
    )
  }
  lines.push('## Sources', '')
  if (facts.inputs.length === 0) lines.push('No imported files.', '')
  else {
    lines.push(
      table(
        ['file', 'format', 'records', 'sha256'],
        facts.inputs.map((f) => [f.name, f.format, f.records, f.sha256]),
      ),
      '',
    )
  }
  return lines.join('\n')
}

function byRatingDesc([a]: [string, number], [b]: [string, number]): number {
  const x = a === 'unrated' ? -Infinity : Number(a)
  const y = b === 'unrated' ? -Infinity : Number(b)
  return y - x
}
