import { basename } from 'node:path'
import type { ProtoqaImportResult } from '../../../shared/protoqa/model'
import type { CollectionImporter } from '../importer'
import { type ProtoqaImportFile, describeProtoqaImport, importProtoqaFiles } from './import/run'

export interface ProtoqaImportWork {
  collection: 'protoqa'
  files: ProtoqaImportFile[]
  options: { author?: string }
}

/** Question sets, answer lists and predictions (JSONL, CSV, TSV): `import/run.ts`. */
export const protoqaImporter: CollectionImporter<ProtoqaImportWork, ProtoqaImportResult> = {
  id: 'protoqa',
  unit: 'bytes',
  names: (work) => work.files.map((f) => f.name ?? basename(f.path)),
  describe: (result) => `Added ${describeProtoqaImport(result)}`,
  load: () =>
    Promise.resolve((db, work, hooks) => importProtoqaFiles(db, work.files, work.options, hooks)),
}
