/** What one allocation of a task group asks of a node. */
import type { Job } from '../model';

export interface Ask {
  cpu: number;
  memoryMB: number;
  diskMB: number;
}

type Group = NonNullable<Job['TaskGroups']>[number];

export function groupAsk(group: Group): Ask {
  let cpu = 0;
  let memoryMB = 0;
  for (const t of group.Tasks ?? []) {
    cpu += t.Resources?.CPU ?? 100;
    memoryMB += t.Resources?.MemoryMB ?? 300;
  }
  return { cpu, memoryMB, diskMB: group.EphemeralDisk?.SizeMB ?? 300 };
}

export function findGroup(job: Job, name: string): Group | undefined {
  return (job.TaskGroups ?? []).find((g) => g.Name === name);
}

export type { Group };
