import { runCli } from '../../src/main/cli/index'

/**
 * One team member at work, for the concurrency test: rates random annotations of its replica and
 * syncs after each, `rounds` times. Run as its own process: `memberLoop.ts DB ROUNDS SEED ID...`.
 */
const [db, roundsText, seedText, ...annotations] = process.argv.slice(2)
const rounds = Number(roundsText)
let seed = Number(seedText)
const random = (n: number): number => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
}
const quiet = {
  stdout: () => undefined,
  stderr: (t: string) => process.stderr.write(t),
  interactive: false,
}
const values = ['3', '2', '1', '0', '-1', '-2']
for (let i = 0; i < rounds; i++) {
  const annotation = annotations[random(annotations.length)] as string
  const rating = values[random(values.length)] as string
  if (
    (await runCli(
      ['rate', '--db', db as string, '--annotation', annotation, '--rating', rating],
      quiet,
    )) !== 0
  )
    process.exit(1)
  if ((await runCli(['team', 'sync', '--db', db as string], quiet)) !== 0) process.exit(1)
}
