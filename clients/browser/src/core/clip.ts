/**
 * The first `max` UTF-16 units of `text`, never ending in half of a surrogate pair: Vigil refuses text with a lone
 * surrogate (PostgreSQL cannot store it), so a clipped emoji would get the whole reading or event refused.
 */
export function clip(text: string, max: number): string {
  const out = text.slice(0, max);
  const last = out.charCodeAt(out.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? out.slice(0, -1) : out;
}
