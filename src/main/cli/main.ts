import { runCli } from './index'

// Entry of `winnow` (bin/winnow.js loads the built copy of this file).
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  interactive: process.stderr.isTTY,
})
process.exitCode = code
