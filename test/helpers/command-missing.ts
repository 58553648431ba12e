import { execFileSync } from 'node:child_process';

/**
 * Why a Debian package's command cannot be run here (the message a test prints when it does
 * not run), or undefined when it is on PATH.
 */
export function commandMissing(command: string, debianPackage: string): string | undefined {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'pipe' });
    return undefined;
  } catch {
    return `${command} not found (Debian package ${debianPackage}; .ci/run installs it)`;
  }
}
