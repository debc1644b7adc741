/**
 * The TTL record keeps what an emulated table's expiry counts from as text ('last-write',
 * 'member:<name>', 'instant:<name>'); the plan reads it back through the typed anchor, not by
 * slicing the text (issue 28, point 6).
 */
import { anchorOfCountsFrom, countsFromText, type TtlAnchor } from '../../src/providers/relational/schema/ttl-anchor';

const anchors: TtlAnchor[] = [
  { kind: 'write' },
  { kind: 'member', member: 'lastSeen' },
  { kind: 'member', member: 'a:b' },
  { kind: 'instant', member: 'expiresAt' },
];

test.each(anchors)('%j reads back as itself from its stored text', (anchor) => {
  expect(anchorOfCountsFrom(countsFromText(anchor))).toEqual(anchor);
});

test.each(['', 'member:', 'instant:', 'column:x', 'lastwrite', 'member'])(
  '%j is no text lifespan writes: no anchor',
  (text) => {
    expect(anchorOfCountsFrom(text)).toBeUndefined();
  },
);
