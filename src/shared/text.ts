/** Counts in words, the same in the page, the history and the command line. */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 })

/** `12,400` */
export function formatCount(n: number): string {
  return integer.format(n)
}

/** `1 annotation`, `2,400 annotations`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`
}

/** `812 B`, `1.5 KB`, `572 MB` (units of 1,024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatCount(bytes)} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value >= 100 ? integer.format(value) : oneDecimal.format(value)} ${units[unit]}`
}
