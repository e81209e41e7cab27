import { runCli } from '../../src/main/cli/index'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
  /** stdout parsed as JSON, or null for text output. */
  json: unknown
}

/** Runs one `winnow` command line in this process, capturing what it prints. */
export async function cli(...argv: string[]): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    interactive: false,
  })
  let json: unknown = null
  try {
    json = JSON.parse(stdout)
  } catch {
    // text output
  }
  return { code, stdout, stderr, json }
}
