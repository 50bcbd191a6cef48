// Sorting without the copies of Array.prototype.sort, for the short lists a tax-aware run sorts
// once per holding or account: V8 copies every list it sorts, and in a tax-aware run those copies
// were a tenth of what the engine allocated (each allocation brings the next scavenge nearer).

/**
 * `list.sort(compare)`, in place, without the copy V8's sort makes of every list it sorts (a
 * tax-aware run orders the lots of every holding it sells or harvests, a few lots each, and those
 * copies were a tenth of what its engine allocated). Below 64 items V8's TimSort is one run: the
 * longest ascending (or strictly descending, then reversed) prefix, and a binary insertion of the
 * rest. This is that, step for step, so even a comparator that is not a strict order (the lot
 * comparators treat gains within 1e-12 as equal) gives the order V8 gives; a property test holds
 * the two equal. Longer lists go to V8.
 */
export function sortShort<T>(list: T[], compare: (a: T, b: T) => number): T[] {
  const n = list.length;
  if (n < 2) return list;
  if (n >= 64) return list.sort(compare);
  // The run at the start: ascending (each item not below the one before), or strictly descending.
  let run = 2;
  const descending = compare(list[1] as T, list[0] as T) < 0;
  for (let i = 2; i < n; i++) {
    const order = compare(list[i] as T, list[i - 1] as T);
    if (descending ? order >= 0 : order < 0) break;
    run++;
  }
  if (descending) {
    for (let lo = 0, hi = run - 1; lo < hi; lo++, hi--) {
      const t = list[lo] as T;
      list[lo] = list[hi] as T;
      list[hi] = t;
    }
  }
  // Binary insertion of the rest: each item goes after every item it does not sort before (stable).
  for (let start = run; start < n; start++) {
    const pivot = list[start] as T;
    let left = 0;
    let right = start;
    while (left < right) {
      const mid = left + ((right - left) >> 1);
      if (compare(pivot, list[mid] as T) < 0) right = mid;
      else left = mid + 1;
    }
    for (let p = start; p > left; p--) list[p] = list[p - 1] as T;
    list[left] = pivot;
  }
  return list;
}

/**
 * The first `k` of `list` in a stable sort by `compare`, without copying and sorting the list (a
 * direct-indexing account skips hundreds): each item goes into a short sorted list after every
 * item it does not sort before, as a stable sort would leave it.
 */
export function firstOf<T>(list: readonly T[], compare: (a: T, b: T) => number, k: number): T[] {
  const top: T[] = [];
  for (const item of list) {
    if (top.length === k && compare(item, top[k - 1] as T) >= 0) continue;
    let at = top.length;
    while (at > 0 && compare(item, top[at - 1] as T) < 0) at--;
    top.splice(at, 0, item);
    if (top.length > k) top.pop();
  }
  return top;
}
