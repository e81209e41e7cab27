import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { QuestionDetail, SavedClustering } from '../../../../shared/protoqa/model'
import { MIN_TOP_ANSWERS, TOP_CLUSTERS } from '../../../../shared/protoqa/selection'
import { api } from '../../api'
import { isPrimaryModifier, isTypingTarget } from '../../lib/keys'
import { showError, showInfo } from '../messages/messages'
import {
  type Draft,
  clusterCounts,
  clusterName,
  emptyDraft,
  fixSpelling,
  forSaving,
  merge,
  moveTo,
  newCluster,
  placeOf,
  rename,
  selectionOf,
  type Synonyms,
  noSynonyms,
  suggest,
  suggestionReason,
  synonymIndex,
  synonymTexts,
  toggleInvalid,
  unassign,
} from './clusterDraft'
import { plural } from '../../lib/format'

type Prompt = { kind: 'rename' | 'fix'; value: string } | { kind: 'merge' } | null

const HELP =
  'j/k or ↓/↑ answer · 1–9 into cluster · n new cluster · x invalid · u unclustered · s take suggestion · m then 1–9 merge its cluster · r rename cluster · e fix spelling · Ctrl+S save'

function fromClustering(c: SavedClustering): Draft {
  return {
    clusters: c.clusters.map((x) => ({ name: x.name, answers: [...x.answers] })),
    invalid: [...c.invalid],
    fixes: { ...c.fixes },
  }
}

/**
 * One question's answers and one reviewer's clusters, keyboard first. `startFrom` (a reviewer's
 * name, `imported` or `final`) makes this the final clustering, begun from that one.
 */
