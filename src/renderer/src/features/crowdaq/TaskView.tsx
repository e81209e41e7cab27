import { useRef, useState } from 'react'
import type { PreviewContext, TaskPreview } from '../../../../shared/crowdaq/contract'
import {
  type GroupValues,
  displayedCollectors,
  groupProblems,
} from '../../../../shared/crowdaq/conditions'
import type { Collector, Group } from '../../../../shared/crowdaq/spec'
import { type SpanValue, spanOf } from '../../../../shared/crowdaq/spans'
import { plural } from '../../../../shared/text'
import { ContextView } from './SafeContent'
import { SpanPicker, chosenSpans } from './SpanPicker'
import { selectedOffsets } from './textSelection'
import { append } from '../../../../shared/lists'

/** The task's text contexts, and the span selected in one of them. */
interface TextContexts {
  name: (contextId: string) => string
  pick: (contextId: string) => SpanValue | null
}

/** A task as a worker sees it: conditions evaluated as options are chosen, constraints checked. */
export function TaskView({ task }: { task: TaskPreview }) {
  const root = useRef<HTMLDivElement>(null)
  const [entries, setEntries] = useState<Record<string, GroupValues[]>>(() =>
    Object.fromEntries(
      task.groups.map((g) => [
        g.id,
        Array.from({ length: g.repeated ? Math.max(1, g.min ?? 1) : 1 }, () => ({})),
      ]),
    ),
  )
  const textContext = (id: string): PreviewContext | undefined =>
    task.contexts.find((c) => c.type === 'text' && c.id === id)
  const texts: TextContexts = {
    name: (id) => textContext(id)?.label ?? id,
    pick: (id) => {
      const context = textContext(id)
      const element = Array.from(
        root.current?.querySelectorAll<HTMLElement>('[data-context-id]') ?? [],
      ).find((e) => e.dataset.contextId === id)
      if (!context || !element) return null
      const offsets = selectedOffsets(element, window.getSelection())
      return offsets && spanOf(context.text ?? '', offsets[0], offsets[1])
    },
  }
  const chosen = chosenByContext(task.groups, entries)
  return (
    <div className="cq-preview" data-testid="cq-task" ref={root}>
      {task.contexts.map((c, i) => (
        <ContextView key={i} context={c} chosen={c.id === null ? [] : (chosen.get(c.id) ?? [])} />
      ))}
      {task.groups.map((g) => (
        <GroupView
          key={g.id}
          group={g}
          entries={entries[g.id] ?? [{}]}
          onEntries={(list) => setEntries((all) => ({ ...all, [g.id]: list }))}
          texts={texts}
        />
      ))}
    </div>
  )
}

/** The spans the displayed span collectors hold, by the text context they are taken from. */
function chosenByContext(
  groups: readonly Group[],
  entries: Readonly<Record<string, GroupValues[]>>,
): Map<string, SpanValue[]> {
  const out = new Map<string, SpanValue[]>()
  for (const group of groups) {
    for (const values of entries[group.id] ?? []) {
      const shown = displayedCollectors(group, values)
      for (const c of group.annotations) {
        if (c.type !== 'span-from-text' || !shown.has(c.id)) continue
        const list = out.get(c.from_context) ?? []
        append(list, chosenSpans(values[c.id]))
        out.set(c.from_context, list)
      }
    }
  }
  return out
}

function GroupView({
  group,
  entries,
  onEntries,
  texts,
}: {
  group: Group
  entries: GroupValues[]
  onEntries: (entries: GroupValues[]) => void
  texts: TextContexts
}) {
  const set = (i: number, id: string, value: GroupValues[string]): void =>
    onEntries(entries.map((e, k) => (k === i ? { ...e, [id]: value } : e)))
  return (
    <fieldset className="cq-group" data-testid={`cq-group-${group.id}`}>
      <legend>{group.title ?? group.id}</legend>
      {entries.map((values, i) => {
        const shown = displayedCollectors(group, values)
        const problems = groupProblems(group, values)
        return (
          <div key={i} className="cq-entry">
            {group.annotations
              .filter((c) => shown.has(c.id))
              .map((c) => (
                <CollectorInput
                  key={c.id}
                  collector={c}
                  value={values[c.id]}
                  problems={problems[c.id] ?? []}
                  texts={texts}
                  onChange={(v) => set(i, c.id, v)}
                />
              ))}
          </div>
        )
      })}
      {group.repeated && (
        <p className="note">
          {plural(entries.length, 'entry', 'entries')}
          {group.min !== undefined ? `, at least ${group.min}` : ''}
          {group.max !== undefined ? `, at most ${group.max}` : ''}{' '}
          <button
            className="small"
            disabled={group.max !== undefined && entries.length >= group.max}
            onClick={() => onEntries([...entries, {}])}
          >
            Add
          </button>
        </p>
      )}
    </fieldset>
  )
}

function CollectorInput({
  collector: c,
  value,
  problems,
  texts,
  onChange,
}: {
  collector: Collector
  value: GroupValues[string]
  problems: string[]
  texts: TextContexts
  onChange: (v: GroupValues[string]) => void
}) {
  return (
    <div className="cq-collector" data-testid={`cq-collector-${c.id}`}>
      <p className="cq-question-text">{c.prompt ?? c.title ?? c.id}</p>
      {c.type === 'multiple-choice' &&
        Object.entries(c.options).map(([key, label]) => (
          <label key={key} className="cq-option">
            <input
              type="radio"
              name={c.id}
              checked={value === key}
              onChange={() => onChange(key)}
            />
            {label}
          </label>
        ))}
      {c.type === 'multi-label' &&
        Object.entries(c.options).map(([key, label]) => {
          const list = Array.isArray(value) ? (value as string[]) : []
          return (
            <label key={key} className="cq-option">
              <input
                type="checkbox"
                checked={list.includes(key)}
                onChange={(e) =>
                  onChange(e.target.checked ? [...list, key] : list.filter((k) => k !== key))
                }
              />
              {label}
            </label>
          )
        })}
      {(c.type === 'text' || c.type === 'datetime') && (
        <input
          type="text"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {c.type === 'span-from-text' && (
        <SpanPicker
          collector={c}
          contextName={texts.name(c.from_context)}
          value={value}
          pick={() => texts.pick(c.from_context)}
          onChange={onChange}
        />
      )}
      {problems.map((p) => (
        <p key={p} className="cq-problem" data-testid="cq-problem">
          {p}
        </p>
      ))}
    </div>
  )
}
