import type { PlannedQualification } from '../../../shared/crowdaq/contract'
import { openProject } from '../../db/connection'
import { gradeExam, requireExam } from './grade'
import { applyBands, bandsDryRun, describeQualifying } from './qualify'
import { buildExamReport } from './report'
import { projectId } from '../../mturk/settings'
import { localAuthor } from '../../ratings/author'
import { type Command, UsageError, requireString } from '../../cli/command'
import {
  MTURK_USAGE_TAIL,
  cancellable,
  cliConnection,
  mturkOptions,
} from '../../cli/commands/mturkOptions'
import { plural } from '../../../shared/text'

const pct = (grade: number): string => `${Math.round(grade * 100)}%`

export const examCommand: Command = {
  name: 'exam',
  summary: 'Grade a CROWDAQ exam, report on its questions, qualify workers by band',
  usage: [
    'winnow exam grade EXAM_ID --db P [--json]',
    'winnow exam report EXAM_ID --db P [--json]',
    `winnow exam qualify EXAM_ID [--dry-run] ${MTURK_USAGE_TAIL}`,
  ].join('\n'),
  positionals: true,
  options: { ...mturkOptions, 'dry-run': { type: 'boolean' } },
  async run(values, positionals) {
    const [action, examId, ...extra] = positionals
    if (action !== 'grade' && action !== 'report' && action !== 'qualify') {
      throw new UsageError('name an action: grade, report, qualify')
    }
    if (!examId) throw new UsageError('give the EXAM_ID')
    if (extra.length > 0) throw new UsageError(`unexpected argument: ${extra[0] ?? ''}`)
    const dbPath = requireString(values, 'db')
    if (action === 'qualify') {
      const dryRun = values['dry-run'] === true
      if (dryRun) {
        const db = openProject(dbPath)
        try {
          const r = bandsDryRun(db, examId)
          return { json: r, text: describePlan(r.planned, true) }
        } finally {
          db.close()
        }
      }
      return cancellable(async (signal) => {
        const db = openProject(dbPath)
        try {
          requireExam(db, examId)
          const connection = cliConnection(values, signal)
          try {
            const r = await applyBands(
              {
                db,
                ctx: connection,
                endpoint: connection.url,
                projectId: projectId(db),
                author: localAuthor(),
              },
              examId,
            )
            const text = `${describePlan(r.planned, false)}\n${describeQualifying(r)}`
            return { json: r, text }
          } finally {
            connection.close()
          }
        } finally {
          db.close()
        }
      })
    }
    const db = openProject(dbPath)
    try {
      if (action === 'grade') {
        const attempts = gradeExam(db, examId).graded.map((a) => ({
          workerId: a.workerId,
          attempt: a.attempt,
          grade: a.grade,
          band: a.band,
          flags: a.flags,
        }))
        const text = attempts
          .map(
            (a) =>
              `${a.workerId}\t#${a.attempt}\t${pct(a.grade)}\t${a.band ?? '-'}${a.flags.length ? `\t${a.flags.join(',')}` : ''}`,
          )
          .join('\n')
        return { json: { attempts }, text: text || 'No attempts.' }
      }
      const report = buildExamReport(db, examId)
      const text = [
        `${plural(report.attempts, 'attempt')} by ${plural(report.workers, 'worker')}`,
        ...(report.untimed > 0
          ? [
              `${plural(report.untimed, 'attempt')} ${report.untimed === 1 ? 'carries' : 'carry'} no start time: not checked against the time limit`,
            ]
          : []),
        `grades: ${Object.entries(report.grades)
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([g, n]) => `${g}%: ${n}`)
          .join(', ')}`,
        ...report.questions.map(
          (q) =>
            `${q.questionId}\tshown ${q.shown}\tcorrect ${q.correct}\tD ${q.discrimination === null ? '-' : q.discrimination.toFixed(2)}\t${JSON.stringify(q.responses)}${q.revise ? '\trevise' : ''}`,
        ),
      ].join('\n')
      return { json: report, text }
    } finally {
      db.close()
    }
  },
}

function describePlan(planned: readonly PlannedQualification[], dryRun: boolean): string {
  if (planned.length === 0) return 'No worker is in a band with a qualification.'
  return planned
    .map(
      (p) =>
        `${dryRun ? 'would qualify' : 'qualify'} ${p.workerId} (${p.band}) ${p.qualificationTypeId} = ${p.value}${p.alreadySent ? ' (already sent)' : ''}`,
    )
    .join('\n')
}
