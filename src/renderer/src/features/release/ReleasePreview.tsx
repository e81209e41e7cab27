import { useEffect, useState } from 'react'
import type {
  ReleasePart,
  ReleasePreview,
  ReleasePreviewInput,
} from '../../../../shared/contract/release'
import { api } from '../../api'
import { toErrorInfo } from '../../lib/errors'
import { formatCount } from '../../lib/format'
import { useStore } from '../../lib/store'
import { projectState } from '../project/project'

const PART_NAMES: Record<ReleasePart, string> = {
  all: '(no split)',
  train: 'train',
  dev: 'dev',
  test: 'test',
}

/** `34%` of a whole; a dash when there is none. */
function share(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((part / whole) * 100)}%`
}

/**
 * What the export would write, counted before it runs: per tier and split its rows, annotations,
 * stories and workers, how much of the split's tier each held-out part took, and what is left out.
 * Counted again whenever the options or the project change.
 */
export function ReleasePreviewTable({
  options,
  version,
}: {
  options: ReleasePreviewInput
  /** Changes when the release settings are saved: the tier map changes the counts. */
  version: unknown
}) {
  const { dataVersion } = useStore(projectState)
  const key = JSON.stringify(options)
  const [shown, setShown] = useState<{ key: string; preview: ReleasePreview } | null>(null)
  const [failure, setFailure] = useState<{ key: string; message: string } | null>(null)

  useEffect(() => {
    let live = true
    const timer = setTimeout(() => {
      api.release
        .preview(JSON.parse(key) as ReleasePreviewInput)
        .then((preview) => {
          if (!live) return
          setShown({ key, preview })
          setFailure(null)
        })
        .catch((e: unknown) => live && setFailure({ key, message: toErrorInfo(e).message }))
    }, 250)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [key, dataVersion, version])

  const preview = shown?.preview ?? null
  const counting = shown?.key !== key && failure?.key !== key
  const split = preview?.split ?? null
  const splitTier = split ? preview?.parts.filter((p) => p.tier === split.tier) : []
  const splitTotal = (splitTier ?? []).reduce((n, p) => n + p.annotations, 0)
  const heldOut = (splitTier ?? []).filter((p) => p.part === 'test' || p.part === 'dev')

  return (
    <section
      className="release-preview"
      aria-label="What the release holds"
      data-testid="release-preview"
      aria-busy={counting}
    >
      <h3>
        What the release holds{' '}
        {counting && <span className="note release-counting">counting…</span>}
      </h3>
      {failure?.key === key ? (
        <p className="error-box" data-testid="release-preview-error">
          {failure.message}
        </p>
      ) : (
        preview && (
          <div className={counting ? 'release-preview-body is-stale' : 'release-preview-body'}>
            <table className="table compact" data-testid="release-preview-table">
              <thead>
                <tr>
                  <th className="num">Tier</th>
                  <th>Split</th>
                  <th className="num">Rows</th>
                  <th className="num">Annotations</th>
                  <th className="num">Stories</th>
                  <th className="num">Workers</th>
                </tr>
              </thead>
              <tbody>
                {preview.parts.map((p) => (
                  <tr
                    key={`${p.tier}-${p.part}`}
                    data-testid="release-preview-row"
                    data-part={`${p.tier}-${p.part}`}
                  >
                    <td className="num">{p.tier}</td>
                    <td>{PART_NAMES[p.part]}</td>
                    <td className="num">{formatCount(p.rows)}</td>
                    <td className="num">{formatCount(p.annotations)}</td>
                    <td className="num">{formatCount(p.stories)}</td>
                    <td className="num">{formatCount(p.workers)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {split && (
              <p className="note" data-testid="release-preview-split">
                Held out from tier {split.tier}: {heldOut.length === 0 && 'nothing'}
                {heldOut
                  .map(
                    (p) =>
                      `${formatCount(p.stories)} of its ${formatCount(split.candidates)} stories for ${p.part}, ${share(p.annotations, splitTotal)} of its annotations`,
                  )
                  .join('; ')}
                . Their other tiers' annotations are left out, so no story is on two sides.
              </p>
            )}
            {preview.leftOut.length > 0 && (
              <ul className="note release-left-out" data-testid="release-preview-left-out">
                {preview.leftOut.map((l) => (
                  <li key={l.reason}>
                    Left out: {formatCount(l.annotations)} annotations, {l.reason}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )
      )}
    </section>
  )
}
