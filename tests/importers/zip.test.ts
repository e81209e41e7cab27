import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import { CrowdaqInputError } from '../../src/main/collections/crowdaq/import/problems'
import type { ZipLimits } from '../../src/main/importers/zip'
import { useProject } from '../mturk/project-helpers'
import { useTempDir } from '../helpers/tmp'
import { fixture } from '../crowdaq/helpers'

const tempDir = useTempDir()
const newProject = useProject()
const author = 'test'
const KB = 1024

/** Sets the uncompressed size an entry's central directory record (and local header) declares. */
function declareSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice()
  const view = new DataView(out.buffer)
  for (let at = 0; at + 46 <= out.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue
    const nameLength = view.getUint16(at + 28, true)
    if (new TextDecoder().decode(out.subarray(at + 46, at + 46 + nameLength)) !== name) continue
    view.setUint32(at + 24, size, true)
    view.setUint32(view.getUint32(at + 42, true) + 22, size, true)
    return out
  }
  throw new Error(`no entry ${name}`)
}

/** The problems of a refused CROWDAQ import, and that it wrote nothing. */
function refusal(file: string, zipLimits?: ZipLimits): string[] {
  const { db } = newProject()
  let problems: string[] = []
  try {
    importCrowdaq(db, file, { author, ...(zipLimits ? { zipLimits } : {}) })
  } catch (error) {
    if (!(error instanceof CrowdaqInputError)) throw error
    problems = error.problems.map((p) => `${p.file}: ${p.message}`)
  }
  expect(problems).not.toEqual([])
  expect(db.prepare('SELECT count(*) FROM crowdaq_exams').pluck().get()).toBe(0)
  return problems
}

function write(name: string, bytes: Uint8Array | string): string {
  const path = join(tempDir(), name)
  writeFileSync(path, bytes)
  return path
}

const exam = (): Uint8Array => readFileSync(fixture('exam.json'))
// Compresses to a few hundred bytes: the size of what comes out is what the limits bound.
const bulky = (bytes: number): Uint8Array => strToU8(`"${'x'.repeat(bytes - 2)}"`)
const low: ZipLimits = { entryBytes: 64 * KB, totalBytes: 100 * KB }

describe('zips are read within bounds', () => {
  it('refuses an entry whose directory declares more than 256 MB, before inflating it', () => {
    const zip = declareSize(zipSync({ 'exam.json': exam() }), 'exam.json', 600_000_000)
    expect(refusal(write('big.zip', zip))).toEqual([
      'big.zip!exam.json: 572 MB once unzipped; Winnow reads zip entries of up to 256 MB',
    ])
  })

  it('refuses an entry over a lower limit, saying its size', () => {
    const zip = zipSync({ 'exam.json': exam(), 'notes.json': bulky(80 * KB) })
    expect(refusal(write('notes.zip', zip), low)).toEqual([
      'notes.zip!notes.json: 80 KB once unzipped; Winnow reads zip entries of up to 64 KB',
    ])
    const { db } = newProject()
    expect(
      importCrowdaq(db, write('exam.zip', zipSync({ 'exam.json': exam() })), {
        author,
        zipLimits: low,
      }),
    ).toMatchObject({ exams: 1 })
  })

  it('stops inflating an entry that holds more than its directory declares', () => {
    const zip = declareSize(zipSync({ 'notes.json': bulky(40 * KB) }), 'notes.json', 1000)
    expect(refusal(write('lies.zip', zip), low)).toEqual([
      'lies.zip!notes.json: it inflates to more than the 1,000 B its directory declares; the zip is damaged',
    ])
    const stored = declareSize(
      zipSync({ 'notes.json': [bulky(4 * KB), { level: 0 }] }),
      'notes.json',
      1000,
    )
    expect(refusal(write('stored.zip', stored), low)).toEqual([
      'stored.zip!notes.json: it holds 4 KB, not the 1,000 B its directory declares; the zip is damaged',
    ])
  })

  it('refuses an entry that holds less than its directory declares', () => {
    const zip = declareSize(zipSync({ 'notes.json': bulky(4 * KB) }), 'notes.json', 8 * KB)
    expect(refusal(write('short.zip', zip), low)).toEqual([
      'short.zip!notes.json: it inflates to 4 KB, not the 8 KB its directory declares; the zip is damaged',
    ])
  })

  it('bounds what all entries hold together, the zips inside included', () => {
    const three = { 'a.json': bulky(40 * KB), 'b.json': bulky(40 * KB), 'c.json': bulky(40 * KB) }
    expect(refusal(write('many.zip', zipSync(three)), low)).toEqual([
      'many.zip: its entries hold 120 KB once unzipped; Winnow reads up to 100 KB from one zip, the zips inside it included',
    ])
    const inner = zipSync({ 'a.json': bulky(40 * KB), 'b.json': bulky(40 * KB) })
    const outer = zipSync({ 'inner.zip': inner, 'c.json': bulky(40 * KB) })
    expect(refusal(write('outer.zip', outer), low)).toContain(
      'outer.zip!inner.zip: its entries hold 80 KB once unzipped; Winnow reads up to 100 KB from one zip, the zips inside it included',
    )
  })

  it('reads a zip inside a zip, but not one more level down', () => {
    const { db } = newProject()
    const twice = zipSync({ 'inner.zip': zipSync({ 'exam.json': exam() }) })
    expect(importCrowdaq(db, write('twice.zip', twice), { author })).toMatchObject({ exams: 1 })
    const thrice = zipSync({ 'middle.zip': twice })
    expect(refusal(write('thrice.zip', thrice))).toEqual([
      'thrice.zip!middle.zip!inner.zip: a zip inside a zip inside a zip is not read',
    ])
  })

  it('refuses a file read whole that is over the limit, by its size', () => {
    expect(refusal(write('huge.json', bulky(80 * KB)), low)).toEqual([
      'huge.json: the file is 80 KB; Winnow reads CROWDAQ files of up to 64 KB',
    ])
  })

  it('says what is wrong with a file that is not a zip', () => {
    expect(refusal(write('text.zip', 'not a zip at all'))).toEqual([
      'text.zip: not a zip (no central directory)',
    ])
  })
})
