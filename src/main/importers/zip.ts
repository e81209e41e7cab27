import { Inflate } from 'fflate'
import { formatBytes } from '../../shared/text'

/**
 * Reading a zip with bounds. Each entry's size is checked against the zip's central directory
 * before anything is inflated, and inflation stops as soon as an entry gives more than its
 * directory declared, so a zip whose header lies cannot grow the process either.
 */

const MB = 1024 * 1024

export interface ZipLimits {
  /** The most one entry may hold once unzipped. A JavaScript string stops short of 512 MB. */
  entryBytes: number
  /** The most the entries of one zip (and of the zips inside it) may hold together. */
  totalBytes: number
}

export const ZIP_LIMITS: ZipLimits = { entryBytes: 256 * MB, totalBytes: 1024 * MB }

/** A zip inside a zip is read; one more level is not (a zip can contain itself). */
const MAX_DEPTH = 2

/** What is left to read of one zip, shared with the zips inside it. */
export interface ZipBudget {
  limits: ZipLimits
  left: number
}

export function zipBudget(limits: ZipLimits = ZIP_LIMITS): ZipBudget {
  return { limits, left: limits.totalBytes }
}

export interface ZipEntry {
  name: string
  bytes: Uint8Array
}

/** Why a zip is refused; `entry` names the entry when the problem is one of them. */
export class ZipRefusal extends Error {
  constructor(
    message: string,
    readonly entry?: string,
  ) {
    super(message)
    this.name = 'ZipRefusal'
  }
}

interface DirectoryEntry {
  name: string
  method: number
  compressedBytes: number
  /** The uncompressed size the central directory declares. */
  bytes: number
  localHeader: number
}

const SIGNATURE = {
  end: 0x06054b50,
  end64Locator: 0x07064b50,
  end64: 0x06064b50,
  central: 0x02014b50,
  local: 0x04034b50,
}
const UNSET32 = 0xffffffff
/** Compressed bytes given to the inflater at a time: at most ~1,000 times that comes out. */
const STEP = 16 * 1024

/**
 * The entries of a zip (folders and macOS resource forks left out), each read whole. Throws a
 * `ZipRefusal` when the zip is unreadable, an entry or all of them together hold more than the
 * budget allows, or an entry inflates to another size than its directory declares. `depth` is
 * how many zips this one is inside.
 */
export function readZip(bytes: Uint8Array, budget: ZipBudget, depth = 0): ZipEntry[] {
  if (depth >= MAX_DEPTH) throw new ZipRefusal('a zip inside a zip inside a zip is not read')
  let directory: DirectoryEntry[]
  try {
    directory = readDirectory(bytes)
  } catch (error) {
    if (error instanceof ZipRefusal) throw error
    throw new ZipRefusal('not a readable zip (its central directory is cut short)')
  }
  const wanted = directory.filter((e) => !e.name.endsWith('/') && !e.name.startsWith('__MACOSX/'))
  const { entryBytes, totalBytes } = budget.limits
  let total = 0
  for (const e of wanted) {
    if (e.bytes > entryBytes)
      throw new ZipRefusal(
        `${formatBytes(e.bytes)} once unzipped; Winnow reads zip entries of up to ${formatBytes(entryBytes)}`,
        e.name,
      )
    total += e.bytes
  }
  if (total > budget.left)
    throw new ZipRefusal(
      `its entries hold ${formatBytes(total)} once unzipped; Winnow reads up to ${formatBytes(totalBytes)} from one zip, the zips inside it included`,
    )
  budget.left -= total
  return wanted.map((e) => ({ name: e.name, bytes: inflateEntry(bytes, e) }))
}

function readDirectory(bytes: Uint8Array): DirectoryEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const u16 = (at: number): number => view.getUint16(at, true)
  const u32 = (at: number): number => view.getUint32(at, true)
  const u64 = (at: number): number => Number(view.getBigUint64(at, true))
  // The end record sits in the last 22 bytes, before a comment of up to 65,535.
  let end = -1
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
    if (u32(at) === SIGNATURE.end) {
      end = at
      break
    }
  }
  if (end < 0) throw new ZipRefusal('not a zip (no central directory)')
  let count = u16(end + 10)
  let at = u32(end + 16)
  if (end >= 20 && u32(end - 20) === SIGNATURE.end64Locator) {
    const end64 = u64(end - 12)
    if (u32(end64) === SIGNATURE.end64) {
      count = u64(end64 + 32)
      at = u64(end64 + 48)
    }
  }
  const entries: DirectoryEntry[] = []
  for (let i = 0; i < count; i++) {
    if (u32(at) !== SIGNATURE.central) throw new ZipRefusal('not a readable zip (bad directory)')
    const flags = u16(at + 8)
    const nameLength = u16(at + 28)
    const extraLength = u16(at + 30)
    const commentLength = u16(at + 32)
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength)
    const entry: DirectoryEntry = {
      name: new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(nameBytes),
      method: u16(at + 10),
      compressedBytes: u32(at + 20),
      bytes: u32(at + 24),
      localHeader: u32(at + 42),
    }
    // Zip64: the sizes and offset that do not fit 32 bits follow in extra field 1, in this order.
    let extra = at + 46 + nameLength
    const extraEnd = extra + extraLength
    while (extra + 4 <= extraEnd) {
      const id = u16(extra)
      const size = u16(extra + 2)
      if (id === 1) {
        let field = extra + 4
        for (const key of ['bytes', 'compressedBytes', 'localHeader'] as const) {
          if (entry[key] !== UNSET32) continue
          entry[key] = u64(field)
          field += 8
        }
      }
      extra += 4 + size
    }
    entries.push(entry)
    at = extraEnd + commentLength
  }
  return entries
}

function inflateEntry(bytes: Uint8Array, e: DirectoryEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const damaged = (what: string): ZipRefusal =>
    new ZipRefusal(`${what}; the zip is damaged`, e.name)
  if (e.localHeader + 30 > bytes.length || view.getUint32(e.localHeader, true) !== SIGNATURE.local)
    throw damaged('its local header is missing')
  const start =
    e.localHeader +
    30 +
    view.getUint16(e.localHeader + 26, true) +
    view.getUint16(e.localHeader + 28, true)
  const data = bytes.subarray(start, start + e.compressedBytes)
  if (data.length !== e.compressedBytes) throw damaged('its data is cut short')
  const declared = `the ${formatBytes(e.bytes)} its directory declares`
  if (e.method === 0) {
    if (data.length !== e.bytes)
      throw damaged(`it holds ${formatBytes(data.length)}, not ${declared}`)
    return data
  }
  if (e.method !== 8)
    throw new ZipRefusal(`compressed by method ${e.method}, which Winnow does not read`, e.name)
  const chunks: Uint8Array[] = []
  let size = 0
  const inflater = new Inflate((chunk) => {
    size += chunk.length
    if (size > e.bytes) throw damaged(`it inflates to more than ${declared}`)
    chunks.push(chunk)
  })
  try {
    for (let at = 0; at < data.length || at === 0; at += STEP)
      inflater.push(data.subarray(at, at + STEP), at + STEP >= data.length)
  } catch (error) {
    if (error instanceof ZipRefusal) throw error
    throw damaged(
      `its data does not inflate (${error instanceof Error ? error.message : String(error)})`,
    )
  }
  if (size !== e.bytes) throw damaged(`it inflates to ${formatBytes(size)}, not ${declared}`)
  const out = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}
