import type { Db } from '../db/connection'
import { type StoryText, storyById } from '../db/queries/release/rows'

/** Stories kept at once: a few MB of text, where every story was 90 MB at ten million. */
export const STORIES_KEPT = 4096

/**
 * The stories of a release, read as its rows reach them. Rows come in annotation order, which
 * visits stories in no order, so the most recently used are kept and the others read again.
 */
export class StoryReader {
  private readonly kept = new Map<number, StoryText | undefined>()

  constructor(
    private readonly db: Db,
    private readonly capacity = STORIES_KEPT,
  ) {}

  story(id: number): StoryText | undefined {
    if (this.kept.has(id)) {
      const story = this.kept.get(id)
      // A Map iterates in insertion order: put back last, it is the most recently used.
      this.kept.delete(id)
      this.kept.set(id, story)
      return story
    }
    const story = storyById(this.db, id)
    if (this.kept.size >= this.capacity) {
      const oldest = this.kept.keys().next()
      if (!oldest.done) this.kept.delete(oldest.value)
    }
    this.kept.set(id, story)
    return story
  }
}
