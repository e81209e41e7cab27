import { runCli } from './index'

// Entry of `winnow` (bin/winnow.js loads the built copy of this file).

// The AWS SDK warns on Node < 22 about its own future releases; the lockfile decides which SDK
// Winnow runs, so the warning speaks to its maintainers, not to someone running `winnow pull`.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  interactive: process.stderr.isTTY,
})
process.exitCode = code
