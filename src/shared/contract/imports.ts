import { z } from 'zod'
import { call } from './define'

export const glucoseFormats = ['glucose-release', 'glucose-dimension', 'glucose-test'] as const
export type ImportFormat = (typeof glucoseFormats)[number]

/**
 * A file the page may name: a path main handed out (dialog, drop) or an upload received in serve
 * mode. Main refuses paths it did not hand out.
 */
export const fileRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('path'), path: z.string().min(1).max(4096) }),
  z.object({ kind: z.literal('upload'), id: z.string().regex(/^[a-f0-9]{32}$/) }),
])
export type FileRef = z.infer<typeof fileRefSchema>

export interface PickedFile {
  ref: FileRef
  name: string
  bytes: number
}

export interface DetectedFile {
  ref: FileRef
  name: string
  bytes: number
  format: ImportFormat | null
  /** The dates in this file have no year; the import needs one. */
  needsYear: boolean
  problem: string | null
}

export interface FileImportResult {
  file: string
  format: ImportFormat
  records: number
  submissions: number
  annotations: number
  warnings: string[]
}

/** What an import added (also `winnow import --json`). */
export interface ImportResult {
  files: FileImportResult[]
  submissions: number
  annotations: number
}

/** A file to import, with the format the user chose for it (main detects it otherwise). */
const importFileSchema = z.object({
  ref: fileRefSchema,
  format: z.enum(glucoseFormats).optional(),
})
export type ImportFileRequest = z.infer<typeof importFileSchema>

/** The years a file's year-less dates (`917`) may be read in: the app, the API and the command line. */
export const COLLECTION_YEARS = { min: 1990, max: 2100 } as const

export const importCalls = {
  /** Electron only: the native Open dialog for data files. */
  'import.pickFiles': call(z.object({})).returns<PickedFile[]>(),
  'import.detect': call(z.object({ files: z.array(fileRefSchema).min(1).max(100) })).returns<
    DetectedFile[]
  >(),
  /** Every file in one transaction: all of them are imported, or none. */
  'import.start': call(
    z.object({
      files: z.array(importFileSchema).min(1).max(100),
      year: z.number().int().min(COLLECTION_YEARS.min).max(COLLECTION_YEARS.max).optional(),
    }),
  ).returns<{ jobId: string }>(),
}
