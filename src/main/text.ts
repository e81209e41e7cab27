/** `1 annotation`, `2 annotations`: counts in the history and in messages. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
