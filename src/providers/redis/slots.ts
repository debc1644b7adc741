/**
 * Redis Cluster's hash slot of a key (cluster spec, "Keys distribution model"): CRC16 (XMODEM) of
 * the key, or of its hash tag — the text between the first `{` and the next `}` when that is not
 * empty — modulo 16384. Computed here so a unit of work can be refused before anything is sent.
 */
export const SLOT_COUNT = 16384;

const TABLE = ((): Uint16Array => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] as number);
  return crc;
}

/** The part of the key that decides its slot: the hash tag when there is a non-empty one. */
export function hashedPart(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  return close === -1 || close === open + 1 ? key : key.slice(open + 1, close);
}

/**
 * A cluster write names two keys (the record and its slot's index) and the router checks both, so
 * this runs a few times per write: an ASCII key (lifespan's own keys, whose parts are escaped,
 * mostly are) is read char by char, its UTF-8 bytes being its char codes, without a Buffer.
 */
export function hashSlot(key: string): number {
  const part = hashedPart(key);
  let crc = 0;
  for (let i = 0; i < part.length; i++) {
    const code = part.charCodeAt(i);
    if (code > 0x7f) return crc16(Buffer.from(part, 'utf8')) % SLOT_COUNT;
    crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ code) & 0xff] as number);
  }
  return crc % SLOT_COUNT;
}