export function ClusterBoard({
  question,
  reviewer,
  startFrom,
  onSaved,
}: {
  question: string
  reviewer: string
  startFrom: string | null
  onSaved: () => void
}) {
  const role = startFrom === null ? 'reviewer' : 'final'
  const [detail, setDetail] = useState<QuestionDetail | null>(null)
  const [draft, setDraft] = useState<Draft>(emptyDraft)
  const [focus, setFocus] = useState(0)
  const [prompt, setPrompt] = useState<Prompt>(null)
  const [dirty, setDirty] = useState(false)
  const [savedAt, setSavedAt] = useState<number | null>(null)
  // The answer `s` was pressed on with nothing to suggest: said beside it until the focus moves.
  const [unsuggested, setUnsuggested] = useState<string | null>(null)
  const board = useRef<HTMLDivElement>(null)

  useEffect(() => {
    let live = true
    api.protoqa
      .question({ id: question })
      .then((d) => {
        if (!live) return
        setDetail(d)
        const source =
          startFrom === null
            ? d.clusterings.find((c) => c.role === 'reviewer' && c.author === reviewer)
            : d.clusterings.find((c) =>
                startFrom === 'final' || startFrom === 'imported'
                  ? c.role === startFrom
                  : c.role === 'reviewer' && c.author === startFrom,
              )
        setDraft(source ? fromClustering(source) : emptyDraft)
        setSavedAt(source && startFrom === null ? source.recordedAt : null)
        board.current?.focus()
      })
      .catch((e: unknown) => showError(`Loading ${question}`, e))
    return () => {
      live = false
    }
  }, [question, reviewer, startFrom])

  const answers = useMemo(
    () =>
      [...(detail?.answers ?? [])].sort(
        (a, b) => b.count - a.count || a.text.localeCompare(b.text),
      ),
    [detail],
  )
  const counts = useMemo(() => new Map(answers.map((a) => [a.text, a.count])), [answers])
  const synonyms = useSynonyms(
    detail === null
      ? null
      : JSON.stringify(
          synonymTexts(
            draft,
            answers.map((a) => a.text),
          ),
        ),
  )
  const sums = clusterCounts(draft, counts)
  const selection = selectionOf(draft, counts)
  const total = answers.reduce((s, a) => s + a.count, 0)
  const placed = answers.filter((a) => placeOf(draft, a.text) !== null).length
  const current = answers[focus]?.text ?? null
  const suggestion =
    current !== null && placeOf(draft, current) === null ? suggest(draft, current, synonyms) : null

  const update = (next: Draft): void => {
    setDraft(next)
    setDirty(true)
  }
  /** After a placement: the next answer not yet placed, below the focus first. */
  const advance = (next: Draft): void => {
    for (let step = 1; step <= answers.length; step++) {
      const i = (focus + step) % answers.length
      const a = answers[i]
      if (a && placeOf(next, a.text) === null) {
        setFocus(i)
        return
      }
    }
    setFocus(Math.min(focus + 1, answers.length - 1))
  }
  const place = (next: Draft): void => {
    update(next)
    advance(next)
  }

  async function save(): Promise<void> {
    if (reviewer === '') {
      showInfo('Name the reviewer first (the field at the top of the page).')
      return
    }
    try {
      const saved = await api.protoqa.saveClustering({
        question,
        role,
        reviewer,
        draft: forSaving(draft),
      })
      setDraft(fromClustering(saved))
      setDirty(false)
      setSavedAt(saved.recordedAt)
      showInfo(
        role === 'final'
          ? `Recorded the final clustering of ${question}, decided by ${reviewer}`
          : `Saved ${reviewer}'s clustering of ${question}`,
      )
      onSaved()
    } catch (e) {
      showError('Saving the clustering', e)
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>): void {
    if (isTypingTarget(e.target)) return
    if (isPrimaryModifier(e) && e.key.toLowerCase() === 's') {
      e.preventDefault()
      void save()
      return
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return
    const digit = /^[1-9]$/.test(e.key) ? Number(e.key) - 1 : null
    if (prompt?.kind === 'merge') {
      setPrompt(null)
      const from = current === null ? null : placeOf(draft, current)
      if (digit !== null && typeof from === 'number') update(merge(draft, from, digit))
      e.preventDefault()
      return
    }
    if (current === null) return
    if (e.key !== 's') setUnsuggested(null)
    const here = placeOf(draft, current)
    let handled = true
    if (e.key === 'j' || e.key === 'ArrowDown') setFocus(Math.min(focus + 1, answers.length - 1))
    else if (e.key === 'k' || e.key === 'ArrowUp') setFocus(Math.max(focus - 1, 0))
    else if (digit !== null) {
      if (digit < draft.clusters.length) place(moveTo(draft, current, digit))
    } else if (e.key === 'n') place(newCluster(draft, current))
    else if (e.key === 'x') place(toggleInvalid(draft, current))
    else if (e.key === 'u') update(unassign(draft, current))
    else if (e.key === 's') {
      if (suggestion) place(moveTo(draft, current, suggestion.cluster))
      else setUnsuggested(current)
    } else if (e.key === 'm' && typeof here === 'number') setPrompt({ kind: 'merge' })
    else if (e.key === 'r' && typeof here === 'number')
      setPrompt({ kind: 'rename', value: draft.clusters[here]?.name ?? '' })
    else if (e.key === 'e') setPrompt({ kind: 'fix', value: draft.fixes[current] ?? current })
    else handled = false
    if (handled) e.preventDefault()
  }

  function finishPrompt(value: string | null): void {
    if (value !== null && current !== null && prompt !== null) {
      const here = placeOf(draft, current)
      if (prompt.kind === 'rename' && typeof here === 'number') update(rename(draft, here, value))
      if (prompt.kind === 'fix') update(fixSpelling(draft, current, value))
    }
    setPrompt(null)
    board.current?.focus()
  }

  useEffect(() => {
    document.querySelector(`[data-answer-index="${focus}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [focus])

  if (detail === null) return <div className="protoqa-board" />
  const onDropInto = (index: number) => (e: React.DragEvent) => {
    e.preventDefault()
    const answer = e.dataTransfer.getData('text/plain')
    if (!counts.has(answer)) return
    update(
      index === -1 ? toggleInvalid(unassign(draft, answer), answer) : moveTo(draft, answer, index),
    )
  }
  const dragAnswer = (answer: string) => (e: React.DragEvent) => {
    e.dataTransfer.setData('text/plain', answer)
  }
  return (
    <div
      className="protoqa-board"
      ref={board}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="cluster-board"
      aria-label={`Clustering of ${question}`}
    >
      <div className="protoqa-board-head">
        <div>
          <div className="protoqa-question-title" data-testid="cluster-question">
            {detail.id}: {detail.original}
          </div>
          <div className="protoqa-board-meta">
            {role === 'final'
              ? `Final clustering, decided by ${reviewer || '…'} (begun from ${startFrom ?? ''})`
              : `${reviewer || '…'}'s clustering`}
            {' · '}
            <span data-testid="cluster-progress">
              {placed} of {plural(answers.length, 'answer')} placed
            </span>
            {' · '}
            {savedAt === null ? 'not saved yet' : dirty ? 'unsaved changes' : 'saved'}
          </div>
        </div>
        <div
          className={selection.passes ? 'protoqa-rule' : 'protoqa-rule protoqa-warn'}
          data-testid="cluster-rule"
          title={`The ProtoQA selection rule: a question was kept when its ${TOP_CLUSTERS} largest clusters held at least ${MIN_TOP_ANSWERS} of the 100 responses`}
        >
          {TOP_CLUSTERS} largest clusters hold {selection.topAnswers} of {plural(total, 'response')}
          {!selection.passes && ` (fewer than ${MIN_TOP_ANSWERS})`}
        </div>
        {role === 'reviewer' && detail.clusterings.some((c) => c.role === 'imported') && (
          <button
            className="small"
            onClick={() => {
              const imported = detail.clusterings.find((c) => c.role === 'imported')
              if (imported) update(fromClustering(imported))
            }}
          >
            Start from the imported clustering
          </button>
        )}
        <button className="primary small" data-testid="cluster-save" onClick={() => void save()}>
          {role === 'final' ? 'Record final clustering' : 'Save clustering'}
        </button>
      </div>
      {prompt !== null && prompt.kind !== 'merge' && (
        <PromptField
          label={prompt.kind === 'rename' ? 'Cluster name' : `Spelling of "${current ?? ''}"`}
          initial={prompt.value}
          onDone={finishPrompt}
        />
      )}
      {prompt?.kind === 'merge' && (
        <div className="protoqa-prompt">Merge this cluster into cluster… (1–9, Esc to cancel)</div>
      )}
      <div className="protoqa-board-body">
        <ol className="protoqa-answers" data-testid="cluster-answers">
          {answers.map((a, i) => {
            const where = placeOf(draft, a.text)
            const fixed = draft.fixes[a.text]
            return (
              <li
                key={a.text}
                data-answer-index={i}
                data-testid="cluster-answer"
                className={i === focus ? 'protoqa-answer focused' : 'protoqa-answer'}
                aria-current={i === focus}
                draggable
                onDragStart={dragAnswer(a.text)}
                onClick={() => {
                  setFocus(i)
                  setUnsuggested(null)
                  board.current?.focus()
                }}
              >
                <span className="protoqa-count">{a.count}</span>
                <span className="protoqa-answer-text">
                  {a.text}
                  {fixed !== undefined && <span className="protoqa-fixed"> → {fixed}</span>}
                </span>
                <span className="protoqa-place" data-testid="cluster-answer-place">
                  {where === null ? '—' : where === 'invalid' ? 'invalid' : `${where + 1}`}
                </span>
                {i === focus && suggestion && (
                  <span className="protoqa-suggestion" data-testid="cluster-suggestion">
                    s: cluster {suggestion.cluster + 1} ({suggestionReason(suggestion)})
                  </span>
                )}
                {i === focus && !suggestion && unsuggested === a.text && (
                  <span
                    className="protoqa-suggestion protoqa-no-suggestion"
                    role="status"
                    data-testid="cluster-no-suggestion"
                  >
                    {noSuggestion(draft, a.text)}
                  </span>
                )}
              </li>
            )
          })}
        </ol>
        <div className="protoqa-clusters" data-testid="cluster-list">
          {draft.clusters.map((c, i) => (
            <section
              key={i}
              className={
                current !== null && placeOf(draft, current) === i
                  ? 'protoqa-cluster current'
                  : 'protoqa-cluster'
              }
              data-testid="cluster"
              onDragOver={(e) => e.preventDefault()}
              onDrop={onDropInto(i)}
            >
              <header>
                <span className="protoqa-key">{i + 1}</span>
                <span className="protoqa-cluster-name" data-testid="cluster-name">
                  {clusterName(draft, i)}
                </span>
                <span className="protoqa-count" data-testid="cluster-count">
                  {sums[i]}
                </span>
              </header>
              <ul>
                {c.answers.map((a) => (
                  <li key={a} draggable onDragStart={dragAnswer(a)}>
                    {draft.fixes[a] ?? a}
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <section
            className="protoqa-cluster new"
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault()
              const answer = e.dataTransfer.getData('text/plain')
              if (counts.has(answer)) update(newCluster(draft, answer))
            }}
          >
            <header>n · New cluster (drop an answer here)</header>
          </section>
          <section
            className="protoqa-cluster invalid"
            data-testid="cluster-invalid"
            onDragOver={(e) => e.preventDefault()}
            onDrop={onDropInto(-1)}
          >
            <header>
              x · Invalid ({draft.invalid.reduce((s, a) => s + (counts.get(a) ?? 0), 0)})
            </header>
            <ul>
              {draft.invalid.map((a) => (
                <li key={a} draggable onDragStart={dragAnswer(a)}>
                  {a}
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
      <p className="protoqa-help">{HELP}</p>
    </div>
  )
}

/** Why `s` did nothing on an answer. */
function noSuggestion(draft: Draft, answer: string): string {
  const here = placeOf(draft, answer)
  if (here === 'invalid') return 's: nothing to suggest, the answer is marked invalid'
  if (typeof here === 'number') return `s: nothing to suggest, the answer is in cluster ${here + 1}`
  return 's: no suggestion; no placed answer is the same, a normalised match or a WordNet synonym'
}

/**
 * The WordNet synonyms among a question's answers and fixes (`texts`, as JSON, so that an edit
 * that keeps them asks nothing), asked of main whenever they change (it reads WordNet the first
 * time, on a thread of its own).
 */
function useSynonyms(texts: string | null): Synonyms {
  const [synonyms, setSynonyms] = useState<Synonyms>(noSynonyms)
  useEffect(() => {
    if (texts === null) return
    let live = true
    api.protoqa
      .synonyms({ texts: JSON.parse(texts) as string[] })
      .then((pairs) => {
        if (live) setSynonyms(synonymIndex(pairs))
      })
      .catch((e: unknown) => showError('Finding WordNet synonyms', e))
    return () => {
      live = false
    }
  }, [texts])
  // Until the answer comes, the synonyms of the texts before a spelling fix still hold.
  return synonyms
}

function PromptField({
  label,
  initial,
  onDone,
}: {
  label: string
  initial: string
  onDone: (value: string | null) => void
}) {
  const [value, setValue] = useState(initial)
  return (
    <label className="protoqa-prompt">
      {label}
      <input
        autoFocus
        data-testid="cluster-prompt"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onDone(value)
          else if (e.key === 'Escape') onDone(null)
          else return
          e.preventDefault()
          e.stopPropagation()
        }}
      />
    </label>
  )
}
