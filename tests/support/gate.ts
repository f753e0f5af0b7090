/**
 * A promise the test settles itself: a fake holds its answer (EmailJS's, a task's) on `promise`
 * until the test has seen what happens meanwhile, then `open`s it. No clock decides when.
 */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
