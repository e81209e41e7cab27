/**
 * How the grid asks for a block of rows. Scrolling on reads the next block after the previous
 * block's last row (keyset: fast at any depth); a jump, or a block whose predecessor is not known,
 * reads by offset. Pure; tested in tests/renderer.
 */
import type { ReviewCursor } from '../../../../shared/contract/review'

export type PageRequest = { limit: number; after: ReviewCursor } | { limit: number; offset: number }

export class BlockCursors {
  /** Block start row → the cursor that continues right before it. */
  private readonly after = new Map<number, ReviewCursor>()

  /** What to send for rows [startRow, endRow). */
  request(startRow: number, endRow: number): PageRequest {
    const limit = Math.max(1, endRow - startRow)
    if (startRow === 0) return { limit, offset: 0 }
    const cursor = this.after.get(startRow)
    return cursor ? { limit, after: cursor } : { limit, offset: startRow }
  }

  /** Remembers where the block after this one starts. */
  record(startRow: number, rowCount: number, next: ReviewCursor | null): void {
    if (next && rowCount > 0) this.after.set(startRow + rowCount, next)
  }

  /** The data changed under the cursors (a rating, an import): fall back to offsets. */
  clear(): void {
    this.after.clear()
  }
}
