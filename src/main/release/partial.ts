import { randomBytes } from 'node:crypto'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { UserError } from '../../shared/contract/errors'
import { isRecord } from '../../shared/crowdaq/record'
import { processAlive } from '../jobs/processAlive'
import { notReplaced, releaseFolderProblem } from './folder'

/**
 * The moments at which putting a release in place changes what is on disk, in order: the
 * partial is complete; an earlier release was moved into it; the new release is in place; an
 * entry of a partial was removed; its marker was removed. A leftover's earlier release put
 * back is `restored`. The crash tests stop the process at each.
 */
export type ReleaseStep =
  'written' | 'moved aside' | 'in place' | 'restored' | 'removed' | 'unmarked'

export type StepHook = (step: ReleaseStep) => void

/** Written first into every partial folder: what proves a hidden folder is an export's own. */
const MARKER = '.winnow-partial.json'
/** The release being written, inside the partial. */
const CONTENT = 'release'
/** An earlier release being replaced, moved inside the partial until the new one is in place. */
const REPLACED = 'replaced'

interface Marker {
  winnowPartial: 1
  /** The release folder's name, beside which the partial sits. */
  release: string
  host: string
  pid: number
}

/** A hidden folder `.NAME.partial-<hex>` beside the release folder, holding the release as written. */
export interface PartialRelease {
  dir: string
  /** Where the export writes the release's files. */
  content: string
}

