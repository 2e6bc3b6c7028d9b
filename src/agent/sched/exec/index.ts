/** Exec in allocations (spec 4.3): the WebSocket endpoint and the sessions it runs. */
import type { SchedAuthorizer } from '../acl/authorize';
import type { SchedContext } from '../context';
import { ExecManager } from './manager';
import { createExecUpgrade, type ExecUpgrade } from './upgrade';

export { ExecManager } from './manager';
export { ExecSession } from './session';
export type { ExecUpgrade } from './upgrade';

export interface SchedExec {
  manager: ExecManager;
  upgrade: ExecUpgrade;
  start(): void;
  stop(): void;
}

export function createSchedExec(
  sc: SchedContext,
  auth: SchedAuthorizer,
  dataDir: string | undefined,
): SchedExec {
  const manager = new ExecManager(sc, dataDir);
  const upgrade = createExecUpgrade(sc, auth, manager);
  return {
    manager,
    upgrade,
    start: () => manager.start(),
    stop() {
      manager.stop();
      upgrade.close();
    },
  };
}
