import type { ReactNode } from 'react'
import { formatCount } from '../../lib/format'

/** A written release: its folder, then each file with its rows and the start of its SHA-256. */
export function ReleaseFiles({
  out,
  files,
  testId,
  children,
}: {
  out: string
  files: readonly { path: string; rows: number; sha256: string }[]
  testId: string
  children?: ReactNode
}) {
  return (
    <section aria-label="Release written" data-testid={testId}>
      <h3>Written to {out}</h3>
      <table className="table compact">
        <thead>
          <tr>
            <th>File</th>
            <th className="num">Rows</th>
            <th>SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.path}>
              <td className="mono">{f.path}</td>
              <td className="num">{formatCount(f.rows)}</td>
              <td className="mono">{f.sha256.slice(0, 16)}…</td>
            </tr>
          ))}
        </tbody>
      </table>
      {children}
    </section>
  )
}
