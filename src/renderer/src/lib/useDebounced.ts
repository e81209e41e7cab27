import { useEffect } from 'react'
import { useLatest } from './useLatest'

/** Calls `effect` once `value` has stayed the same for `ms`. */
export function useDebouncedEffect<T>(value: T, ms: number, effect: (value: T) => void): void {
  const latest = useLatest(effect)
  useEffect(() => {
    const timer = setTimeout(() => latest.current(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms, latest])
}
