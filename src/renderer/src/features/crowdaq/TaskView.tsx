import { useState } from 'react'
import type { TaskPreview } from '../../../../shared/contract/crowdaq'
import {
  type GroupValues,
  displayedCollectors,
  groupProblems,
} from '../../../../shared/crowdaq/conditions'
import type { Collector, Group } from '../../../../shared/crowdaq/spec'
import { ContextView } from './SafeContent'

/** A task as a worker sees it: conditions evaluated as options are chosen, constraints checked. */
export function TaskView({ task }: { task: TaskPreview }) {
  return (
    <div className="cq-preview" data-testid="cq-task">
      {task.contexts.map((c, i) => (
        <ContextView key={i} context={c} />
      ))}
      {task.groups.map((g) => (
        <GroupView key={g.id} group={g} />
      ))}
    </div>
  )
}

function GroupView({ group }: { group: Group }) {
  const [entries, setEntries] = useState<GroupValues[]>(() =>
    Array.from({ length: group.repeated ? Math.max(1, group.min ?? 1) : 1 }, () => ({})),
  )
  const set = (i: number, id: string, value: GroupValues[string]): void =>
    setEntries(entries.map((e, k) => (k === i ? { ...e, [id]: value } : e)))
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
                  onChange={(v) => set(i, c.id, v)}
                />
              ))}
          </div>
        )
      })}
      {group.repeated && (
        <p className="note">
          {entries.length} entries{group.min !== undefined ? `, at least ${group.min}` : ''}
          {group.max !== undefined ? `, at most ${group.max}` : ''}{' '}
          <button
            className="small"
            disabled={group.max !== undefined && entries.length >= group.max}
            onClick={() => setEntries([...entries, {}])}
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
  onChange,
}: {
  collector: Collector
  value: GroupValues[string]
  problems: string[]
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
      {c.type === 'span-from-text' && <p className="note">Select a span of “{c.from_context}”.</p>}
      {problems.map((p) => (
        <p key={p} className="cq-problem" data-testid="cq-problem">
          {p}
        </p>
      ))}
    </div>
  )
}
