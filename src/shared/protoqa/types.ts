/** A ProtoQA question as the scorer and the pages see it (FORMATS.md §6.1). */
export interface ProtoqaCluster {
  /** `<question id>.<k>` in the published files. */
  id: string
  /** Respondents who gave an answer of this cluster (Σ of its members' raw counts). */
  count: number
  /** Members, lower-case raw answers. */
  answers: string[]
}

export interface ProtoqaQuestion {
  id: string
  /** `question.normalized`: what the scorer reads. */
  question: string
  /** In file order (by descending count in published files). */
  clusters: ProtoqaCluster[]
}
