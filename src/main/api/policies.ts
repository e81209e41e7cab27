import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { UserError } from '../../shared/contract/errors'
import type { policyCalls } from '../../shared/contract/policies'
import { plural } from '../../shared/text'
import { localAuthor } from '../ratings/author'
import { policyRunDetail } from '../policies/history'
import { runWriteJob } from '../tasks/writeJob'
import { dryRunPolicy, evaluatePolicy, outlinePolicy } from '../policies/run'
import type { Handlers } from './handlers'

function fileError(path: string, error: unknown): UserError {
  const code = (error as NodeJS.ErrnoException).code
  return new UserError({
    type: code === 'ENOENT' ? 'not-found' : 'input',
    code: code === 'ENOENT' ? 'no-such-file' : 'file-unreadable',
    message: code === 'ENOENT' ? `No file ${path}.` : `${path}: ${(error as Error).message}`,
    file: path,
  })
}

export const policyHandlers: Handlers<keyof typeof policyCalls> = {
  // Bundled text (`?raw`), loaded when the page first asks for it.
  'policies.shipped': async () =>
    (await import('../policies/shipped')).SHIPPED_POLICIES.map((p) => ({ ...p })),
  'policies.outline': ({ source, fileName }) => outlinePolicy(source, fileName),
  'policies.dryRun': ({ source, fileName, params }, { session }) =>
    dryRunPolicy(session.project().db, { source, fileName, ...(params ? { params } : {}) }),
  'policies.apply': async ({ source, fileName, params, basis }, { session }) => {
    const { db } = session.project()
    // The script runs first, on its thread: its errors come back to the page at their line.
    const evaluation = await evaluatePolicy(db, { source, fileName, ...(params ? { params } : {}) })
    return runWriteJob(session, {
      kind: 'policy',
      title: `Applying policy ${evaluation.outline.name}`,
      request: { evaluation, source, fileName, basis, author: localAuthor() },
      summary: (r) =>
        r.changeSet === null
          ? 'The policy moved nothing'
          : `Re-rated ${plural(r.changed, 'annotation')} in change set ${r.changeSet}`,
    }).progress
  },
  'policies.run': ({ changeSetId }, { session }) =>
    policyRunDetail(session.project().db, changeSetId),
  'policies.readFile': ({ path }) => {
    const full = resolve(path)
    try {
      return {
        path: full,
        source: readFileSync(full, 'utf8'),
        modifiedAt: statSync(full).mtimeMs,
      }
    } catch (error) {
      throw fileError(full, error)
    }
  },
  'policies.saveFile': ({ path, source }) => {
    const full = resolve(path)
    try {
      writeFileSync(full, source)
      return { modifiedAt: statSync(full).mtimeMs }
    } catch (error) {
      throw fileError(full, error)
    }
  },
}
