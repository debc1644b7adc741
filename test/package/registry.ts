/**
 * Whether the packed-package tests can reach the npm registry. Outside CI an unreachable registry
 * skips them with the reason (instead of failing after npm's long retries); under CI it never does,
 * so a CI without the registry fails loudly.
 */
import { spawnSync } from 'node:child_process';

/** Seconds one HEAD request to the registry may take before it counts as unreachable. */
const PROBE_SECONDS = 5;

/** The registry npm is configured with (`npm config get registry`), or npm's default. */
export function configuredRegistry(): string {
  const result = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', timeout: 10_000 });
  const url = result.status === 0 ? result.stdout.trim() : '';
  return url === '' ? 'https://registry.npmjs.org/' : url;
}

/** The URL without user name or password, for messages. */
function shown(registry: string): string {
  try {
    const url = new URL(registry);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return '(an unparsable registry URL)';
  }
}

/** Why the registry cannot be reached, or undefined when one HEAD request gets any HTTP answer. */
export function registryProblem(registry: string = configuredRegistry()): string | undefined {
  // A child process, so the probe stays synchronous and can decide describe vs describe.skip.
  const probe =
    'fetch(process.argv[1], { method: "HEAD", signal: AbortSignal.timeout(Number(process.argv[2]) * 1000) })' +
    '.then(() => process.exit(0), (e) => { const c = e.cause || {}; console.error(String(c.code || c.message || e.message || e)); process.exit(1); })';
  // Without credentials: any HTTP answer, a 401 included, means the registry is there.
  const target = shown(registry);
  const result = spawnSync(process.execPath, ['-e', probe, target, String(PROBE_SECONDS)], {
    encoding: 'utf8',
    timeout: (PROBE_SECONDS + 5) * 1000,
  });
  if (result.status === 0) return undefined;
  const cause = (result.stderr ?? '').trim().split('\n').pop() || 'no answer';
  return `the npm registry ${target} is unreachable (${cause}, within ${PROBE_SECONDS} s)`;
}

/**
 * Why to skip the tests that need the registry, or undefined to run them. Under CI (env CI set)
 * they always run, and fail if the registry is missing.
 */
export function registrySkipReason(
  env: NodeJS.ProcessEnv = process.env,
  problem: () => string | undefined = () => registryProblem(),
): string | undefined {
  if (env['CI']) return undefined;
  return problem();
}
