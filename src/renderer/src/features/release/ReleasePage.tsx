import { useEffect, useState } from 'react'
import type { JobProgress } from '../../../../shared/contract/jobs'
import {
  RELEASE_FORMATS,
  type ReleaseFormat,
  type ReleaseOptions,
  type ReleasePreviewInput,
  type ReleaseResult,
  type ReleaseSettings,
} from '../../../../shared/contract/release'
import { COLLECTION_PAGES } from '../../../../shared/collections'
import { cardPlaceholders, describePlaceholders } from '../../../../shared/release/placeholders'
import { describeFilter, isEmptyFilter } from '../../../../shared/filter'
import { api } from '../../api'
import { formatCount, percentDone, plural } from '../../lib/format'
import { ReleaseFiles } from './ReleaseFiles'
import { useStore } from '../../lib/store'
import { cancelJob, jobs, useShownInPage, whenFinished } from '../jobs/jobs'
import { showError } from '../messages/messages'
import { projectState } from '../project/project'
import { asOf as gridAsOf } from '../ratings/ratingState'
import { goToPage, reviewFilter } from '../shell/navigation'
import { ReleasePreviewTable } from './ReleasePreview'
import { TierMapEditor } from './TierMapEditor'
import './release.css'

type Scope = 'project' | 'grid' | 'past'

function defaultFolder(projectPath: string): string {
  const cut = Math.max(projectPath.lastIndexOf('/'), projectPath.lastIndexOf('\\'))
  const name = projectPath.slice(cut + 1).replace(/\.winnow$/, '')
  return `${projectPath.slice(0, cut + 1)}${name}-release`
}

