/** A rating written the shortest way ("3", "1.5", "-1"), or "unrated". */
export function ratingKey(rating: number | null): string {
  return rating === null ? 'unrated' : String(rating)
}
