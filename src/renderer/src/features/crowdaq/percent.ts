/** A share as a whole percent (`67%`); `–` where there is none. */
export const pct = (x: number | null): string => (x === null ? '–' : `${Math.round(x * 100)}%`)