/** Release ▸ Export: tiers, formats, scope, split and options; the export runs as a job. */
export function ReleasePage() {
  const project = useStore(projectState).project
  const gridFilter = useStore(reviewFilter)
  const gridMoment = useStore(gridAsOf)
  const [settings, setSettings] = useState<ReleaseSettings | null>(null)
  const [tiers, setTiers] = useState<number[]>([])
  const [formats, setFormats] = useState<ReleaseFormat[]>(['csv'])
  const [scope, setScope] = useState<Scope>('project')
  const [past, setPast] = useState('')
  const [split, setSplit] = useState(false)
  const [test, setTest] = useState('0.1')
  const [dev, setDev] = useState('')
  const [splitTier, setSplitTier] = useState(3)
  const [seed, setSeed] = useState('0')
  const [pseudonymize, setPseudonymize] = useState(false)
  const [neutralize, setNeutralize] = useState(false)
  const [outText, setOut] = useState<string | null>(null)
  const [force, setForce] = useState(false)
  const [draft, setDraft] = useState(false)
  const [jobId, setJobId] = useState<string | null>(null)
  const [result, setResult] = useState<ReleaseResult | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const job: JobProgress | undefined = useStore(jobs).get(jobId ?? '')
  // This page shows its export's progress and Cancel itself: the job tray keeps clear of it.
  useShownInPage(jobId)

  useEffect(() => {
    if (!project) return
    api.release
      .settings({})
      .then((s) => {
        setSettings(s)
        const mapped = [...new Set(s.tierMap.map((t) => t.tier))].sort((a, b) => b - a)
        setTiers(mapped)
        if (mapped.length > 0 && !mapped.includes(3)) setSplitTier(mapped[0] ?? 3)
      })
      .catch((e: unknown) => showError('Reading the release settings', e))
  }, [project])

  if (!project) return <p className="note">Open a project to export a release.</p>
  const out = outText ?? defaultFolder(project.path)
  const mappedTiers = settings
    ? [...new Set(settings.tierMap.map((t) => t.tier))].sort((a, b) => b - a)
    : []

  /** What the release holds, whatever its formats, its folder or how its ids are written. */
  function contents(): ReleasePreviewInput {
    const size = (text: string) => Number(text)
    const moment =
      scope === 'past' ? new Date(past).getTime() : scope === 'grid' ? gridMoment : null
    return {
      tiers,
      ...(scope === 'grid' && !isEmptyFilter(gridFilter) ? { filter: gridFilter } : {}),
      ...(moment !== null && Number.isFinite(moment) ? { asOf: moment } : {}),
      ...(split
        ? {
            split: {
              test: size(test),
              ...(dev.trim() ? { dev: size(dev) } : {}),
              tier: splitTier,
              seed,
            },
          }
        : {}),
    }
  }

  const options = (): ReleaseOptions => ({
    ...contents(),
    formats,
    pseudonymize,
    neutralizeFormulas: neutralize,
    draft,
    out: out.trim(),
    force,
  })
  const placeholders = settings ? cardPlaceholders(settings.card) : []
  const refused = placeholders.length > 0 && !draft

  async function start() {
    setResult(null)
    setFailure(null)
    try {
      const { jobId: id } = await api.release.export(options())
      setJobId(id)
      const final = await whenFinished(id)
      if (final.state === 'succeeded') setResult(final.result as ReleaseResult)
      else setFailure(final.error?.message ?? 'The export stopped.')
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e))
    }
  }

  const running = job?.state === 'running'
  const share = job ? percentDone(job.done, job.total) : null
  const toggle = <T,>(list: T[], value: T, on: boolean): T[] =>
    on ? [...list, value] : list.filter((v) => v !== value)

  return (
    <div className="release-page" data-testid="release-page">
      <h2>Export a release</h2>
      <CollectionReleases />
      <div className="release-columns">
        <section aria-label="Tiers">
          <h3>Tiers and formats</h3>
          <div className="release-choices">
            <fieldset>
              <legend>Release these tiers</legend>
              {mappedTiers.map((t) => (
                <label key={t} className="check">
                  <input
                    type="checkbox"
                    data-testid={`release-tier-${t}`}
                    checked={tiers.includes(t)}
                    onChange={(e) => setTiers(toggle(tiers, t, e.target.checked))}
                  />
                  Tier {t}
                </label>
              ))}
            </fieldset>
            <fieldset>
              <legend>Formats</legend>
              {RELEASE_FORMATS.map((f) => (
                <label key={f} className="check">
                  <input
                    type="checkbox"
                    data-testid={`release-format-${f}`}
                    checked={formats.includes(f)}
                    onChange={(e) => setFormats(toggle(formats, f, e.target.checked))}
                  />
                  {f === 'csv' ? 'CSV (GLUCOSE layout)' : f === 'jsonl' ? 'JSON Lines' : 'Parquet'}
                </label>
              ))}
            </fieldset>
          </div>
          <h3>Tier map and dataset card</h3>
          <p className="note">Project settings, kept for every release.</p>
          {settings && (
            <TierMapEditor
              settings={settings}
              onSaved={(s) => {
                setSettings(s)
                setTiers([...new Set(s.tierMap.map((t) => t.tier))].sort((a, b) => b - a))
              }}
            />
          )}
        </section>
        <section aria-label="Scope">
          <h3>Scope</h3>
          <label className="check">
            <input
              type="radio"
              name="scope"
              checked={scope === 'project'}
              onChange={() => setScope('project')}
            />
            The whole project
          </label>
          <label className="check">
            <input
              type="radio"
              name="scope"
              data-testid="release-scope-grid"
              checked={scope === 'grid'}
              onChange={() => setScope('grid')}
            />
            What the review grid shows: {describeFilter(gridFilter)}
            {gridMoment !== null && `, ratings as of ${new Date(gridMoment).toLocaleString()}`}
          </label>
          <label className="check">
            <input
              type="radio"
              name="scope"
              checked={scope === 'past'}
              onChange={() => setScope('past')}
            />
            The project as it stood at
            <input
              type="datetime-local"
              aria-label="Ratings as of"
              value={past}
              onChange={(e) => {
                setPast(e.target.value)
                setScope('past')
              }}
            />
          </label>
          <h3>Split</h3>
          <label className="check">
            <input
              type="checkbox"
              data-testid="release-split"
              checked={split}
              onChange={(e) => setSplit(e.target.checked)}
            />
            Hold out stories for test (no story on both sides)
          </label>
          {split && (
            <div className="field-row">
              <label className="field">
                <span>Test stories (count or fraction)</span>
                <input
                  data-testid="release-split-test"
                  value={test}
                  onChange={(e) => setTest(e.target.value)}
                />
              </label>
              <label className="field">
                <span>Dev stories (optional)</span>
                <input value={dev} onChange={(e) => setDev(e.target.value)} />
              </label>
              <label className="field">
                <span>From tier</span>
                <select value={splitTier} onChange={(e) => setSplitTier(Number(e.target.value))}>
                  {mappedTiers.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Seed</span>
                <input value={seed} onChange={(e) => setSeed(e.target.value)} />
              </label>
            </div>
          )}
          <h3>Options</h3>
          <label className="check">
            <input
              type="checkbox"
              checked={pseudonymize}
              onChange={(e) => setPseudonymize(e.target.checked)}
            />
            Pseudonymous worker ids (small integers; the map stays in the project)
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={neutralize}
              onChange={(e) => setNeutralize(e.target.checked)}
            />
            Neutralise cells a spreadsheet would run as formulas (changes the text)
          </label>
          <label className="check">
            <input
              type="checkbox"
              data-testid="release-draft"
              checked={draft}
              onChange={(e) => setDraft(e.target.checked)}
            />
            Draft, not for publication (the datasheet, card and manifest say so; the card may still
            hold placeholders)
          </label>
          {settings && tiers.length > 0 && (
            <ReleasePreviewTable options={contents()} version={settings} />
          )}
        </section>
      </div>
      {placeholders.length > 0 && (
        <p
          className={refused ? 'error-box' : 'note release-draft-note'}
          data-testid="release-card-warning"
          role={refused ? 'alert' : 'status'}
        >
          {refused
            ? `The dataset card still holds placeholders: ${describePlaceholders(placeholders)}. README.md and croissant.json would publish them: fill them in under Tiers ▸ Dataset card and save, or mark this release a draft.`
            : `This draft carries the dataset card's placeholders (${describePlaceholders(placeholders)}); its datasheet, card and manifest say it is a draft.`}
        </p>
      )}
      <div className="field-row">
        <label className="field release-out">
          <span>Release folder</span>
          <input
            data-testid="release-out"
            value={out}
            spellCheck={false}
            onChange={(e) => setOut(e.target.value)}
          />
        </label>
        <label className="check">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
          Replace a folder that is not empty
        </label>
        <button
          className="primary"
          data-testid="release-export"
          disabled={running || refused || tiers.length === 0 || formats.length === 0 || !out.trim()}
          title={refused ? 'Fill in the dataset card, or mark the release a draft' : undefined}
          onClick={() => void start()}
        >
          Export
        </button>
        {running && job && (
          <button data-testid="release-cancel" onClick={() => void cancelJob(job.id)}>
            {job.cancel.label}
          </button>
        )}
      </div>
      {running && job && (
        <p className="note" data-testid="release-progress">
          {job.detail} {share !== null && `${share}%`} (
          {job.total !== null
            ? `${formatCount(job.done)} of ${plural(job.total, 'annotation')}`
            : plural(job.done, 'annotation')}
          )
        </p>
      )}
      {failure && (
        <p className="error-box" data-testid="release-error">
          {failure}
        </p>
      )}
      {result && <ReleaseDone result={result} />}
    </div>
  )
}

function ReleaseDone({ result }: { result: ReleaseResult }) {
  return (
    <ReleaseFiles out={result.out} files={result.files} testId="release-done">
      <h3>datasheet.md</h3>
      <pre className="release-datasheet" data-testid="release-datasheet">
        {result.datasheet}
      </pre>
    </ReleaseFiles>
  )
}

/**
 * The releases of the collections this project holds, each written on its own page's tab (as
 * its page declares): a link there, since their options are not GLUCOSE's.
 */
function CollectionReleases() {
  const held = useStore(projectState).collections
  const pages = COLLECTION_PAGES.flatMap((p) =>
    'release' in p && held.includes(p.collection)
      ? [{ id: p.id, label: p.label, release: p.release }]
      : [],
  )
  if (pages.length === 0) return null
  return (
    <ul className="release-collections" data-testid="release-collections">
      {pages.map((p) => (
        <li key={p.id}>
          {p.label}: {p.release.what}.{' '}
          <button
            className="link"
            data-testid={`release-collection-${p.id}`}
            onClick={() => goToPage(p.id, p.release.tab)}
          >
            Release on the {p.label} page
          </button>
        </li>
      ))}
    </ul>
  )
}
