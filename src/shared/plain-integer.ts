/**
 * The integer written in `text` from `start` to `end`, when it is a plain one: an optional minus
 * and 1 to 15 digits, which a double holds exactly however it is summed digit by digit. NaN for
 * anything else (a fraction, an exponent, a longer number, a stray character), which callers hand
 * to Number or JSON.parse. The hot readers of packed database text (holding values, tax lots) read
 * their numbers this way instead of making a string of each.
 */
export function plainInteger(text: string, start: number, end: number): number {
  const negative = text.charCodeAt(start) === 45;
  const first = negative ? start + 1 : start;
  if (end <= first || end - first > 15) return NaN;
  let value = 0;
  for (let i = first; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return NaN;
    value = value * 10 + (c - 48);
  }
  return negative ? -value : value;
}
