/**
 * The known name a mistyped one most likely meant, for "did you mean …?" hints: the nearest by
 * edit distance (a swap of two neighbouring letters counts as one edit, case is ignored), and only
 * when it is near enough to be a typo rather than another word.
 */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const wanted = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(wanted, name.toLowerCase());
    // As many edits as the shorter name has letters would turn anything into it ('x' → 'w').
    const nearEnough =
      distance <= typoBudget(Math.max(wanted.length, name.length)) && distance < Math.min(wanted.length, name.length);
    if (nearEnough && (!best || distance < best.distance)) {
      best = { name, distance };
    }
  }
  return best?.name;
}

/** One edit for short names, a third of the length for longer ones (`prefx` → `prefix`, not `foo` → `ttl`). */
function typoBudget(length: number): number {
  return Math.max(1, Math.floor(length / 3));
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = distance;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}
