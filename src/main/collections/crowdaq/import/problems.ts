import { UserError } from '../../../../shared/contract/errors'

export type JsonPath = readonly (string | number)[]

/** One thing wrong with an input file: where (file, line, column, JSON path) and what. */
export interface CrowdaqProblem {
  file: string
  line: number
  column: number
  /** `$.question_set[3].answer`; empty for a file-level problem. */
  path: string
  message: string
}

export function formatPath(path: JsonPath): string {
  let out = '$'
  for (const part of path) {
    out +=
      typeof part === 'number'
        ? `[${part}]`
        : /^[A-Za-z_$][\w$]*$/.test(part)
          ? `.${part}`
          : `[${JSON.stringify(part)}]`
  }
  return out
}

function describeProblem(p: CrowdaqProblem): string {
  const at = p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file
  return `${at}: ${p.path ? `${p.path}: ` : ''}${p.message}`
}

const SHOWN = 20

/**
 * Bad CROWDAQ input: every problem found, each with its location and JSON path. Nothing of the
 * import was written.
 */
export class CrowdaqInputError extends UserError {
  readonly problems: CrowdaqProblem[]

  constructor(problems: CrowdaqProblem[]) {
    const first = problems[0]
    const lines = problems.slice(0, SHOWN).map(describeProblem)
    if (problems.length > SHOWN) lines.push(`… and ${problems.length - SHOWN} more problems`)
    super({
      type: 'input',
      code: 'crowdaq-invalid',
      message:
        problems.length === 1
          ? `${lines[0] ?? ''}`
          : `${problems.length} problems; nothing was imported:\n${lines.join('\n')}`,
      ...(first
        ? {
            file: first.file,
            ...(first.line > 0 ? { line: first.line, column: first.column } : {}),
            ...(first.path ? { field: first.path } : {}),
          }
        : {}),
    })
    this.name = 'CrowdaqInputError'
    this.problems = problems
  }
}
