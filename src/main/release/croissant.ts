import type { ReleaseFile, ReleaseFormat } from '../../shared/contract/release'
import { primaryFormat } from './card'
import type { ReleaseFacts } from './facts'
import { RELEASE_LAYOUT } from './record'

/** The JSON-LD context the Croissant 1.0 specification recommends (its Appendix 1). */
export const CROISSANT_CONTEXT = {
  '@language': 'en',
  '@vocab': 'https://schema.org/',
  citeAs: 'cr:citeAs',
  column: 'cr:column',
  conformsTo: 'dct:conformsTo',
  cr: 'http://mlcommons.org/croissant/',
  rai: 'http://mlcommons.org/croissant/RAI/',
  data: { '@id': 'cr:data', '@type': '@json' },
  dataType: { '@id': 'cr:dataType', '@type': '@vocab' },
  dct: 'http://purl.org/dc/terms/',
  examples: { '@id': 'cr:examples', '@type': '@json' },
  extract: 'cr:extract',
  field: 'cr:field',
  fileProperty: 'cr:fileProperty',
  fileObject: 'cr:fileObject',
  fileSet: 'cr:fileSet',
  format: 'cr:format',
  includes: 'cr:includes',
  isLiveDataset: 'cr:isLiveDataset',
  jsonPath: 'cr:jsonPath',
  key: 'cr:key',
  md5: 'cr:md5',
  parentField: 'cr:parentField',
  path: 'cr:path',
  recordSet: 'cr:recordSet',
  references: 'cr:references',
  regex: 'cr:regex',
  repeated: 'cr:repeated',
  replace: 'cr:replace',
  sc: 'https://schema.org/',
  separator: 'cr:separator',
  source: 'cr:source',
  subField: 'cr:subField',
  transform: 'cr:transform',
}

export const CROISSANT_1_0 = 'http://mlcommons.org/croissant/1.0'

const MEDIA_TYPES: Record<ReleaseFormat, string> = {
  csv: 'text/csv',
  jsonl: 'application/jsonlines',
  parquet: 'application/x-parquet',
}

/** SPDX ids as written lowercase by dataset hubs, to their canonical spelling. */
const SPDX: Record<string, string> = {
  'cc-by-4.0': 'CC-BY-4.0',
  'cc-by-sa-4.0': 'CC-BY-SA-4.0',
  'cc-by-nc-4.0': 'CC-BY-NC-4.0',
  'cc-by-nc-sa-4.0': 'CC-BY-NC-SA-4.0',
  'cc0-1.0': 'CC0-1.0',
  mit: 'MIT',
  'apache-2.0': 'Apache-2.0',
  'odc-by': 'ODC-By-1.0',
}

export function licenseUrl(id: string): string {
  return `https://spdx.org/licenses/${SPDX[id.toLowerCase()] ?? id}.html`
}

const INTEGER_COLUMNS = new Set([
  'worker_quality_rating',
  'selected_sentence_index',
  'number_filled_in',
])

function recordSet(file: ReleaseFile) {
  const id = file.path.replace(/^data\//, '').replace(/\.[a-z]+$/, '')
  const jsonl = file.format === 'jsonl'
  // JSON Lines objects name the tier `tier`; the other formats keep the release column name.
  const columns = RELEASE_LAYOUT.filter((c) => !jsonl || !/^\d+_/.test(c))
  return {
    '@type': 'cr:RecordSet',
    '@id': id,
    name: id,
    description: `Tier ${file.tier}${file.part === 'all' ? '' : `, ${file.part} split`}: one record per submission.`,
    field: columns.map((column) => {
      const name = jsonl && column === 'worker_quality_rating' ? 'tier' : column
      return {
        '@type': 'cr:Field',
        '@id': `${id}/${name}`,
        name,
        dataType: INTEGER_COLUMNS.has(column) ? 'sc:Integer' : 'sc:Text',
        source: {
          fileObject: { '@id': file.path },
          extract: jsonl ? { jsonPath: `$.${name}` } : { column },
        },
      }
    }),
  }
}

/**
 * croissant.json: MLCommons Croissant 1.0 metadata — the dataset's required schema.org
 * properties, every file with its SHA-256 as the distribution, and a record set per file of the
 * primary format whose typed fields point at its columns.
 */
export function buildCroissant(facts: ReleaseFacts): unknown {
  const format = primaryFormat(facts.options.formats)
  return croissantDataset(
    facts.card,
    facts.createdAt,
    facts.files.map((f) => ({ ...f, encodingFormat: MEDIA_TYPES[f.format] })),
    facts.files.filter((f) => f.format === format).map(recordSet),
  )
}

/**
 * A Croissant 1.0 dataset: the card's required schema.org properties, every file with its
 * SHA-256 as the distribution, and the record sets given.
 */
export function croissantDataset(
  card: ReleaseFacts['card'],
  createdAt: number,
  files: readonly { path: string; bytes: number; sha256: string; encodingFormat: string }[],
  recordSets: readonly unknown[],
): unknown {
  return {
    '@context': CROISSANT_CONTEXT,
    '@type': 'sc:Dataset',
    conformsTo: CROISSANT_1_0,
    name: card.name,
    description: card.description,
    license: licenseUrl(card.license),
    url: card.url,
    creator: { '@type': 'sc:Person', name: card.creator },
    datePublished: new Date(createdAt).toISOString().slice(0, 10),
    version: '1.0.0',
    inLanguage: 'en',
    distribution: files.map((f) => ({
      '@type': 'cr:FileObject',
      '@id': f.path,
      name: f.path,
      contentUrl: f.path,
      contentSize: `${f.bytes} B`,
      encodingFormat: f.encodingFormat,
      sha256: f.sha256,
    })),
    recordSet: recordSets,
  }
}
