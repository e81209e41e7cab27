import type { ColDef, GridApi, IDatasource, IGetRowsParams } from 'ag-grid-community'
import { AgGridReact } from 'ag-grid-react'
import { useEffect, useMemo, useRef, useState } from 'react'
import {
  SESSION_SORTS,
  type SessionChoices,
  type SessionFilter,
  type SessionRow,
  type SessionSort,
} from '../../../../shared/halie/sessions'
import type { HalieTask } from '../../../../shared/halie/tasks'
import { api } from '../../api'
import { BLOCK_SIZE, gridTheme } from '../grid/gridSetup'
import { MultiPick } from '../grid/MultiPick'
import { showError } from '../messages/messages'
import { useStore } from '../../lib/store'
import { RatingBadge } from '../ratings/RatingBadge'
import { ratingsVersion } from '../ratings/ratingState'
import { ratingScale } from '../ratings/scale'
import { rateHalie, ratingOfKey } from './rateHalie'

const fixed = (digits: number) => (p: { value: unknown }) =>
  typeof p.value === 'number' ? p.value.toFixed(digits) : ''

const COLUMNS: ColDef<SessionRow>[] = [
  { field: 'task', width: 110 },
  { field: 'session', colId: 'session', width: 150, tooltipField: 'session' },
  { field: 'worker', width: 150, tooltipField: 'worker' },
  { field: 'model', width: 130 },
  { field: 'prompt', flex: 1, minWidth: 160, tooltipField: 'prompt' },
  { field: 'blocks', width: 80, type: 'numericColumn' },
  { field: 'queries', width: 85, type: 'numericColumn' },
  {
    field: 'elapsedMinutes',
    colId: 'elapsed',
    headerName: 'Minutes',
    width: 95,
    type: 'numericColumn',
    valueFormatter: fixed(2),
  },
  {
    field: 'accuracy',
    width: 95,
    type: 'numericColumn',
    valueFormatter: fixed(3),
  },
  {
    field: 'events',
    headerName: 'Log events',
    width: 100,
    type: 'numericColumn',
    valueFormatter: (p) => (p.value ? String(p.value) : '—'),
  },
  {
    colId: 'rating',
    field: 'rating',
    headerName: 'Rating',
    width: 110,
    sortable: false,
    cellRenderer: (p: { data?: SessionRow }) =>
      p.data ? <RatingBadge value={p.data.rating} source={p.data.ratingSource ?? 'none'} /> : null,
  },
  {
    colId: 'scores',
    headerName: 'Survey',
    width: 220,
    sortable: false,
    valueGetter: (p) =>
      p.data
        ? Object.entries(p.data.scores)
            .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(2)}`)
            .join(', ')
        : '',
    tooltipValueGetter: (p) => (typeof p.value === 'string' ? p.value : ''),
  },
]

function numberOrUndefined(text: string): number | undefined {
  if (text.trim() === '') return undefined
  const n = Number(text)
  return Number.isFinite(n) ? n : undefined
}

function RangeInput({
  label,
  testId,
  onChange,
}: {
  label: string
  testId: string
  onChange: (range: { min?: number; max?: number } | undefined) => void
}) {
  const [min, setMin] = useState('')
  const [max, setMax] = useState('')
  useEffect(() => {
    const lo = numberOrUndefined(min)
    const hi = numberOrUndefined(max)
    onChange(
      lo === undefined && hi === undefined
        ? undefined
        : { ...(lo !== undefined ? { min: lo } : {}), ...(hi !== undefined ? { max: hi } : {}) },
    )
    // onChange is a fresh closure each render; the values are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [min, max])
  return (
    <span className="halie-range">
      {label}
      <input
        aria-label={`${label} from`}
        data-testid={`${testId}-min`}
        inputMode="decimal"
        value={min}
        onChange={(e) => setMin(e.target.value)}
      />
      –
      <input
        aria-label={`${label} to`}
        data-testid={`${testId}-max`}
        inputMode="decimal"
        value={max}
        onChange={(e) => setMax(e.target.value)}
      />
    </span>
  )
}

/** HALIE sessions in the review grid's machinery (infinite rows, sorted and filtered in main). */
export function SessionsGrid({
  dataVersion,
  onOpen,
}: {
  dataVersion: number
  onOpen: (row: SessionRow) => void
}) {
  const [choices, setChoices] = useState<SessionChoices | null>(null)
  const [filter, setFilter] = useState<SessionFilter>({})
  const [total, setTotal] = useState<number | null>(null)
  const [scoreName, setScoreName] = useState('')
  const [scoreRange, setScoreRange] = useState<{ min?: number; max?: number } | undefined>()
  const grid = useRef<GridApi<SessionRow> | null>(null)
  const scale = useStore(ratingScale)

  // A rating anywhere (here, History, undo) re-reads the rows in view.
  useEffect(() => ratingsVersion.subscribe(() => grid.current?.refreshInfiniteCache()), [])

  useEffect(() => {
    api.halie
      .choices({})
      .then(setChoices)
      .catch((e: unknown) => showError('Reading HALIE sessions', e))
  }, [dataVersion])

  const effective = useMemo<SessionFilter>(
    () => ({
      ...filter,
      ...(scoreName ? { scores: [{ name: scoreName, ...scoreRange }] } : {}),
    }),
    [filter, scoreName, scoreRange],
  )

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows(params: IGetRowsParams) {
        const first = params.sortModel[0]
        const sort = SESSION_SORTS.find((s): s is SessionSort => s === first?.colId)
        api.halie
          .sessions({
            filter: effective,
            ...(sort ? { sort, descending: first?.sort === 'desc' } : {}),
            offset: params.startRow,
            limit: params.endRow - params.startRow,
          })
          .then((page) => {
            setTotal(page.total)
            params.successCallback(page.rows, page.total)
          })
          .catch((e: unknown) => {
            params.failCallback()
            showError('Reading HALIE sessions', e)
          })
      },
    }),
    // A new import reads the rows again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [effective, dataVersion],
  )
  useEffect(() => {
    grid.current?.setGridOption('datasource', datasource)
  }, [datasource])

  const set = <K extends keyof SessionFilter>(key: K, value: SessionFilter[K]): void =>
    setFilter((f) => {
      const next = { ...f }
      if (value === undefined || (Array.isArray(value) && value.length === 0)) delete next[key]
      else next[key] = value
      return next
    })

  return (
    <div className="halie-sessions">
      <div className="halie-filters" data-testid="halie-filters">
        <MultiPick<HalieTask>
          label="Task"
          testId="halie-filter-task"
          options={(choices?.tasks ?? []).map((t) => ({ value: t, label: t, name: t }))}
          selected={filter.tasks ?? []}
          onToggle={(t, on) =>
            set(
              'tasks',
              on ? [...(filter.tasks ?? []), t] : (filter.tasks ?? []).filter((x) => x !== t),
            )
          }
        />
        <MultiPick<string>
          label="Model"
          testId="halie-filter-model"
          options={(choices?.models ?? []).map((m) => ({ value: m, label: m, name: m }))}
          selected={filter.models ?? []}
          onToggle={(m, on) =>
            set(
              'models',
              on ? [...(filter.models ?? []), m] : (filter.models ?? []).filter((x) => x !== m),
            )
          }
        />
        <input
          className="halie-text"
          placeholder="Worker ids"
          aria-label="Workers"
          data-testid="halie-filter-worker"
          onChange={(e) =>
            set(
              'workers',
              e.target.value
                .split(/[\s,]+/)
                .map((w) => w.trim())
                .filter(Boolean),
            )
          }
        />
        <input
          className="halie-text"
          placeholder="Prompt contains"
          aria-label="Prompt"
          data-testid="halie-filter-prompt"
          onChange={(e) => set('prompt', e.target.value || undefined)}
        />
        <RangeInput
          label="Minutes"
          testId="halie-filter-elapsed"
          onChange={(r) => set('elapsed', r)}
        />
        <RangeInput
          label="Queries"
          testId="halie-filter-queries"
          onChange={(r) => set('queries', r)}
        />
        <RangeInput
          label="Accuracy"
          testId="halie-filter-accuracy"
          onChange={(r) => set('accuracy', r)}
        />
        <select
          aria-label="Survey score"
          data-testid="halie-filter-score"
          value={scoreName}
          onChange={(e) => setScoreName(e.target.value)}
        >
          <option value="">Survey score…</option>
          {choices?.scores.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        {scoreName && (
          <RangeInput label={scoreName} testId="halie-filter-score" onChange={setScoreRange} />
        )}
        <label className="halie-check">
          <input
            type="checkbox"
            data-testid="halie-filter-log"
            checked={filter.withLog ?? false}
            onChange={(e) => set('withLog', e.target.checked || undefined)}
          />
          With a raw log
        </label>
        <span className="halie-total" data-testid="halie-total">
          {total === null ? '' : `${total} sessions`}
        </span>
      </div>
      <div className="halie-grid" data-testid="halie-grid">
        <AgGridReact<SessionRow>
          theme={gridTheme}
          columnDefs={COLUMNS}
          defaultColDef={{ sortable: true, resizable: true }}
          rowModelType="infinite"
          cacheBlockSize={BLOCK_SIZE}
          getRowId={(p) => String(p.data.id)}
          onGridReady={(e) => {
            grid.current = e.api
            e.api.setGridOption('datasource', datasource)
          }}
          rowSelection={{ mode: 'multiRow', checkboxes: false, enableClickSelection: true }}
          onCellKeyDown={(e) => {
            const event = e.event as KeyboardEvent | undefined
            const key = event?.key
            if (key === 'Enter' && e.data) onOpen(e.data)
            if (!key || !e.data || event.ctrlKey || event.metaKey || event.altKey) return
            // Digits rate as in the review grid: the selected sessions, else the focused one.
            const value = key === 'Backspace' || key === 'Delete' ? null : ratingOfKey(scale, key)
            if (value === undefined) return
            event.preventDefault()
            const selected = e.api.getSelectedRows().map((r) => r.id)
            const ids = selected.includes(e.data.id) ? selected : [e.data.id]
            void rateHalie({ kind: 'sessions', ids }, value, scale)
          }}
          onCellClicked={(e) => {
            const event = e.event as MouseEvent | undefined
            // A click on the rating, or with a modifier (selecting), stays in the grid to rate.
            if (
              e.column.getColId() === 'rating' ||
              event?.ctrlKey ||
              event?.metaKey ||
              event?.shiftKey
            )
              return
            if (e.data) onOpen(e.data)
          }}
        />
      </div>
    </div>
  )
}
