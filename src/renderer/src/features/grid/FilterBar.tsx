import { useEffect, useRef, useState } from 'react'
import { DIMENSIONS } from '../../../../shared/glucose/dimensions'
import {
  ANNOTATION_FLAG_NAMES,
  type AnnotationFlagName,
  flagLabel,
} from '../../../../shared/glucose/flags'
import {
  type AnnotationFilter,
  type RatingValue,
  filterChips,
  isDay,
  removeChip,
} from '../../../../shared/filter'
import { isTypingTarget } from '../../lib/keys'
import { useStore } from '../../lib/store'
import { RatingBadge } from '../ratings/RatingBadge'
import { ratingScale } from '../ratings/scale'
import { formatRating } from '../ratings/scaleMath'
import { ColumnsMenu } from './ColumnsMenu'
import { FilterTextInput } from './FilterTextInput'
import { MultiPick } from './MultiPick'
import { RowLayoutPick } from './RowLayoutPick'
import { ViewsMenu } from './ViewsMenu'
import { StoryTypeahead, WorkerTypeahead } from './Typeahead'
import { goBack, goForward, setFilter, updateFilter, useWorkspace } from './workspaceModel'

/** The Flagged menu's first choice: any flag at all. */
const ANY_FLAG = 'any'

function isAnnotationFlagName(value: string): value is AnnotationFlagName {
  return (ANNOTATION_FLAG_NAMES as readonly string[]).includes(value)
}

function toggle<V>(list: readonly V[] | undefined, value: V, on: boolean): V[] {
  const rest = (list ?? []).filter((v) => v !== value)
  return on ? [...rest, value] : rest
}

/** Every filter of the grid in one bar, and the active ones as removable chips below. */
export function FilterBar() {
  const model = useWorkspace()
  const { history } = useStore(model.filter)
  const filter = history.present
  const scale = useStore(ratingScale)
  const searchRef = useRef<HTMLInputElement>(null)

  // "/" jumps to the full-text search from anywhere that is not a text field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return
      // Another page is on screen (the workspace is hidden, not unmounted).
      if (searchRef.current?.offsetParent === null) return
      e.preventDefault()
      searchRef.current?.focus()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const change = (update: (f: AnnotationFilter) => AnnotationFilter) => updateFilter(model, update)
  const ratingOptions: RatingValue[] = [...scale.map((l) => l.value), 'unrated']

  return (
    <div className="filterbar" role="search" aria-label="Filter annotations">
      <div className="filter-row">
        <div className="toolbar-group">
          <button
            className="icon-button nav-button"
            aria-label="Back (Alt+←)"
            title="Back (Alt+←)"
            disabled={history.past.length === 0}
            data-testid="filter-back"
            onClick={() => goBack(model)}
          >
            ←
          </button>
          <button
            className="icon-button nav-button"
            aria-label="Forward (Alt+→)"
            title="Forward (Alt+→)"
            disabled={history.future.length === 0}
            data-testid="filter-forward"
            onClick={() => goForward(model)}
          >
            →
          </button>
        </div>
        <FilterTextInput
          field="text"
          className="search-input"
          placeholder="Search statements, rules…"
          label="Full-text search over statements and rules"
          testId="filter-text"
          inputRef={searchRef}
        />
        <FilterTextInput
          field="sentence"
          className="sentence-input"
          placeholder="Sentence contains…"
          label="Selected sentence contains"
          testId="filter-sentence"
        />
        <WorkerTypeahead />
        <StoryTypeahead />
        <MultiPick
          label="Dimension"
          testId="filter-dimension"
          options={DIMENSIONS.map((d) => ({
            value: d.number,
            name: `${d.number} ${d.name}`,
            label: (
              <span>
                <span className="dimension-number">{d.number}</span> {d.name}
              </span>
            ),
          }))}
          selected={filter.dimensions ?? []}
          summary={(filter.dimensions ?? []).join(', ')}
          onToggle={(d, on) => change((f) => ({ ...f, dimensions: toggle(f.dimensions, d, on) }))}
        />
        <MultiPick
          label="Rating"
          testId="filter-rating"
          options={ratingOptions.map((r) => {
            if (r === 'unrated') {
              return { value: r, name: 'unrated', label: <RatingBadge value={null} /> }
            }
            const level = scale.find((l) => l.value === r)?.label ?? ''
            return {
              value: r,
              name: `rating ${r} ${level}`.trim(),
              label: (
                <span>
                  <RatingBadge value={r} /> {level}
                </span>
              ),
            }
          })}
          selected={filter.ratings ?? []}
          summary={(filter.ratings ?? [])
            .map((r) => (r === 'unrated' ? 'unrated' : formatRating(r)))
            .join(', ')}
          onToggle={(r, on) => change((f) => ({ ...f, ratings: toggle(f.ratings, r, on) }))}
        />
        <DateRange
          from={filter.from}
          to={filter.to}
          onChange={(from, to) =>
            change((f) => {
              const next = { ...f }
              if (from) next.from = from
              else delete next.from
              if (to) next.to = to
              else delete next.to
              return next
            })
          }
        />
        <MultiPick<string>
          label="Flagged"
          testId="filter-flagged"
          options={[
            { value: ANY_FLAG, name: 'any flag', label: 'Any flag' },
            ...ANNOTATION_FLAG_NAMES.map((k) => ({
              value: k,
              name: flagLabel(k),
              label: flagLabel(k),
            })),
          ]}
          selected={[...(filter.flagged ? [ANY_FLAG] : []), ...(filter.flagKinds ?? [])]}
          summary={
            filter.flagKinds?.length ? String(filter.flagKinds.length) : filter.flagged ? 'any' : ''
          }
          onToggle={(kind, on) =>
            change((f) => {
              if (kind === ANY_FLAG) return { ...f, flagged: on }
              const kinds = toggle(f.flagKinds, kind, on).filter(isAnnotationFlagName)
              return { ...f, flagKinds: kinds }
            })
          }
        />
      </div>
      <Chips filter={filter} onChange={(f) => setFilter(model, f)} />
    </div>
  )
}

