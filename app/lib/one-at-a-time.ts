/**
 * A queue of one: each piece of work given to it starts once the one before it has ended (resolved or
 * failed), in the order given. For work whose memory grows with each one running at once (decoding an
 * image holds its pixels), so that a process holds one at a time however many requests ask.
 */
export function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work);
    tail = run.catch(() => undefined);
    return run;
  };
}
