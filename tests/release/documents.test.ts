import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { hashFile } from '../../src/main/release/writers'
import { saveReleaseSettings } from '../../src/main/release/settings'
import { useTempDir } from '../helpers/tmp'
import { exportNow, releaseProject, releaseSubmissions } from './helpers'

const tempDir = useTempDir()

type Json = Record<string, unknown>

function released(formats: ('csv' | 'jsonl' | 'parquet')[]) {
  const dir = tempDir()
  const { db, csv } = releaseProject(dir, releaseSubmissions(80, 14))
  const project = openProject(db)
  saveReleaseSettings(
    project,
    db,
    {
      tierMap: [
        { rating: 3, tier: 3 },
        { rating: 2, tier: 2 },
        { rating: 1, tier: 1 },
        { rating: 1.5, tier: 1 },
      ],
      card: {
        name: 'GLUCOSE tiers',
        description: 'Causal explanations in quality tiers.',
        license: 'cc-by-4.0',
        url: 'https://glucose.winnow.dev/tiers',
        creator: 'The GLUCOSE team',
      },
    },
    't',
  )
  project.close()
  const out = join(dir, 'r')
  const result = exportNow(db, { out, formats, split: { test: 3, tier: 3, seed: 's' } })
  return { out, csv, result }
}

describe('release documents', () => {
  it('writes croissant.json with every property Croissant 1.0 requires', () => {
    const { out, result } = released(['csv', 'parquet'])
    const c = JSON.parse(readFileSync(join(out, 'croissant.json'), 'utf8')) as Json
    // Dataset: the required schema.org properties and the declared conformance.
    for (const key of [
      '@context',
      '@type',
      'conformsTo',
      'name',
      'description',
      'license',
      'url',
      'creator',
      'datePublished',
      'distribution',
    ]) {
      expect(c[key], key).toBeDefined()
    }
    expect(c['@type']).toBe('sc:Dataset')
    expect(c.conformsTo).toBe('http://mlcommons.org/croissant/1.0')
    const context = c['@context'] as Json
    expect(context['@vocab']).toBe('https://schema.org/')
    expect(context.cr).toBe('http://mlcommons.org/croissant/')
    expect(context.conformsTo).toBe('dct:conformsTo')
    expect(c.license).toBe('https://spdx.org/licenses/CC-BY-4.0.html')
    expect(c.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    // Distribution: every data file, with the properties of a FileObject and its real SHA-256.
    const distribution = c.distribution as Json[]
    expect(distribution.map((d) => d['@id']).sort()).toEqual(result.files.map((f) => f.path).sort())
    for (const d of distribution) {
      expect(d['@type']).toBe('cr:FileObject')
      for (const key of ['name', 'contentUrl', 'contentSize', 'encodingFormat', 'sha256']) {
        expect(d[key], key).toBeDefined()
      }
      const file = hashFile(join(out, d.contentUrl as string))
      expect(d.sha256).toBe(file.sha256)
      expect(d.contentSize).toBe(`${file.bytes} B`)
    }
    // Record sets: one per Parquet file; typed fields whose source names a file and a column.
    const ids = new Set(distribution.map((d) => d['@id']))
    const sets = c.recordSet as Json[]
    expect(sets.length).toBe(result.files.filter((f) => f.path.endsWith('.parquet')).length)
    for (const set of sets) {
      expect(set['@type']).toBe('cr:RecordSet')
      expect(set.name).toBeDefined()
      const fields = set.field as Json[]
      expect(fields.length).toBe(49)
      for (const field of fields) {
        expect(field['@type']).toBe('cr:Field')
        expect(['sc:Text', 'sc:Integer']).toContain(field.dataType)
        const source = field.source as {
          fileObject: { '@id': string }
          extract: { column: string }
        }
        expect(ids.has(source.fileObject['@id'])).toBe(true)
        expect(source.extract.column).toBe(field.name)
      }
    }
    const ids2 = sets.flatMap((s) => [s['@id'], ...(s.field as Json[]).map((f) => f['@id'])])
    expect(new Set(ids2).size).toBe(ids2.length)
  })

  it('writes a dataset card whose front matter lists each tier’s files by split', () => {
    const { out } = released(['csv', 'jsonl'])
    const card = readFileSync(join(out, 'README.md'), 'utf8')
    const front = card.split('---')[1] ?? ''
    expect(front).toContain('license: "cc-by-4.0"')
    expect(front).toContain('task_categories:')
    expect(front).toMatch(/size_categories:\n- "n<1K"/)
    expect(front).toContain(
      '- config_name: "tier_3"\n  default: true\n  data_files:\n  - split: "test"\n    path: "data/tier-3-test.jsonl"\n  - split: "train"\n    path: "data/tier-3-train.jsonl"',
    )
    expect(front).toContain('- config_name: "tier_1"')
  })

  it('writes a manifest of inputs, settings, change sets, version and outputs', () => {
    const { out, csv, result } = released(['csv'])
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Json
    expect(m).toEqual(result.manifest)
    expect((m.winnow as Json).version).toMatch(/^\d+\.\d+\.\d+/)
    const inputs = m.inputs as Json[]
    expect(inputs).toHaveLength(1)
    expect(inputs[0]?.sha256).toBe(hashFile(csv).sha256)
    expect((m.settings as Json).tierMap).toContainEqual({ rating: 1.5, tier: 1 })
    expect((m.changeSets as Json[]).map((c) => c.kind)).toContain('import')
    const files = m.files as Json[]
    for (const f of files) {
      expect(f.sha256).toBe(hashFile(join(out, f.path as string)).sha256)
      expect(typeof f.rows).toBe('number')
    }
    const documents = (m.documents as Json[]).map((d) => d.path)
    expect(documents).toEqual(['datasheet.md', 'README.md', 'croissant.json'])
    const datasheet = readFileSync(join(out, 'datasheet.md'), 'utf8')
    expect(datasheet).toContain('| 1.5 | Fair+ | 1 |')
    expect(datasheet).toContain('## Split')
  })
})
