import type { ReleaseResult } from '../../shared/contract/release'
import { plural } from '../../shared/text'
import type { CommandOutput } from './command'

/** What `winnow export` prints of a release folder written, GLUCOSE's or a collection's. */
export function releaseOutput(result: ReleaseResult): CommandOutput {
  return {
    json: { files: result.files, manifest: result.manifest, datasheet: result.datasheet },
    text: [
      ...result.files.map((f) => `${f.path}  ${plural(f.rows, 'row')}  ${f.sha256}`),
      `Wrote ${plural(result.files.length, 'data file')}, datasheet.md, README.md, croissant.json and manifest.json to ${result.out}`,
    ].join('\n'),
  }
}
