/** A promise a test settles when it chooses: to hold a step until another has happened. */
export interface Gate {
  promise: Promise<void>;
  open: () => void;
  fail: (error: Error) => void;
}

export function gate(): Gate {
  let open = () => {};
  let fail: (error: Error) => void = () => {};
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}
