import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { UserError } from '../../../shared/contract/errors'
import type { PolicyApplied, PolicyReport } from '../../../shared/contract/policies'
import { ratingKey } from '../../../shared/ratings/key'
import { type Db, TempStore, openProject } from '../../db/connection'
import { localAuthor } from '../../ratings/author'
import { type PolicyInput, applyPolicy, dryRunPolicy } from '../../policies/run'
import {
  type Command,
  type CommandOutput,
  type ParsedValues,
  UsageError,
  dbOption,
  optionalString,
  parseNumber,
  requireString,
  stringList,
} from '../command'
import { plural } from '../../../shared/text'

const USAGE = `winnow policy run FILE --db P [--param name=value]... [--dry-run] [--json]
       winnow policy init FILE`

/** `--param name=value`, repeated; a name given twice is a usage error. */
function parseParams(values: ParsedValues): Record<string, string> {
  const out: Record<string, string> = {}
  for (const item of stringList(values, 'param')) {
    const eq = item.indexOf('=')
    if (eq <= 0) throw new UsageError(`--param must be name=value, got '${item}'`)
    const name = item.slice(0, eq)
    if (Object.hasOwn(out, name)) throw new UsageError(`--param ${name} is given twice`)
    out[name] = item.slice(eq + 1)
  }
  return out
}

function readPolicy(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new UserError({
      type: 'not-found',
      code: 'no-such-file',
      message: `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      file,
    })
  }
}

function reportText(r: PolicyReport | PolicyApplied, dryRun: boolean): string {
  const lines = [
    `Policy ${r.name} (${r.sha256.slice(0, 12)})${dryRun ? ' — dry run, nothing changed' : ''}`,
  ]
  lines.push('Rules (an annotation is moved by the first rule that selects it):')
  r.rules.forEach((rule, i) => {
    lines.push(
      `  ${i + 1}. ${rule.name} (to ${ratingKey(rule.to)}): ${plural(rule.annotations, 'annotation')}, ${plural(rule.workers, 'worker')}`,
    )
  })
  lines.push('Transitions:')
  for (const t of r.transitions) {
    lines.push(`  ${ratingKey(t.from)} → ${ratingKey(t.to)}: ${t.annotations}`)
  }
  lines.push(`${plural(r.changed, 'annotation')} ${dryRun ? 'would change' : 'changed'}`)
  if ('changeSet' in r && r.changeSet !== null) lines.push(`Change set ${r.changeSet}`)
  return lines.join('\n')
}

function reportJson(r: PolicyReport | PolicyApplied): unknown {
  return {
    rules: r.rules.map((rule) => ({
      name: rule.name,
      annotations: rule.annotations,
      workers: rule.workers,
    })),
    transitions: r.transitions,
    changed: r.changed,
    ...('changeSet' in r ? { changeSet: r.changeSet } : {}),
  }
}

async function run(values: ParsedValues, file: string): Promise<CommandOutput> {
  const input: PolicyInput = {
    source: readPolicy(file),
    fileName: file,
    params: parseParams(values),
    limits: {
      ...(optionalString(values, 'time-limit') !== undefined
        ? {
            timeMs:
              parseNumber(optionalString(values, 'time-limit') ?? '', 'time-limit', { min: 0.01 }) *
              1000,
          }
        : {}),
      ...(optionalString(values, 'seed') !== undefined
        ? { seed: parseNumber(optionalString(values, 'seed') ?? '', 'seed', { integer: true }) }
        : {}),
    },
  }
  const db = openForPolicy(requireString(values, 'db'))
  try {
    const dryRun = values['dry-run'] === true
    const result = dryRun
      ? await dryRunPolicy(db, input)
      : await applyPolicy(db, { ...input, author: localAuthor() })
    return { json: reportJson(result), text: reportText(result, dryRun) }
  } finally {
    db.close()
  }
}

/**
 * The project as a policy run opens it. Not memory-mapped: an apply touches most of a large
 * project, and each mapped page it reads stays in the process's memory until the end. Temporary
 * tables on disk: the moves a policy selects hold a row per annotation moved (millions at ten
 * million annotations). A small page cache: the run reads most of the project once.
 */
export function openForPolicy(path: string): Db {
  const db = openProject(path, { memoryMap: false, cacheMb: 16 })
  db.pragma(`temp_store = ${TempStore.file}`)
  return db
}

/** The shipped files are bundled text (`?raw`), loaded only by the command that writes them. */
async function init(file: string): Promise<CommandOutput> {
  const { API_TYPES, STARTER } = await import('../../policies/shipped')
  const types = join(dirname(file), API_TYPES.fileName)
  if (existsSync(file)) throw new UsageError(`${file} exists already; choose another name`)
  writeFileSync(file, STARTER.source)
  const wroteTypes = !existsSync(types) || readFileSync(types, 'utf8') !== API_TYPES.source
  if (wroteTypes) writeFileSync(types, API_TYPES.source)
  return {
    json: { policy: file, types },
    text: `Wrote ${file}${wroteTypes ? ` and ${basename(types)}` : ''} (the policy API's types, for your editor).`,
  }
}

export const policyCommand: Command = {
  name: 'policy',
  summary: 'Write, dry run and apply a re-rating policy script (one change set; revert undoes it)',
  usage: USAGE,
  positionals: true,
  options: {
    ...dbOption,
    param: { type: 'string', multiple: true },
    'dry-run': { type: 'boolean' },
    'time-limit': { type: 'string' },
    seed: { type: 'string' },
  },
  run(values, positionals) {
    const [action, file, ...rest] = positionals
    if (rest.length > 0 || file === undefined) throw new UsageError('name one FILE')
    if (action === 'run') return run(values, file)
    if (action === 'init') return init(file)
    throw new UsageError(`unknown action '${action ?? ''}'; use run or init`)
  },
}
