import { type RefObject, useEffect } from 'react'

/** While `open`, a mouse press outside `root` closes the drop-down (`setOpen(false)`). */
export function useClickOutside(
  root: RefObject<HTMLElement | null>,
  open: boolean,
  setOpen: (open: boolean) => void,
): void {
  useEffect(() => {
    if (!open) return
    const close = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', close)
    return () => document.removeEventListener('mousedown', close)
  }, [root, open, setOpen])
}
