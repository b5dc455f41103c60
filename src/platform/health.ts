// Readiness: each part of the service (storage, bus, later the feeds) registers a check; /readyz
// runs them all and is ready only when none is down.

export type HealthState = 'up' | 'degraded' | 'down';
export interface HealthResult {
  state: HealthState;
  detail?: Record<string, unknown>;
}
export type HealthCheck = () => Promise<HealthResult>;

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, HealthResult>;
}

export class Readiness {
  readonly #checks = new Map<string, HealthCheck>();

  register(name: string, check: HealthCheck): void {
    if (this.#checks.has(name)) throw new Error(`readiness check "${name}" registered twice`);
    this.#checks.set(name, check);
  }

  async report(timeoutMs = 2000): Promise<ReadinessReport> {
    const entries = await Promise.all(
      [...this.#checks].map(async ([name, check]) => [name, await withTimeout(check, timeoutMs)] as const),
    );
    const checks = Object.fromEntries(entries);
    const ready = entries.every(([, result]) => result.state !== 'down');
    return { status: ready ? 'ready' : 'not_ready', checks };
  }
}

async function withTimeout(check: HealthCheck, timeoutMs: number): Promise<HealthResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<HealthResult>((resolve) => {
    timer = setTimeout(() => resolve({ state: 'down', detail: { error: `no answer within ${timeoutMs} ms` } }), timeoutMs);
  });
  try {
    return await Promise.race([
      check().catch((error: Error): HealthResult => ({ state: 'down', detail: { error: error.message } })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
