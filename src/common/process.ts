/** Process facts shared by the agent's data-dir lock and the engine's state lock. */

/** Whether a process with this pid exists on this host (it may belong to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
