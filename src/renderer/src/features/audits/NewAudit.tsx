import { useState } from 'react'
import type { AuditDrawInput } from '../../../../shared/contract/audits'
import { type AnnotationFilter, filterChips, isEmptyFilter } from '../../../../shared/filter'
import type { WorkerMatch } from '../../../../shared/contract/review'
import { useStore } from '../../lib/store'
import { plural } from '../../../../shared/text'
import { Typeahead, searchWorkers, workerOption } from '../grid/Typeahead'
import { useFilterTotal } from '../grid/useFilterTotal'
import { ratingScale } from '../ratings/scale'
import { ratingText } from '../ratings/scaleMath'
import { reviewFilter } from '../shell/navigation'

type Source = 'grid' | 'tier' | 'worker' | 'dimension' | 'all'

/** The form that draws a new audit: what to sample, how many, seed and target. */
export function NewAudit({ onDraw }: { onDraw: (input: AuditDrawInput) => void }) {
  const scale = useStore(ratingScale)
  const grid = useStore(reviewFilter)
  const [source, setSource] = useState<Source>('tier')
  const [tier, setTier] = useState<string>('3')
  const [worker, setWorker] = useState('')
  const [dimension, setDimension] = useState('1')
  const [n, setN] = useState('50')
  const [seed, setSeed] = useState('')
  const [target, setTarget] = useState('')
  const [name, setName] = useState('')

  const filter = (): AnnotationFilter => {
    switch (source) {
      case 'grid':
        return grid
      case 'tier':
        return { ratings: [tier === 'unrated' ? 'unrated' : Number(tier)] }
      case 'worker':
        return { workers: [worker] }
      case 'dimension':
        return { dimensions: [Number(dimension)] }
      case 'all':
        return {}
    }
  }
  // A worker not yet picked selects nothing worth counting.
  const matching = useFilterTotal(source === 'worker' && !worker ? null : filter())
  const describe = (f: AnnotationFilter) =>
    isEmptyFilter(f)
      ? 'all annotations'
      : filterChips(f)
          .map((c) => c.label)
          .join(', ')

  const submit = () => {
    const f = filter()
    const input: AuditDrawInput = {
      name: name.trim() || `Audit of ${describe(f)}`,
      filter: f,
      n: Number(n),
    }
    if (seed.trim() !== '') input.seed = Number(seed)
    if (target.trim() !== '') input.targetMargin = Number(target) / 100
    onDraw(input)
  }

  return (
    <form
      className="audit-form"
      data-testid="audit-form"
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <h2>New audit</h2>
      <label className="field">
        <span>Sample from</span>
        <select
          value={source}
          data-testid="audit-source"
          onChange={(e) => setSource(e.target.value as Source)}
        >
          <option value="tier">a rating (tier)</option>
          <option value="worker">a worker</option>
          <option value="dimension">a dimension</option>
          <option value="grid">what the grid shows</option>
          <option value="all">all annotations</option>
        </select>
      </label>
      {source === 'tier' && (
        <label className="field">
          <span>Rating</span>
          <select value={tier} data-testid="audit-tier" onChange={(e) => setTier(e.target.value)}>
            {scale.map((l) => (
              <option key={l.value} value={String(l.value)}>
                {ratingText(l.value, scale)}
              </option>
            ))}
            <option value="unrated">unrated</option>
          </select>
        </label>
      )}
      {source === 'worker' && (
        <div className="field">
          <span>Worker</span>
          {worker ? (
            <span className="chip audit-worker" data-testid="audit-worker-picked">
              <span className="chip-label mono">{worker}</span>
              <button
                type="button"
                className="chip-remove"
                aria-label="Choose another worker"
                onClick={() => setWorker('')}
              >
                ×
              </button>
            </span>
          ) : (
            <Typeahead<WorkerMatch>
              placeholder="Type a worker id…"
              label="Worker to sample"
              testId="audit-worker"
              optionTestId="audit-worker-option"
              search={searchWorkers}
              idOf={(m) => m.workerId}
              render={workerOption}
              noun="worker"
              onPick={setWorker}
              onDone={() => undefined}
            />
          )}
        </div>
      )}
      {source === 'dimension' && (
        <label className="field">
          <span>Dimension</span>
          <select value={dimension} onChange={(e) => setDimension(e.target.value)}>
            {Array.from({ length: 10 }, (_, i) => (
              <option key={i} value={String(i + 1)}>
                {i + 1}
              </option>
            ))}
          </select>
        </label>
      )}
      {source === 'grid' && <p className="note">{describe(grid)}</p>}
      {!(source === 'worker' && !worker) && (
        <p className="note" data-testid="audit-matching" aria-live="polite">
          {matching === null ? 'Counting…' : `${plural(matching, 'annotation')} to draw from`}
        </p>
      )}
      <div className="field-row">
        <label className="field">
          <span>Items</span>
          <input
            type="number"
            min={1}
            max={10000}
            value={n}
            data-testid="audit-n"
            required
            onChange={(e) => setN(e.target.value)}
          />
        </label>
        <label className="field" title="The same seed draws the same sample; empty: a random one">
          <span>Seed</span>
          <input
            type="number"
            min={0}
            value={seed}
            placeholder="random"
            data-testid="audit-seed"
            onChange={(e) => setSeed(e.target.value)}
          />
        </label>
        <label
          className="field"
          title="Keep drawing items until the 95% interval is within ± this many points"
        >
          <span>Until ± (points)</span>
          <input
            type="number"
            min={0.1}
            max={50}
            step={0.1}
            value={target}
            placeholder="fixed"
            data-testid="audit-target"
            onChange={(e) => setTarget(e.target.value)}
          />
        </label>
      </div>
      <label className="field">
        <span>Name</span>
        <input
          value={name}
          placeholder="Audit of …"
          data-testid="audit-name"
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      {source === 'worker' && !worker && (
        <p className="note">Pick the worker from the matches of what you type.</p>
      )}
      <button
        className="primary"
        type="submit"
        data-testid="audit-draw"
        disabled={source === 'worker' && !worker}
      >
        Draw sample
      </button>
    </form>
  )
}
