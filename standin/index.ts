export { createStandin, operations, type Standin, type StandinOptions } from './server'
export { StandinState } from './state'
export type { AssignmentRecord, HITRecord, RequestLogEntry } from './state'
export { type FaultPlan, faultMix } from './faults'
export { seedDemo, type DemoOptions, type DemoSeed } from './demo'
export {
  crowdFormAnswerXml,
  htmlEscape,
  htmlFormAnswerXml,
  questionFormAnswersXml,
  type XmlAnswer,
} from './answer-xml'
