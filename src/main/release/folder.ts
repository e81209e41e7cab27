import { existsSync, readdirSync, statSync } from 'node:fs'
import { UserError } from '../../shared/contract/errors'
import type { ParsedReleaseOptions } from '../../shared/contract/release'

/**
 * The page's own refusal of a folder that is not empty, in the page's words (its "Replace a
 * folder that is not empty" box, where the command line has a flag), before the export starts.
 */
export function refuseFullFolder(options: Pick<ParsedReleaseOptions, 'out' | 'force'>): void {
  const { out, force } = options
  if (force || !existsSync(out) || !statSync(out).isDirectory()) return
  if (readdirSync(out).length === 0) return
  throw new UserError({
    type: 'invalid-argument',
    code: 'bad-output-folder',
    message: `${out} is not empty: choose an empty or new folder, or tick “Replace a folder that is not empty”.`,
    field: 'out',
    file: out,
  })
}
