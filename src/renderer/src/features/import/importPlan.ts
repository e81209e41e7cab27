import type {
  DetectedFile,
  FileRef,
  ImportFileRequest,
  ImportFormat,
  ImportResult,
} from '../../../../shared/contract/imports'
import { COLLECTION_YEARS, glucoseFormats } from '../../../../shared/contract/imports'

/** One file in the import dialog: what main detected and what the user chose. */
export interface PlannedFile {
  detected: DetectedFile
  /** The user's override; null = use what was detected. */
  override: ImportFormat | null
}

export const formatLabels: Record<ImportFormat, string> = {
  'glucose-release': 'GLUCOSE release CSV (49 columns)',
  'glucose-dimension': 'GLUCOSE per-dimension file',
  'glucose-test': 'GLUCOSE test set',
}

export const importFormats: readonly ImportFormat[] = glucoseFormats

export function effectiveFormat(file: PlannedFile): ImportFormat | null {
  return file.override ?? file.detected.format
}

/** The importer needs a year when any file's dates have none; the page asks, never guesses. */
export function needsYear(files: readonly PlannedFile[]): boolean {
  return files.some((f) => f.detected.needsYear)
}

/** A year typed by the user, or null when it is not a plausible four-digit year. */
export function parseYear(text: string): number | null {
  const trimmed = text.trim()
  if (!/^\d{4}$/.test(trimmed)) return null
  const year = Number(trimmed)
  return year >= COLLECTION_YEARS.min && year <= COLLECTION_YEARS.max ? year : null
}

/** Files whose format is neither detected nor chosen: the import waits for a choice or removal. */
export function unrecognised(files: readonly PlannedFile[]): PlannedFile[] {
  return files.filter((f) => effectiveFormat(f) === null)
}

/** What `import.start` gets: every file, with the format the user chose where it differs. */
export function importRequestFiles(files: readonly PlannedFile[]): ImportFileRequest[] {
  return files.map(({ detected, override }) =>
    override === null || override === detected.format
      ? { ref: detected.ref }
      : { ref: detected.ref, format: override },
  )
}

/** Job results arrive untyped (their shape depends on the job's kind); check before showing. */
export function asImportResult(value: unknown): ImportResult | null {
  if (typeof value !== 'object' || value === null) return null
  const v = value as Partial<ImportResult>
  if (
    !Array.isArray(v.files) ||
    typeof v.submissions !== 'number' ||
    typeof v.annotations !== 'number'
  ) {
    return null
  }
  return v as ImportResult
}

/** Same file picked twice (by ref) is listed once. */
export function addFiles(
  current: readonly PlannedFile[],
  added: readonly DetectedFile[],
): PlannedFile[] {
  const key = (ref: FileRef) => (ref.kind === 'path' ? `p:${ref.path}` : `u:${ref.id}`)
  const seen = new Set(current.map((f) => key(f.detected.ref)))
  const next = [...current]
  for (const d of added) {
    if (seen.has(key(d.ref))) continue
    seen.add(key(d.ref))
    next.push({ detected: d, override: null })
  }
  return next
}
