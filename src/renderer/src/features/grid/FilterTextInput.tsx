import { type Ref, useState } from 'react'
import type { AnnotationFilter } from '../../../../shared/filter'
import { useStore } from '../../lib/store'
import { focusFirstRow } from './actions'
import { updateFilter, useWorkspace } from './workspaceModel'

interface FilterTextInputProps {
  field: 'text' | 'sentence'
  placeholder: string
  label: string
  testId: string
  className?: string
  inputRef?: Ref<HTMLInputElement>
}

/**
 * A text filter that applies on every keystroke. The input keeps its own text (spaces and all)
 * and follows the filter when it changes elsewhere (Back, a removed chip, a view).
 */
export function FilterTextInput({
  field,
  placeholder,
  label,
  testId,
  className,
  inputRef,
}: FilterTextInputProps) {
  const model = useWorkspace()
  const value = useStore(model.filter).history.present[field] ?? ''
  const [text, setText] = useState(value)
  const [seen, setSeen] = useState(value)
  if (value !== seen) {
    setSeen(value)
    if (text.trim() !== value) setText(value)
  }

  // Every keystroke applies: the grid sends the latest query and drops answers to older ones.
  const change = (t: string) => {
    setText(t)
    updateFilter(model, (f): AnnotationFilter => ({ ...f, [field]: t }), { typing: field })
  }

  return (
    <input
      ref={inputRef}
      type="search"
      className={className}
      placeholder={placeholder}
      aria-label={label}
      value={text}
      maxLength={500}
      spellCheck={false}
      data-testid={testId}
      onChange={(e) => change(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && text) {
          e.stopPropagation()
          change('')
        } else if (e.key === 'Enter' || e.key === 'ArrowDown') {
          e.preventDefault()
          focusFirstRow(model)
        }
      }}
    />
  )
}
