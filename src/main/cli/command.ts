import type { ParseArgsConfig } from 'node:util'

export type OptionSpec = NonNullable<ParseArgsConfig['options']>

export type ParsedValues = Record<string, string | boolean | string[] | boolean[] | undefined>

export interface CommandIo {
  stdout(text: string): void
  stderr(text: string): void
  /** True when stderr is a terminal: commands may draw progress there. */
  interactive: boolean
}

/**
 * One `winnow <name>` command. `run` returns the JSON document printed with `--json`, and the
 * human-readable text otherwise.
 */
export interface Command {
  name: string
  summary: string
  usage: string
  options: OptionSpec
  /** Whether positional arguments are accepted. */
  positionals?: boolean
  run(
    values: ParsedValues,
    positionals: string[],
    io: CommandIo,
  ): Promise<CommandOutput> | CommandOutput
}

export interface CommandOutput {
  json: unknown
  text: string
  /** 1 when the command ran but part of what it did failed (printed in the output). */
  exitCode?: 0 | 1
  /** The command wrote its --json document itself, page by page (a long listing): print nothing. */
  jsonWritten?: boolean
}

/** A usage error (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

export function requireString(values: ParsedValues, name: string): string {
  const value = values[name]
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`)
  return value
}

export function optionalString(values: ParsedValues, name: string): string | undefined {
  const value = values[name]
  return typeof value === 'string' ? value : undefined
}

export function stringList(values: ParsedValues, name: string): string[] {
  const value = values[name]
  if (value === undefined) return []
  return (Array.isArray(value) ? value : [value]).map(String)
}

export function parseNumber(
  text: string,
  name: string,
  { integer = false, min, max }: { integer?: boolean; min?: number; max?: number } = {},
): number {
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'}, got '${text}'`)
  }
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    const range =
      max === undefined
        ? `at least ${min}`
        : min === undefined
          ? `at most ${max}`
          : `from ${min} to ${max}`
    throw new UsageError(`--${name} must be ${range}, got ${value}`)
  }
  return value
}

export const dbOption: OptionSpec = {
  db: { type: 'string' },
  json: { type: 'boolean' },
}
