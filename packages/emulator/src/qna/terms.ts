// A module of its own: answers, highlights and follow-ups read terms as the index does, without loading
// the index (MiniSearch) before a system is first searched.

const stopWords = new Set(
  'a an and are as at be by can do does for from has have how i if in is it its me my of on or our so that the their then there this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** Lower-cases, drops stop words and a plural `s`, so "passwords" finds "password". */
export function normaliseTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (stopWords.has(t)) return null;
  return t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t;
}
