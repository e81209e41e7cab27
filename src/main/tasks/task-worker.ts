import { serveTask } from '../jobs/runOnThread'
import { threadTasks } from './threadTasks'

// The task thread: one import, export or long write per thread, on its own connection.
serveTask(threadTasks)
