/**
 * Items asked for in one turn of the event loop are handed over together, as one list: a chunk
 * starts all its rows at once, and each row about to be created claims its key (create-claims.ts),
 * so 100 claims become one script execution in one round trip instead of 100 (issues 12 and 31,
 * "work per row": Redis counts each command a script runs, so one script over 100 keys also runs
 * fewer commands than 100 scripts over one key each).
 *
 * `send` gets the items in the order they were asked for and answers each in that order; its
 * failure rejects every item of the list. The list is handed over on `process.nextTick` of the
 * first item: items reached through promise continuations of the same turn (rows that awaited an
 * already settled promise) join it, and no timer is involved (fake timers in tests do not hold it
 * back).
 */
export class TurnBatch<Item, Answer> {
  private pending: { item: Item; resolve: (answer: Answer) => void; reject: (error: unknown) => void }[] = [];

  constructor(private readonly send: (items: Item[]) => Promise<Answer[]>) {}

  add(item: Item): Promise<Answer> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) process.nextTick(() => this.flush());
      this.pending.push({ item, resolve, reject });
    });
  }

  private flush(): void {
    const calls = this.pending;
    this.pending = [];
    let answers: Promise<Answer[]>;
    try {
      answers = this.send(calls.map((call) => call.item));
    } catch (error) {
      answers = Promise.reject(error);
    }
    answers.then(
      (list) => {
        calls.forEach((call, i) => {
          if (i < list.length) call.resolve(list[i] as Answer);
          else call.reject(new Error(`a batch of ${calls.length} got only ${list.length} answers`));
        });
      },
      (error: unknown) => {
        for (const call of calls) call.reject(error);
      },
    );
  }
}
