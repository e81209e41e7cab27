import { useEffect, useState } from 'react'
import type { QuestionAgreementView } from '../../../../shared/protoqa/contract'
import { api } from '../../api'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'

const f = (x: number): string => x.toFixed(4)

/**
 * Two reviewers' clusterings of a question side by side: BLANC with its C and N parts, and
 * exactly which answers they put apart. Deciding begins the final clustering from one of them.
 */
export function ComparePanel({
  question,
  onDecide,
}: {
  question: string
  onDecide: (from: string) => void
}) {
  const dataVersion = useStore(projectState).dataVersion
  const [view, setView] = useState<QuestionAgreementView | null>(null)
  useEffect(() => {
    let live = true
    api.protoqa
      .compare({ question })
      .then((v) => live && setView(v))
      .catch((e: unknown) => showError('Comparing clusterings', e))
    return () => {
      live = false
    }
  }, [question, dataVersion])
  if (view === null) return null
  if (view.reviewers === null || view.blanc === null)
    return (
      <div className="protoqa-compare" data-testid="compare-panel">
        <p>
          Fewer than two reviewers have clustered {question}. Each reviewer clusters it on the
          Cluster tab under their own name.
        </p>
        <button className="small" onClick={() => onDecide('imported')}>
          Decide from the imported clustering
        </button>
      </div>
    )
  const [a, b] = view.reviewers
  const { blanc } = view
  return (
    <div className="protoqa-compare" data-testid="compare-panel">
      <h3>
        {question}: {a} and {b}
      </h3>
      <table className="protoqa-table" data-testid="compare-blanc">
        <thead>
          <tr>
            <th />
            <th>Recall</th>
            <th>Precision</th>
            <th>F</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th>Same cluster (C)</th>
            <td>{f(blanc.c.recall)}</td>
            <td>{f(blanc.c.precision)}</td>
            <td>{f(blanc.c.f)}</td>
          </tr>
          <tr>
            <th>Different clusters (N)</th>
            <td>{f(blanc.n.recall)}</td>
            <td>{f(blanc.n.precision)}</td>
            <td>{f(blanc.n.f)}</td>
          </tr>
          <tr>
            <th>BLANC</th>
            <td>{f(blanc.recall)}</td>
            <td>{f(blanc.precision)}</td>
            <td data-testid="compare-blanc-value">{f(blanc.blanc)}</td>
          </tr>
        </tbody>
      </table>
      <p className="protoqa-note">
        Items are responses ({a} is the key); an answer one reviewer marked invalid is left out of
        that reviewer&apos;s side.
      </p>
      <h4>Answers the two put apart ({view.disagreements.length})</h4>
      <table className="protoqa-table" data-testid="compare-disagreements">
        <thead>
          <tr>
            <th>Answer</th>
            <th>Only {a} puts with it</th>
            <th>Only {b} puts with it</th>
          </tr>
        </thead>
        <tbody>
          {view.disagreements.map((d) => (
            <tr key={d.answer} data-testid="compare-row">
              <td>{d.answer}</td>
              <td>{d.keyCluster === null ? 'invalid' : d.onlyKey.join(', ') || '—'}</td>
              <td>{d.responseCluster === null ? 'invalid' : d.onlyResponse.join(', ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="protoqa-actions">
        <button className="small" data-testid="decide-a" onClick={() => onDecide(a)}>
          Decide, starting from {a}&apos;s
        </button>
        <button className="small" data-testid="decide-b" onClick={() => onDecide(b)}>
          Decide, starting from {b}&apos;s
        </button>
      </div>
    </div>
  )
}
