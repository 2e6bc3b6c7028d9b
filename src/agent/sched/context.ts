/** What every part of the scheduler service shares: the store, time, and the agent's settings. */
import type { Clock } from '../clock';
import type { Store } from '../store';
import type { NodeUsageIndex } from './scheduler/node-usage';
import type { SchedState } from './state';

export interface SchedSettings {
  region: string;
  datacenter: string;
  nodes: number;
  nodeCpu: number;
  nodeMemoryMB: number;
  nodeDiskMB: number;
  nodePool: string;
}

export interface SchedContext {
  store: Store;
  state: SchedState;
  /** What live allocations hold per node, for placement. */
  nodeUsage: NodeUsageIndex;
  clock: Clock;
  settings: SchedSettings;
  log: (line: string) => void;
  /** Asks the evaluation broker to process pending evaluations. */
  kick: () => void;
}
