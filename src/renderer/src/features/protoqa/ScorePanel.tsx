import { useEffect, useState } from 'react'
import type { QuestionScoreView, SimilarityName } from '../../../../shared/protoqa/contract'
import type { QuestionSummary } from '../../../../shared/protoqa/model'
import { METRICS } from '../../../../shared/protoqa/scoring'
import { api } from '../../api'
import { showError } from '../messages/messages'
import { plural } from '../../lib/format'

const SIMILARITY_LABELS: Record<SimilarityName, string> = {
  exact: 'Exact match',
  wordnet: 'WordNet similarity',
}

/**
 * A prediction set scored against the final clusters, by exact match or WordNet similarity:
 * every metric's mean, and for one question and metric which cluster each predicted answer was
 * assigned, through which member, and what it earned.
 */
export function ScorePanel({
  sets,
  questions,
}: {
  sets: { id: number; name: string; questions: number }[]
  questions: QuestionSummary[]
}) {
  const [set, setSet] = useState<number | null>(sets[0]?.id ?? null)
  const [similarity, setSimilarity] = useState<SimilarityName>('exact')
  const [means, setMeans] = useState<{
    key: string
    rows: { metric: string; mean: number }[]
  } | null>(null)
  const clustered = questions.filter((q) => q.final)
  const [question, setQuestion] = useState<string | null>(clustered[0]?.id ?? null)
  const [metric, setMetric] = useState('Max Answers - 10')
  const [detail, setDetail] = useState<QuestionScoreView | null>(null)
  const meansKey = `${set}:${similarity}`

  useEffect(() => {
    if (set === null) return
    let live = true
    api.protoqa
      .scoreSet({ set, similarity })
      .then((rows) => {
        if (live) setMeans({ key: meansKey, rows })
      })
      .catch((e: unknown) => showError('Scoring predictions', e))
    return () => {
      live = false
    }
  }, [set, similarity, meansKey])
  useEffect(() => {
    if (set === null || question === null) return
    let live = true
    api.protoqa
      .score({ set, question, metric, similarity })
      .then((d) => {
        if (live) setDetail(d)
      })
      .catch((e: unknown) => showError('Scoring predictions', e))
    return () => {
      live = false
    }
  }, [set, question, metric, similarity])

  if (sets.length === 0)
    return <p className="protoqa-empty">Import a prediction file to score it here.</p>
  // WordNet is read the first time it is asked for; the figures of the other choice would mislead.
  const scoring = means === null || means.key !== meansKey
  const shown = detail !== null && detail.similarity === similarity ? detail : null
  return (
    <div className="protoqa-scores" data-testid="score-panel">
      <div className="protoqa-actions">
        <label>
          Predictions{' '}
          <select value={set ?? ''} onChange={(e) => setSet(Number(e.target.value))}>
            {sets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({plural(s.questions, 'question')})
              </option>
            ))}
          </select>
        </label>
        <label>
          Compared by{' '}
          <select
            value={similarity}
            data-testid="score-similarity"
            onChange={(e) => setSimilarity(e.target.value as SimilarityName)}
          >
            {(Object.keys(SIMILARITY_LABELS) as SimilarityName[]).map((s) => (
              <option key={s} value={s}>
                {SIMILARITY_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        {scoring && (
          <span className="note busy" data-testid="score-busy">
            {similarity === 'wordnet' ? 'Scoring with WordNet…' : 'Scoring…'}
          </span>
        )}
      </div>
      <table className="protoqa-table" data-testid="score-means" aria-busy={scoring}>
        <tbody>
          {(scoring ? [] : means.rows).map((m) => (
            <tr key={m.metric} data-metric={m.metric}>
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
        {shown && (
          <span data-testid="score-question">
            {shown.score.points} of {shown.score.oracle} → {shown.score.score.toFixed(4)}
          </span>
        )}
      </div>
      {shown && <Assignment view={shown} />}
    </div>
  )
}

/** Why each predicted answer scored: its cluster, the member it matched, its points. */
function Assignment({ view }: { view: QuestionScoreView }) {
  return (
    <table className="protoqa-table" data-testid="score-assignment">
      <thead>
        <tr>
          <th>#</th>
          <th>Predicted</th>
          <th>Compared as</th>
          <th>Assigned cluster</th>
          <th>Matched</th>
          <th>Points</th>
        </tr>
      </thead>
      <tbody>
        {view.score.answers.map((a, i) => {
          const c = a.cluster === null ? null : view.clusters[a.cluster]
          return (
            <tr key={i} data-testid="score-answer">
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
              <td>{view.matched[i] ?? ''}</td>
              <td>{a.points}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
