import type { ImportResult } from '../../../../shared/contract/imports'
import { describeAdded } from '../../../../shared/summaries'
import { formatCount, plural } from '../../lib/format'
import { formatLabels } from './importPlan'

/** What an import added, per file and in total. */
export function ImportResultTable({ result }: { result: ImportResult }) {
  return (
    <div className="import-result" data-testid="import-result">
      <p className="result-summary">{describeAdded(result)}</p>
      <table className="table">
        <thead>
          <tr>
            <th>File</th>
            <th>Format</th>
            <th className="num">Records</th>
            <th className="num">Submissions added</th>
            <th className="num">Annotations added</th>
          </tr>
        </thead>
        <tbody>
          {result.files.map((f, i) => (
            <tr key={i} data-testid="import-result-file">
              <td>
                <div className="file-name">{f.file}</div>
                {f.warnings.length > 0 && (
                  <details className="warnings">
                    <summary>{plural(f.warnings.length, 'warning')}</summary>
                    <ul>
                      {f.warnings.map((w, j) => (
                        <li key={j}>{w}</li>
                      ))}
                    </ul>
                  </details>
                )}
              </td>
              <td>{formatLabels[f.format] ?? f.format}</td>
              <td className="num">{formatCount(f.records)}</td>
              <td className="num" data-testid="import-result-submissions">
                {formatCount(f.submissions)}
              </td>
              <td className="num" data-testid="import-result-annotations">
                {formatCount(f.annotations)}
              </td>
            </tr>
          ))}
        </tbody>
        {result.files.length > 1 && (
          <tfoot>
            <tr>
              <td colSpan={3}>Total</td>
              <td className="num">{formatCount(result.submissions)}</td>
              <td className="num">{formatCount(result.annotations)}</td>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  )
}
