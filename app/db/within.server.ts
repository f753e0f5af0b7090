/**
 * `work`'s result, or `fallback` once `ms` have passed or when it fails: for answers a visitor
 * waits on, where the database may help but must not hold the page up. The work itself goes on;
 * its late result is dropped.
 */
export async function within<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([work.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}
