import { useEffect, useMemo, useState } from 'react'
import uPlot from 'uplot'
import type { ModelFigures } from '../../../../shared/halie/sessions'
import { HALIE_TASKS, type HalieTask, SURVEY_SCORES } from '../../../../shared/halie/tasks'
import { api } from '../../api'
import { type PlotOptions, PlotChart } from '../dashboard/Chart'
import { showError } from '../messages/messages'

const bars = uPlot.paths.bars
const COLOURS = ['#2f5fd0', '#c2410c', '#15803d', '#7c3aed', '#0e7490']

/** x positions 1…n named by `names`, with half a step of room either side. */
function namedAxis(names: readonly string[], label: string): Pick<PlotOptions, 'scales' | 'axes'> {
  return {
    scales: {
      x: { time: false, range: () => [0.5, names.length + 0.5] },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.15 : 1] },
    },
    axes: [
      {
        label,
        splits: () => names.map((_, i) => i + 1),
        values: (_u, ticks) => ticks.map((t) => names[t - 1] ?? ''),
      },
      {},
    ],
  }
}

/** One bar per model. */
function modelBars(
  figures: readonly ModelFigures[],
  label: string,
  value: (f: ModelFigures) => number | null,
): [PlotOptions, uPlot.AlignedData] {
  return [
    {
      ...namedAxis(
        figures.map((f) => f.model),
        'model',
      ),
      series: [
        { label: 'model', value: (_u, v) => figures[v - 1]?.model ?? '' },
        {
          label,
          stroke: '#2f5fd0',
          fill: 'rgba(47, 95, 208, 0.25)',
          paths: bars?.({ size: [0.6, 80] }),
          points: { show: false },
          value: (_u, v) => (v === null ? '—' : v.toFixed(2)),
        },
      ],
    },
    [figures.map((_, i) => i + 1), figures.map(value)],
  ]
}

/**
 * The figures the HALIE study reports for a task, drawn with the dashboard's charts (each saves
 * as PNG or SVG): survey scores by model, LM queries per event block, minutes and accuracy.
 */
export function ChartsPanel({ dataVersion }: { dataVersion: number }) {
  const [task, setTask] = useState<HalieTask>('question')
  const [figures, setFigures] = useState<ModelFigures[] | null>(null)
  useEffect(() => {
    let live = true
    api.halie
      .figures({ task })
      .then((f) => live && setFigures(f))
      .catch((e: unknown) => showError('Reading HALIE figures', e))
    return () => {
      live = false
    }
  }, [task, dataVersion])

  const charts = useMemo(() => {
    if (!figures || figures.length === 0) return null
    const scores = SURVEY_SCORES[task].filter((s) => figures.some((f) => s in f.scores))
    const survey: [PlotOptions, uPlot.AlignedData] = [
      {
        ...namedAxis(scores, 'survey question'),
        series: [
          { label: 'question', value: (_u, v) => scores[v - 1] ?? '' },
          ...figures.map((f, i) => ({
            label: f.model,
            stroke: COLOURS[i % COLOURS.length] as string,
            width: 2,
            points: { show: true, size: 7, fill: COLOURS[i % COLOURS.length] as string },
            value: (_u: uPlot, v: number | null) => (v === null ? '—' : v.toFixed(2)),
          })),
        ],
      },
      [scores.map((_, i) => i + 1), ...figures.map((f) => scores.map((s) => f.scores[s] ?? null))],
    ]
    return {
      survey,
      queries: modelBars(figures, 'LM queries per event block', (f) =>
        f.blocks > 0 ? f.queries / f.blocks : null,
      ),
      minutes: modelBars(figures, 'minutes per session', (f) => f.elapsedMinutes),
      accuracy: modelBars(figures, 'accuracy', (f) => f.accuracy),
    }
  }, [figures, task])

  return (
    <div className="halie-charts" data-testid="halie-charts">
      <label>
        Task{' '}
        <select
          data-testid="halie-chart-task"
          value={task}
          onChange={(e) => setTask(e.target.value as HalieTask)}
        >
          {HALIE_TASKS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      {!charts ? (
        <p className="empty-state">No {task} sessions with a model yet.</p>
      ) : (
        <div className="dashboard">
          <PlotChart
            title={`${task}: survey scores by model`}
            testId="halie-chart-survey"
            description="Mean survey answer per question, one line per model"
            options={charts.survey[0]}
            data={charts.survey[1]}
          />
          <PlotChart
            title={`${task}: LM queries per event block`}
            testId="halie-chart-queries"
            description="LM queries over event blocks, per model"
            options={charts.queries[0]}
            data={charts.queries[1]}
          />
          <PlotChart
            title={`${task}: minutes per session`}
            testId="halie-chart-minutes"
            description="Mean elapsed minutes per session, per model"
            options={charts.minutes[0]}
            data={charts.minutes[1]}
          />
          {figures?.some((f) => f.accuracy !== null) && (
            <PlotChart
              title={`${task}: accuracy by model`}
              testId="halie-chart-accuracy"
              description="Mean accuracy per session, per model"
              options={charts.accuracy[0]}
              data={charts.accuracy[1]}
            />
          )}
        </div>
      )}
    </div>
  )
}
