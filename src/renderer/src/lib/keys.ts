import type { KeyboardEvent as ReactKeyboardEvent } from 'react'

/** Keyboard helpers: the app is keyboard-first, but never steals keys from a text field. */

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  const tag = target.tagName
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag !== 'INPUT') return false
  const type = (target as HTMLInputElement).type
  return !['checkbox', 'radio', 'button', 'submit', 'range', 'color', 'file'].includes(type)
}

/** Ctrl on Linux/Windows, ⌘ on macOS. */
export function isPrimaryModifier(event: KeyboardEvent | ReactKeyboardEvent): boolean {
  return event.ctrlKey || event.metaKey
}
