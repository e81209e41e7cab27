import {
  type Dirent,
  existsSync,
  lstatSync,
  readFileSync,
  readdirSync,
  realpathSync,
} from 'node:fs'
import { dirname, isAbsolute, join, relative, sep } from 'node:path'
import { UserError } from '../../shared/contract/errors'
import { isRecord } from '../../shared/crowdaq/record'

const MANIFEST = 'manifest.json'

/** How many names a message lists before it says "and N more". */
const NAMES_SHOWN = 4

function refuse(out: string, code: string, message: string): never {
  throw new UserError({ type: 'invalid-argument', code, message, field: 'out', file: out })
}

/** `a, b and 3 more`: the first few names of a list. */
function someNames(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN)
  const rest = names.length - shown.length
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`
  if (shown.length <= 1) return shown.join('')
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`
}

function entryNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort()
}

/** The project file's path relative to `dir` when the project lies somewhere inside it. */
function projectInside(dir: string, projectPath: string): string | null {
  let project: string
  let folder: string
  try {
    project = realpathSync(projectPath)
    folder = realpathSync(dir)
  } catch {
    return null
  }
  const rel = relative(folder, project)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : null
}

/**
 * The files a release's own manifest names (manifest.json, its documents and data files, as
 * `/`-separated paths), or null when `dir` holds no manifest written by Winnow.
 */
function releaseFiles(dir: string): Set<string> | null {
  let manifest: unknown
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8'))
  } catch {
    return null
  }
  if (
    !isRecord(manifest) ||
    typeof manifest.manifestVersion !== 'number' ||
    !isRecord(manifest.winnow) ||
    typeof manifest.winnow.version !== 'string' ||
    !Array.isArray(manifest.files) ||
    !Array.isArray(manifest.documents)
  ) {
    return null
  }
  const own = new Set([MANIFEST])
  const entries: unknown[] = [
    ...(manifest.files as unknown[]),
    ...(manifest.documents as unknown[]),
  ]
  for (const entry of entries) {
    if (isRecord(entry) && typeof entry.path === 'string') own.add(entry.path)
  }
  return own
}

/** What `dir` holds beyond the files its release names (a directory not on their paths whole). */
function notOfRelease(dir: string, own: ReadonlySet<string>): string[] {
  const folders = new Set<string>()
  for (const path of own) {
    const parts = path.split('/')
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'))
  }
  const extra: string[] = []
  const walk = (rel: string): void => {
    let entries: Dirent[]
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true })
    } catch {
      extra.push(rel === '' ? '.' : `${rel}/`)
      return
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`
      if (e.isDirectory() && folders.has(path)) walk(path)
      else if (e.isDirectory() || !own.has(path)) extra.push(e.isDirectory() ? `${path}/` : path)
      if (extra.length > NAMES_SHOWN) return
    }
  }
  walk('')
  return extra
}

/**
 * Why `dir` is not a folder an export may replace, or null when it is one: it is a Winnow release
 * (its own manifest.json says so) and holds nothing its manifest does not name. A folder holding
 * the project never is, whatever else it holds.
 */
export function releaseFolderProblem(dir: string, projectPath: string, shown = dir): string | null {
  try {
    if (!lstatSync(dir).isDirectory()) return `${shown} is not a folder.`
  } catch {
    return `${shown} is gone.`
  }
  const project = projectInside(dir, projectPath)
  if (project !== null) return `${shown} holds this project (${project}).`
  const own = releaseFiles(dir)
  if (!own) {
    return `${shown} is not a Winnow release (it has no manifest.json of one); it holds ${someNames(entryNames(dir))}.`
  }
  const extra = notOfRelease(dir, own)
  if (extra.length > 0) {
    return `${shown} holds an earlier release and also ${someNames(extra)}, which ${extra.length === 1 ? 'is' : 'are'} not part of it.`
  }
  return null
}

/** The refusal of a folder that is not a release and nothing else. */
export function notReplaced(problem: string): string {
  return `${problem} An export replaces only a folder that holds an earlier release and nothing else; choose an empty or new folder.`
}

/** The release folder must be an absolute path in a folder that exists. */
export function checkReleasePlace(out: string): void {
  if (!isAbsolute(out))
    refuse(out, 'bad-output-folder', `${out}: the release folder must be an absolute path.`)
  if (!existsSync(dirname(out))) {
    refuse(out, 'bad-output-folder', `${dirname(out)}: no such folder to put the release in.`)
  }
}

/**
 * Refuses an output folder that cannot be written as a whole release (nothing is touched): a new
 * or empty folder is written; an earlier release and nothing else is replaced with `force`;
 * anything else is refused with what is in the way. The rename at the end checks again.
 * `howToReplace` says how to ask for the replacement where the refusal is read (a flag on the
 * command line, a box in the app).
 */
export function checkOutputFolder(
  out: string,
  force: boolean,
  projectPath: string,
  howToReplace = 'replace it (--force)',
): void {
  checkReleasePlace(out)
  let stat
  try {
    stat = lstatSync(out)
  } catch {
    return
  }
  if (stat.isSymbolicLink()) {
    refuse(out, 'bad-output-folder', `${out} is a symbolic link; name the folder itself.`)
  }
  if (!stat.isDirectory()) refuse(out, 'bad-output-folder', `${out} exists and is not a folder.`)
  if (readdirSync(out).length === 0) return
  const problem = releaseFolderProblem(out, projectPath)
  if (problem === null && !force) {
    refuse(
      out,
      'bad-output-folder',
      `${out} is not empty; choose an empty or new folder, or ${howToReplace}.`,
    )
  }
  if (problem !== null) {
    refuse(out, 'not-a-release-folder', notReplaced(problem))
  }
}