function partialPattern(out: string): RegExp {
  const name = basename(out).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^\\.${name}\\.partial-[0-9a-f]{12}$`)
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code
}

/**
 * Makes the partial folder, its marker first. A cleanup by another export may remove the folder
 * while it is still empty (nothing can prove an empty folder is anyone's); then a new one is made.
 */
export function createPartial(out: string): PartialRelease {
  const marker: Marker = {
    winnowPartial: 1,
    release: basename(out),
    host: hostname(),
    pid: process.pid,
  }
  for (let attempt = 0; ; attempt++) {
    const dir = join(dirname(out), `.${basename(out)}.partial-${randomBytes(6).toString('hex')}`)
    mkdirSync(dir)
    try {
      writeFileSync(join(dir, MARKER), JSON.stringify(marker) + '\n', { flag: 'wx' })
    } catch (error) {
      if (errorCode(error) === 'ENOENT' && attempt < 3) continue
      throw error
    }
    mkdirSync(join(dir, CONTENT))
    return { dir, content: join(dir, CONTENT) }
  }
}

const IN_THE_WAY = new Set(['ENOTEMPTY', 'EEXIST', 'ENOTDIR', 'EPERM', 'EACCES'])

/** Renames `from` onto `to`; false when something (not an empty folder) is at `to`. */
function renamedOnto(from: string, to: string): boolean {
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(from, to)
      return true
    } catch (error) {
      if (!IN_THE_WAY.has(errorCode(error) ?? '') || !existsSync(to)) throw error
      // Windows will not rename onto even an empty folder; rmdir removes nothing but one.
      if (attempt > 0 || !removedIfEmpty(to)) return false
    }
  }
}

function removedIfEmpty(dir: string): boolean {
  try {
    rmdirSync(dir)
    return true
  } catch {
    return false
  }
}

function removeMarker(dir: string): void {
  rmSync(join(dir, MARKER), { force: true })
}

function refuse(out: string, message: string, code = 'not-a-release-folder'): never {
  throw new UserError({
    type: 'invalid-argument',
    code,
    message,
    field: 'out',
    file: out,
  })
}

/**
 * Puts the written release at `out`. rename(2) puts a folder only where nothing is or an empty
 * folder is, atomically, so a folder that appeared after the first check (another export's
 * release, anything) makes it fail rather than be removed: without `force` the export is then
 * refused. With `force` the folder in the way is first moved into the partial, checked there
 * (where no one else names it) to be a release and nothing else, and removed only once the new
 * release is in place; anything else is put back and the export refused.
 */
export function placeRelease(
  partial: PartialRelease,
  out: string,
  options: { force: boolean; projectPath: string },
  reached: StepHook,
): void {
  reached('written')
  const appeared = `${out} was created while this release was being written; it was left as it is. Choose an empty or new folder.`
  if (!renamedOnto(partial.content, out)) {
    if (!options.force) refuse(out, appeared, 'bad-output-folder')
    const aside = join(partial.dir, REPLACED)
    let moved = true
    try {
      renameSync(out, aside)
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error
      moved = false
    }
    if (moved) reached('moved aside')
    const problem = moved ? releaseFolderProblem(aside, options.projectPath, out) : null
    if (problem !== null || !renamedOnto(partial.content, out)) {
      if (moved && !renamedOnto(aside, out)) {
        // Somewhere to keep what was there: a partial without its marker is never removed.
        removeMarker(partial.dir)
        refuse(out, `${problem ?? appeared} What was there is kept in ${aside}.`)
      }
      refuse(out, problem === null ? appeared : notReplaced(problem))
    }
  }
  reached('in place')
}

/**
 * Removes a partial folder: its entries, then its marker, then the folder, so a kill on the way
 * leaves a folder still marked (or empty) that the next export finishes removing.
 */
function removePartial(dir: string, reached: StepHook): void {
  for (const name of readdirSync(dir)) {
    if (name === MARKER) continue
    rmSync(join(dir, name), { recursive: true, force: true })
    reached('removed')
  }
  removeMarker(dir)
  reached('unmarked')
  try {
    rmdirSync(dir)
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error
  }
}

/** Once the release is in place: the partial, with the earlier release it replaced. */
export function removeReplaced(partial: PartialRelease, reached: StepHook): void {
  removePartial(partial.dir, reached)
}

/** After a failed export: the partial and what it holds, unless it keeps a folder that was in the way. */
export function discardPartial(partial: PartialRelease): void {
  if (existsSync(join(partial.dir, MARKER))) removePartial(partial.dir, () => undefined)
  else rmSync(partial.content, { recursive: true, force: true })
}

function readMarker(dir: string): Marker | null {
  try {
    const value: unknown = JSON.parse(readFileSync(join(dir, MARKER), 'utf8'))
    if (
      isRecord(value) &&
      value.winnowPartial === 1 &&
      typeof value.release === 'string' &&
      typeof value.host === 'string' &&
      typeof value.pid === 'number'
    ) {
      return value as unknown as Marker
    }
  } catch {
    // no marker, or not one of ours
  }
  return null
}

/**
 * Removes what killed exports left beside `out`: only folders named as its partials that prove
 * they are an export's own (their marker names this release, this machine and a process that is
 * gone), and empty ones of that name. An earlier release a kill left moved aside goes back to
 * `out` when nothing has taken its place. Anything it cannot remove is left for later.
 */
export function removeLeftoverPartials(out: string, projectPath: string, reached: StepHook): void {
  const pattern = partialPattern(out)
  let names: string[]
  try {
    names = readdirSync(dirname(out)).filter((name) => pattern.test(name))
  } catch {
    return
  }
  for (const name of names) {
    const dir = join(dirname(out), name)
    try {
      if (!lstatSync(dir).isDirectory()) continue
      const marker = readMarker(dir)
      if (!marker) {
        // An export killed before its marker was written; rmdir refuses any folder not empty.
        if (readdirSync(dir).length === 0) rmdirSync(dir)
        continue
      }
      if (marker.release !== basename(out) || marker.host !== hostname()) continue
      if (processAlive(marker.pid)) continue
      const replaced = join(dir, REPLACED)
      if (existsSync(replaced)) {
        if (!existsSync(out) && renamedOnto(replaced, out)) reached('restored')
        else if (releaseFolderProblem(replaced, projectPath) !== null) continue
      }
      removePartial(dir, reached)
    } catch {
      // Removing a leftover is tidying: one that cannot be removed now stays for a later export.
    }
  }
}
