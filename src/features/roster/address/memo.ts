/**
 * A pure text function remembered for its last few thousand inputs: a roster batch repeats its
 * words and streets, and a re-sent batch repeats all of them (docs/decisions.md, Roster batch speed).
 * The memory is bounded: past `max` inputs it starts over.
 */
export function memoized(fn: (text: string) => string, max = 10_000): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    let value = known.get(text);
    if (value === undefined) {
      value = fn(text);
      if (known.size >= max) known.clear();
      known.set(text, value);
    }
    return value;
  };
}
