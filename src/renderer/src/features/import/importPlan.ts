import type {
  DetectedFile,
  FileRef,
  ImportFormat,
  ImportResult,
} from '../../../../shared/contract/imports'
import { glucoseFormats } from '../../../../shared/contract/imports'

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
  return year >= 1990 && year <= 2100 ? year : null
}

export interface ImportGroup {
  /** Forced format, or undefined to let main detect each file. */
  format: ImportFormat | undefined
  files: FileRef[]
}

/**
 * `import.start` takes one format for all its files, so files whose format the user overrode are
 * imported in their own run (one per forced format) after the detected ones.
 */
export function importGroups(files: readonly PlannedFile[]): ImportGroup[] {
  const detected: FileRef[] = []
  const forced = new Map<ImportFormat, FileRef[]>()
  for (const f of files) {
    if (f.override === null || f.override === f.detected.format) {
      detected.push(f.detected.ref)
    } else {
      const list = forced.get(f.override) ?? []
      list.push(f.detected.ref)
      forced.set(f.override, list)
    }
  }
  const groups: ImportGroup[] = []
  if (detected.length > 0) groups.push({ format: undefined, files: detected })
  for (const [format, refs] of forced) groups.push({ format, files: refs })
  return groups
}

/** The results of several runs as one. */
export function mergeResults(results: readonly ImportResult[]): ImportResult {
  return {
    files: results.flatMap((r) => r.files),
    submissions: results.reduce((n, r) => n + r.submissions, 0),
    annotations: results.reduce((n, r) => n + r.annotations, 0),
  }
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
