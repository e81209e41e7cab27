import { crowdaqView } from './crowdaq'
import { halieView } from './halie'
import { protoqaView } from './protoqa'

/**
 * The collections' page views (`features/<kind>/index.ts`), which the shell shows for their
 * pages. A new collection is its folder and one line here.
 */
export const collectionViews = [protoqaView, crowdaqView, halieView] as const
