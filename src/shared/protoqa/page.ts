/** ProtoQA's page: its tab, Go menu entry and key (after the project's own pages). */
export const protoqaPage = {
  id: 'protoqa',
  label: 'ProtoQA',
  hint: 'Cluster answers, compare reviewers, score predictions',
  collection: 'protoqa',
  /** Its release, written from its page's tab (`winnow export --collection protoqa`). */
  release: { tab: 'export', what: 'the finally clustered questions as ProtoQA JSONL' },
} as const
