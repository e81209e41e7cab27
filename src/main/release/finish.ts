import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from '../db/connection'
import { recordExport } from '../db/queries/release/rows'
import { CancelledError } from '../jobs/cancel'
import { localAuthor } from '../ratings/author'
import type { DocumentFile } from './manifest'
import { type PartialRelease, type StepHook, placeRelease, removeReplaced } from './partial'
import { hashFile } from './writers'

/** What a release says of itself beside its data: its texts, and a manifest of every file. */
export interface ReleaseDocuments {
  datasheet: string
  card: string
  croissant: unknown
  manifest: (documents: readonly DocumentFile[]) => unknown
}

/**
 * The last steps every release shares once its data files are written in the partial: the
 * datasheet, card, Croissant and manifest files; then the folder put in place, the export
 * recorded in the project and what it replaced removed. Returns the manifest written.
 */
export function finishRelease(
  db: Db,
  partial: PartialRelease,
  release: { out: string; force: boolean; projectPath: string; createdAt: number },
  documents: ReleaseDocuments,
  hooks: { cancelled: () => boolean; reached: StepHook },
): unknown {
  const written: DocumentFile[] = []
  const writeDocument = (path: string, text: string): void => {
    writeFileSync(join(partial.content, path), text, { flag: 'wx' })
    written.push({ path, ...hashFile(join(partial.content, path)) })
  }
  writeDocument('datasheet.md', documents.datasheet)
  writeDocument('README.md', documents.card)
  writeDocument('croissant.json', JSON.stringify(documents.croissant, null, 2) + '\n')
  const manifest = documents.manifest(written)
  writeFileSync(join(partial.content, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n', {
    flag: 'wx',
  })
  if (hooks.cancelled())
    throw new CancelledError('Export cancelled; no release folder was written.')
  const { out, force, projectPath } = release
  placeRelease(partial, out, { force, projectPath }, hooks.reached)
  recordExport(db, { createdAt: release.createdAt, author: localAuthor(), folder: out, manifest })
  removeReplaced(partial, hooks.reached)
  return manifest
}
