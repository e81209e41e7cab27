import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { UserError } from '../../../shared/contract/errors'
import { type ProtoqaFormat, protoqaFormats } from '../../../shared/protoqa/model'
import { exactMatch, scoreAll } from '../../../shared/protoqa/scoring'
import { openProject } from '../../db/connection'
import { protoqaExport } from './release/command'
import { readPredictions } from './import/predictions'
import { readProtoqaQuestions } from './import/questions'
import { describeProtoqaImport, importProtoqaFiles } from './import/run'
import { readTextFile } from './import/text'
import { agreement } from './agreement'
import { loadWordNet, wordnetSimilarity } from './wordnet'
import {
  type Command,
  type CommandIo,
  type CommandOutput,
  type ParsedValues,
  UsageError,
  optionalString,
  requireString,
} from '../../cli/command'
import { progressLine } from '../../cli/progress'
import { plural } from '../../../shared/text'

const USAGE = `winnow protoqa import FILE... --db P [--format ${protoqaFormats.join('|')}] [--json]
       winnow protoqa score --targets FILE --predictions FILE [--similarity exact|wordnet] [--json]
       winnow protoqa agreement --db P [--question ID] [--json]
       winnow protoqa export --db P --out FILE [--datasheet FILE] [--json]`

export const protoqaCommand: Command = {
  name: 'protoqa',
  summary: 'ProtoQA: import questions, answers and predictions; score; agreement; export',
  usage: USAGE,
  positionals: true,
  options: {
    db: { type: 'string' },
    json: { type: 'boolean' },
    format: { type: 'string' },
    targets: { type: 'string' },
    predictions: { type: 'string' },
    similarity: { type: 'string' },
    question: { type: 'string' },
    out: { type: 'string' },
    datasheet: { type: 'string' },
  },
  run(values, positionals, io) {
    const [sub, ...files] = positionals
    if (sub === 'import') return importCommand(values, files, io)
    if (files.length > 0) throw new UsageError(`protoqa ${sub ?? ''} takes no FILE arguments`)
    if (sub === 'score') return scoreCommand(values)
    if (sub === 'agreement') return agreementCommand(values)
    if (sub === 'export') return exportCommand(values)
    throw new UsageError(
      sub === undefined
        ? 'name a protoqa command: import, score, agreement or export'
        : `unknown protoqa command '${sub}'`,
    )
  },
}

function mustExist(file: string): void {
  if (!existsSync(file))
    throw new UserError({
      type: 'not-found',
      code: 'no-such-file',
      message: `${file}: no such file`,
      file,
    })
}

function importCommand(values: ParsedValues, files: string[], io: CommandIo): CommandOutput {
  const dbPath = requireString(values, 'db')
  if (files.length === 0) throw new UsageError('name at least one FILE to import')
  const format = optionalString(values, 'format')
  if (format !== undefined && !(protoqaFormats as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${protoqaFormats.join(', ')}`)
  files.forEach(mustExist)
  const db = openProject(dbPath, { create: true, memoryMap: false })
  try {
    const progress = io.interactive ? progressLine(io, 'bytes', 'rows') : undefined
    const result = importProtoqaFiles(
      db,
      files.map((f) => ({
        path: resolve(f),
        ...(format ? { format: format as ProtoqaFormat } : {}),
      })),
      { author: 'cli' },
      progress ? { progress: (p) => progress.update(p.done, p.total, p.records, p.step) } : {},
    )
    progress?.done()
    const warnings = result.files.flatMap((f) => f.warnings.map((w) => `${f.file}: ${w}`))
    return {
      json: {
        questions: result.questions,
        answers: result.answers,
        clusters: result.clusters,
        responses: result.responses,
        predictions: result.predictions,
        warnings,
      },
      text: [
        `Added ${describeProtoqaImport(result)}`,
        ...warnings.map((w) => `warning: ${w}`),
      ].join('\n'),
    }
  } finally {
    db.close()
  }
}

function scoreCommand(values: ParsedValues): CommandOutput {
  const targetsPath = requireString(values, 'targets')
  const predictionsPath = requireString(values, 'predictions')
  const similarity = optionalString(values, 'similarity') ?? 'exact'
  if (similarity !== 'exact' && similarity !== 'wordnet')
    throw new UsageError(`--similarity must be exact or wordnet, got '${similarity}'`)
  mustExist(targetsPath)
  mustExist(predictionsPath)
  const { records } = readProtoqaQuestions(readTextFile(targetsPath))
  const questions = records.map((r) => ({
    id: r.id,
    question: r.normalized,
    clusters: r.clusters.map((c) => ({ id: c.label, count: c.count, answers: c.answers })),
  }))
  const predictions = readPredictions(readTextFile(predictionsPath))
  const loadStart = process.hrtime.bigint()
  const measure = similarity === 'wordnet' ? wordnetSimilarity(loadWordNet()) : exactMatch
  const loadSeconds = Number(process.hrtime.bigint() - loadStart) / 1e9
  const report = scoreAll(questions, predictions, measure)
  const text = [
    ...(similarity === 'wordnet' ? [`WordNet read in ${loadSeconds.toFixed(1)} s`] : []),
    ...Object.entries(report.metrics).map(([name, m]) => `${name}: ${m.mean.toFixed(5)}`),
    ...(report.missing.length
      ? [`${plural(report.missing.length, 'question')} had no predictions (scored 0)`]
      : []),
  ].join('\n')
  return { json: report, text }
}

function agreementCommand(values: ParsedValues): CommandOutput {
  const db = openProject(requireString(values, 'db'))
  try {
    const question = optionalString(values, 'question')
    const report = agreement(db, question)
    if (question !== undefined && report.questions.length === 0)
      throw new UserError({
        type: 'not-found',
        code: 'no-agreement',
        message: `${question}: no such question, or fewer than two reviewers clustered it`,
      })
    const f = (x: number): string => x.toFixed(4)
    const text = [
      ...report.questions.map(
        (q) =>
          `${q.question} (${q.reviewers.join(' vs ')}): BLANC ${f(q.blanc.blanc)}  F(C) ${f(q.blanc.c.f)}  F(N) ${f(q.blanc.n.f)}`,
      ),
      report.overall
        ? `overall (${plural(report.overall.questions, 'question')}): BLANC ${f(report.overall.blanc)}`
        : 'No question was clustered by two reviewers.',
    ].join('\n')
    return { json: report, text }
  } finally {
    db.close()
  }
}

function exportCommand(values: ParsedValues): CommandOutput {
  const datasheet = optionalString(values, 'datasheet')
  return protoqaExport(
    requireString(values, 'db'),
    resolve(requireString(values, 'out')),
    datasheet ? resolve(datasheet) : undefined,
  )
}
