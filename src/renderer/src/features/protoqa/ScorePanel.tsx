import { useEffect, useState } from 'react'
import type { QuestionScoreView } from '../../../../shared/contract/protoqa'
import type { QuestionSummary } from '../../../../shared/protoqa/model'
import { METRICS } from '../../../../shared/protoqa/scoring'
import { api } from '../../api'
import { showError } from '../messages/messages'

/**
 * A prediction set scored against the final clusters (exact match): every metric's mean, and for
 * one question and metric which cluster each predicted answer was assigned and what it earned.
 */
export function ScorePanel({
  sets,
  questions,
}: {
  sets: { id: number; name: string; questions: number }[]
  questions: QuestionSummary[]
}) {
  const [set, setSet] = useState<number | null>(sets[0]?.id ?? null)
  const [means, setMeans] = useState<{ metric: string; mean: number }[]>([])
  const clustered = questions.filter((q) => q.final)
  const [question, setQuestion] = useState<string | null>(clustered[0]?.id ?? null)
  const [metric, setMetric] = useState('Max Answers - 10')
  const [detail, setDetail] = useState<QuestionScoreView | null>(null)

  useEffect(() => {
    if (set === null) return
    api.protoqa
      .scoreSet({ set })
      .then(setMeans)
      .catch((e: unknown) => showError('Scoring predictions', e))
  }, [set])
  useEffect(() => {
    if (set === null || question === null) return
    api.protoqa
      .score({ set, question, metric })
      .then(setDetail)
      .catch((e: unknown) => showError('Scoring predictions', e))
  }, [set, question, metric])

  if (sets.length === 0)
    return <p className="protoqa-empty">Import a prediction file to score it here.</p>
  return (
    <div className="protoqa-scores" data-testid="score-panel">
      <label>
        Predictions{' '}
        <select value={set ?? ''} onChange={(e) => setSet(Number(e.target.value))}>
          {sets.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.questions} questions)
            </option>
          ))}
        </select>
      </label>
      <table className="protoqa-table" data-testid="score-means">
        <tbody>
          {means.map((m) => (
            <tr key={m.metric}>
              <th>{m.metric}</th>
              <td>{m.mean.toFixed(5)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="protoqa-actions">
        <select value={question ?? ''} onChange={(e) => setQuestion(e.target.value)}>
          {clustered.map((q) => (
            <option key={q.id} value={q.id}>
              {q.id}
            </option>
          ))}
        </select>
        <select value={metric} onChange={(e) => setMetric(e.target.value)}>
          {METRICS.map((m) => (
            <option key={m.name}>{m.name}</option>
          ))}
        </select>
        {detail && (
          <span data-testid="score-question">
            {detail.score.points} of {detail.score.oracle} → {detail.score.score.toFixed(4)}
          </span>
        )}
      </div>
      {detail && (
        <table className="protoqa-table" data-testid="score-assignment">
          <thead>
            <tr>
              <th>#</th>
              <th>Predicted</th>
              <th>Compared as</th>
              <th>Assigned cluster</th>
              <th>Points</th>
            </tr>
          </thead>
          <tbody>
            {detail.score.answers.map((a, i) => {
              const c = a.cluster === null ? null : detail.clusters[a.cluster]
              return (
                <tr key={i}>
                  <td>{i + 1}</td>
                  <td>{a.answer}</td>
                  <td>{a.normalized}</td>
                  <td>
                    {c
                      ? `${c.id} (${c.count}): ${c.answers.slice(0, 4).join(', ')}`
                      : a.best > 0
                        ? 'a cluster already taken'
                        : 'incorrect'}
                  </td>
                  <td>{a.points}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </div>
  )
}
