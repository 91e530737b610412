// A queue of events a test awaits in order: bounded waits, woken on every push (no polling loop of its own).

/** Items pushed as they happen; next() takes the first one matching, waiting at most timeoutMs for it. */
export function inbox(timeoutMs) {
  const items = [];
  const waiters = [];
  return {
    push(item) {
      items.push(item);
      waiters.splice(0).forEach((wake) => wake());
    },
    async next(predicate, what) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = items.findIndex(predicate);
        if (index >= 0) return items.splice(index, 1)[0];
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for ${what}; have ${JSON.stringify(items)}`);
        await new Promise((wake) => {
          waiters.push(wake);
          setTimeout(wake, Math.min(left, 1000));
        });
      }
    },
  };
}
