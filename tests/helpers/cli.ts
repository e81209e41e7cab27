import { runCli } from '../../src/main/cli/index'
import { expect } from 'vitest'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
  /** stdout parsed as JSON, or null for text output. */
  json: unknown
}

/** Runs one `winnow` command line in this process, capturing what it prints. */
export function cli(...argv: string[]): Promise<CliRun> {
  return run(argv, false)
}

/** As `cli`, with stderr taken for a terminal: commands draw their progress there. */
export function cliOnTerminal(...argv: string[]): Promise<CliRun> {
  return run(argv, true)
}

async function run(argv: string[], interactive: boolean): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    interactive,
  })
  let json: unknown = null
  try {
    json = JSON.parse(stdout)
  } catch {
    // text output
  }
  return { code, stdout, stderr, json }
}

/** Runs `argv` with `--json`, expects it to succeed and returns what it printed. */
export async function ok(...argv: string[]): Promise<Record<string, unknown>> {
  const result = await cli(...argv, '--json')
  expect(result.code, result.stderr).toBe(0)
  return result.json as Record<string, unknown>
}
