export { createStandin, type Standin, type StandinOptions } from './server'
export { faultMix } from './faults'
export { seedDemo, type DemoSeed } from './demo'
export { crowdFormAnswerXml, htmlFormAnswerXml, questionFormAnswersXml } from './answer-xml'
