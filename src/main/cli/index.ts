import { parseArgs } from 'node:util'
import { formatLocation } from '../../shared/contract/errors'
import { toErrorInfo } from '../api/errors'
import { type Command, type CommandIo, type OptionSpec, UsageError } from './command'
import { commands } from './commands'
import { append } from '../../shared/lists'

const HELP = `winnow — turn raw crowd work into a released dataset

Usage: winnow <command> [options]   (winnow <command> --help for its options)

Commands:
${commands.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join('\n')}

Every command takes --db FILE (the project file) and --json (one JSON document on stdout).
Exit codes: 0 success, 1 failure (message on stderr), 2 usage error.`

/** Runs one command line; returns the exit code. */
export async function runCli(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(HELP + '\n')
    return name ? 0 : 2
  }
  const command = commands.find((c) => c.name === name)
  if (!command) {
    io.stderr(`winnow: unknown command '${name}'\n\n${HELP}\n`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`${command.summary}\n\nUsage: ${command.usage}\n`)
    return 0
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] }
  try {
    parsed = parseArgs({
      args: attachNegativeValues(rest, command.options),
      options: command.options,
      allowPositionals: command.positionals ?? false,
      strict: true,
    })
  } catch (error) {
    io.stderr(`winnow ${name}: ${(error as Error).message}\nUsage: ${command.usage}\n`)
    return 2
  }
  return execute(command, parsed.values as never, parsed.positionals, io)
}

/**
 * `--rating -1` reads as `--rating=-1`: a value that starts with a dash and a digit after an option
 * that takes a value is that option's value (half of a rating scale is negative), where Node's
 * parser would take it for an option. Options never start with a digit, so nothing else changes.
 */
export function attachNegativeValues(args: readonly string[], options: OptionSpec): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') {
      append(out, args.slice(i))
      break
    }
    const next = args[i + 1]
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined
    if (name && options[name]?.type === 'string' && next !== undefined && NEGATIVE.test(next)) {
      out.push(`${arg}=${next}`)
      i++
    } else {
      out.push(arg)
    }
  }
  return out
}

const NEGATIVE = /^-\.?\d/

async function execute(
  command: Command,
  values: Parameters<Command['run']>[0],
  positionals: string[],
  io: CommandIo,
): Promise<number> {
  try {
    const output = await command.run(values, positionals, io)
    if (values.json && output.jsonWritten) return output.exitCode ?? 0
    io.stdout(
      values.json
        ? JSON.stringify(output.json) + '\n'
        : output.text + (output.text.endsWith('\n') ? '' : '\n'),
    )
    return output.exitCode ?? 0
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`winnow ${command.name}: ${error.message}\nUsage: ${command.usage}\n`)
      return 2
    }
    const info = toErrorInfo(error)
    const at = formatLocation(info)
    io.stderr(
      `winnow ${command.name}: ${at && !info.message.startsWith(at) ? `${at}: ` : ''}${info.message}\n`,
    )
    if (info.type === 'internal' && process.env.WINNOW_DEBUG)
      io.stderr(`${(error as Error).stack ?? ''}\n`)
    return 1
  }
}
