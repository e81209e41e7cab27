import { type ReleaseFacts, ROW_ORDER, isoTime } from './facts'

/** One document of the release folder besides the data files. */
export interface DocumentFile {
  path: string
  bytes: number
  sha256: string
}

/**
 * manifest.json: what went in (source files, change sets, settings), what came out (every file
 * with its rows and SHA-256) and which Winnow made it, so the release can be checked and redone.
 */
export function buildManifest(facts: ReleaseFacts, documents: readonly DocumentFile[]): unknown {
  const o = facts.options
  return {
    manifestVersion: 1,
    winnow: { version: facts.winnowVersion },
    project: facts.projectName,
    createdAt: isoTime(facts.createdAt),
    draft: o.draft,
    ratingSnapshot: isoTime(facts.ratingSnapshot),
    settings: {
      tierMap: facts.tierMap,
      tiers: facts.tiers,
      formats: o.formats,
      scope: {
        kind: o.filter ? 'filter' : 'project',
        description: facts.scope,
        filter: o.filter ?? null,
        asOf: isoTime(o.asOf),
      },
      split: o.split ?? null,
      pseudonymize: o.pseudonymize,
      neutralizeFormulas: o.neutralizeFormulas,
    },
    rowOrder: ROW_ORDER,
    inputs: facts.inputs.map((f) => ({
      name: f.name,
      format: f.format,
      bytes: f.bytes,
      sha256: f.sha256,
      records: f.records,
      importedAt: isoTime(f.importedAt),
    })),
    changeSets: facts.changeSets.map((c) => ({
      id: c.id,
      kind: c.kind,
      author: c.author,
      createdAt: isoTime(c.createdAt),
      description: c.description,
      reverts: c.reverts,
      revertedBy: c.revertedBy,
      changed: c.changed,
      ...(c.policySha256 === null
        ? {}
        : { policy: { name: c.policyName, sha256: c.policySha256 } }),
    })),
    files: facts.files.map((f) => ({
      path: f.path,
      format: f.format,
      tier: f.tier,
      split: f.part,
      rows: f.rows,
      annotations: f.annotations,
      bytes: f.bytes,
      sha256: f.sha256,
    })),
    documents,
    leftOut: Object.fromEntries([...facts.tally.leftOut].sort()),
  }
}
