import { statSync } from 'node:fs'
import type { DetectedFile } from '../../shared/contract/imports'
import { probeGlucoseFile } from './glucose/open'

/**
 * What the import dialog shows before starting: the detected layout, whether the dates need a
 * year, or the first problem (read from the header and the first record only).
 */
export function inspectFile(path: string, name: string): Omit<DetectedFile, 'ref'> {
  const probe = probeGlucoseFile(path)
  return {
    name,
    bytes: statSync(path).size,
    format: probe.format,
    needsYear: probe.needsYear,
    problem: probe.problem,
  }
}
