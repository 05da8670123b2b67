// Starts load processes (bench/agent.ts) and calls their tasks (bench/tasks.ts).
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as tasks from './tasks.js';

const here = path.dirname(fileURLToPath(import.meta.url));

type Tasks = typeof tasks;

export interface Agent {
  pid: number;
  call<K extends keyof Tasks>(task: K, args: Parameters<Tasks[K]>[0]): Promise<Awaited<ReturnType<Tasks[K]>>>;
  stop(): Promise<void>;
}

export async function startAgent(): Promise<Agent> {
  const child: ChildProcess = fork(path.join(here, 'agent.ts'), [], { execArgv: ['--import', 'tsx'], serialization: 'advanced' });
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  let next = 0;
  child.on('message', (m: { id: number; result?: unknown; error?: string }) => {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error !== undefined) p?.reject(new Error(`agent task failed: ${m.error}`));
    else p?.resolve(m.result);
  });
  child.on('exit', (code) => {
    for (const p of pending.values()) p.reject(new Error(`agent exited with ${code}`));
    pending.clear();
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  return {
    pid: child.pid!,
    call(task, args) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, task, args });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.disconnect();
      await exited;
    },
  };
}
