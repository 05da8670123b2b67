// A load process. The benchmark scripts start a few of these (bench/agents.ts) so that the load on the server
// under test comes from processes of its own, and call the tasks of bench/tasks.ts in them over IPC.
import * as tasks from './tasks.js';

type Call = { id: number; task: keyof typeof tasks; args: unknown };

process.on('message', (call: Call) => {
  const run = tasks[call.task] as (args: unknown) => Promise<unknown>;
  Promise.resolve()
    .then(() => run(call.args))
    .then(
      (result) => process.send!({ id: call.id, result }),
      (err) => process.send!({ id: call.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
});
process.on('disconnect', () => process.exit(0));
