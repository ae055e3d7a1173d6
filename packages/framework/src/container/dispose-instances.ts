// Runs the disposal hooks of container-created instances, newest first, so dependents go before their dependencies.

type DisposeHook = () => unknown;

/** The instance's `[Symbol.asyncDispose]`, `[Symbol.dispose]` or `dispose` method, in that order of preference. */
function disposeHookOf(instance: unknown): DisposeHook | undefined {
  if ((typeof instance !== 'object' && typeof instance !== 'function') || instance === null) return undefined;
  const candidate = instance as Partial<Record<symbol | 'dispose', unknown>>;
  const hook = candidate[Symbol.asyncDispose] ?? candidate[Symbol.dispose] ?? candidate.dispose;
  return typeof hook === 'function' ? (hook as DisposeHook).bind(instance) : undefined;
}

export function hasDisposeHook(instance: unknown): boolean {
  return disposeHookOf(instance) !== undefined;
}

/** Disposes every instance even when some hooks fail, then rethrows the failure (or an AggregateError for several). */
export async function disposeInReverse(instances: readonly unknown[]): Promise<void> {
  const failures: unknown[] = [];
  for (let index = instances.length - 1; index >= 0; index--) {
    try {
      await disposeHookOf(instances[index])?.();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} disposal hooks failed.`);
}