/** Submitted from / to as ISO days (`YYYY-MM-DD`, typed); a range that ends before it starts is refused. */
function DateRange({
  from,
  to,
  onChange,
}: {
  from?: string
  to?: string
  onChange: (from?: string, to?: string) => void
}) {
  const [problem, setProblem] = useState<string | null>(null)
  const take = (nextFrom: string | undefined, nextTo: string | undefined): string | null => {
    if (nextFrom && nextTo && nextFrom > nextTo)
      return `“From” ${nextFrom} is after “to” ${nextTo}: the range would hold no day.`
    onChange(nextFrom, nextTo)
    return null
  }
  return (
    <div className="date-range" title="Submitted between (UTC days, YYYY-MM-DD)">
      <DayInput
        label="Submitted from"
        value={from}
        testId="filter-from"
        onDay={(day) => take(day, to)}
        onProblem={setProblem}
      />
      <span className="note">–</span>
      <DayInput
        label="Submitted to"
        value={to}
        testId="filter-to"
        onDay={(day) => take(from, day)}
        onProblem={setProblem}
      />
      {problem && (
        <span className="field-problem" role="alert" data-testid="date-problem">
          {problem}
        </span>
      )}
    </div>
  )
}

/**
 * A day typed as `YYYY-MM-DD`, as every date in the app is written (a date picker would show the
 * browser's locale). It applies once it is a real day (or empty) and the range allows it.
 */
function DayInput({
  label,
  value,
  testId,
  onDay,
  onProblem,
}: {
  label: string
  value?: string
  testId: string
  /** Returns why the day cannot be taken, or null once it is. */
  onDay: (day: string | undefined) => string | null
  onProblem: (problem: string | null) => void
}) {
  const [text, setText] = useState(value ?? '')
  const [seen, setSeen] = useState(value)
  const [bad, setBad] = useState(false)
  if (value !== seen) {
    setSeen(value)
    setText(value ?? '')
    setBad(false)
  }
  return (
    <input
      type="text"
      className="day-input"
      inputMode="numeric"
      placeholder="YYYY-MM-DD"
      maxLength={10}
      spellCheck={false}
      aria-label={label}
      aria-invalid={bad}
      value={text}
      data-testid={testId}
      onChange={(e) => {
        const t = e.target.value.trim()
        setText(e.target.value)
        if (t !== '' && !isDay(t)) {
          // Half-typed days wait; a full-length one that is no day says so.
          const wrong = t.length >= 10
          setBad(wrong)
          onProblem(wrong ? `${t} is not a day: write it YYYY-MM-DD.` : null)
          return
        }
        const problem = onDay(t || undefined)
        setBad(problem !== null)
        onProblem(problem)
      }}
    />
  )
}

function Chips({
  filter,
  onChange,
}: {
  filter: AnnotationFilter
  onChange: (f: AnnotationFilter) => void
}) {
  const model = useWorkspace()
  const total = useStore(model.total)
  const chips = filterChips(filter)
  return (
    <div className="chip-row">
      <div className="chips" aria-label="Active filters">
        {chips.length === 0 && <span className="note">All annotations</span>}
        {chips.map((chip) => (
          <span
            key={`${chip.field}:${String(chip.value)}`}
            className={`chip chip-${chip.field}`}
            data-testid="filter-chip"
          >
            <span className="chip-label">{chip.label}</span>
            <button
              className="chip-remove"
              aria-label={`Remove filter ${chip.label}`}
              data-testid="filter-chip-remove"
              onClick={() => onChange(removeChip(filter, chip))}
            >
              ×
            </button>
          </span>
        ))}
        {chips.length > 1 && (
          <button className="link clear-all" onClick={() => onChange({})}>
            Clear all
          </button>
        )}
      </div>
      <GridTotal total={total} />
      <ViewsMenu />
      <RowLayoutPick />
      <ColumnsMenu />
    </div>
  )
}

function GridTotal({ total }: { total: number | null }) {
  return (
    <span
      className="grid-total"
      data-testid="grid-total"
      data-total={total ?? ''}
      aria-live="polite"
    >
      {total === null
        ? 'Counting…'
        : `${total.toLocaleString('en-US')} annotation${total === 1 ? '' : 's'}`}
    </span>
  )
}
