import { hashSlot, SLOT_COUNT } from './slots';

/**
 * A hash tag per Redis Cluster slot: `slotTag(s)` is a short text whose CRC16 falls in slot `s`,
 * so a key `{<slotTag(s)>}…` lives in slot `s` beside the records hashed there. Found by trying
 * `ix0`, `ix1`, … in order (base 36) until every slot has its first hit: the same table in every
 * process and version, computed once (about 170,000 CRC16s of 3–6 bytes).
 */
let table: string[] | undefined;

function build(): string[] {
  const tags = new Array<string | undefined>(SLOT_COUNT);
  let left = SLOT_COUNT;
  for (let n = 0; left > 0; n++) {
    const tag = `ix${n.toString(36)}`;
    const slot = hashSlot(tag);
    if (tags[slot] !== undefined) continue;
    tags[slot] = tag;
    left -= 1;
  }
  return tags as string[];
}

export function slotTag(slot: number): string {
  table ??= build();
  return table[slot] as string;
}
