// Writes that can share one statement, gathered while their group's work waits for its place in a group-commit batch:
// the first member opens the group and queues its work; members that arrive before the work starts join it; the work
// closes the group when it starts, so a later member opens the next one.

export class OpenGroups<Key, Member> {
  readonly #open = new Map<Key, Member[]>();

  /**
   * Adds `member` to the open group of `key`. A member that opens a group hands `queue` the group's `close`, which the
   * group's work calls as it starts: it answers the members, and no member joins after it.
   */
  join(key: Key, member: Member, queue: (close: () => readonly Member[]) => void): void {
    const open = this.#open.get(key);
    if (open !== undefined) {
      open.push(member);
      return;
    }
    const members = [member];
    this.#open.set(key, members);
    queue(() => {
      if (this.#open.get(key) === members) this.#open.delete(key);
      return members;
    });
  }
}
