/** Counts in words, the same in the page, the history and the command line. */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** `12,400` */
export function formatCount(n: number): string {
  return integer.format(n)
}

/** `1 annotation`, `2,400 annotations`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`
}
