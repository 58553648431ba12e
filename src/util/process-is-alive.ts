/**
 * Whether a process with this id is running, by sending it signal 0 (which checks, delivers
 * nothing). EPERM means it runs under another user: alive. ESRCH means no such process.
 */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
