import { purgeProgress } from '../../src/cli/progress';

function clock(): { now: () => number; advance(ms: number): void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

test('on a terminal: one line rewritten in place, with total, rate and time left', () => {
  const lines: string[] = [];
  const c = clock();
  const progress = purgeProgress({ name: 'main', isTty: true, write: (t) => lines.push(t), total: 1000, now: c.now });
  c.advance(1000);
  progress.update(250);
  progress.finish();
  expect(lines).toEqual(['\rmain: purged 250 of 1000 row(s) (250 rows/s, about 3s left)\x1b[K', '\n']);
});

test('elsewhere: one line every few seconds, not one per batch', () => {
  const lines: string[] = [];
  const c = clock();
  const progress = purgeProgress({ name: 'main', isTty: false, write: (t) => lines.push(t), now: c.now });
  for (let batch = 1; batch <= 400; batch += 1) {
    c.advance(50); // 400 batches in 20 s
    progress.update(batch * 500);
  }
  progress.finish();
  expect(lines).toHaveLength(4);
  expect(lines[0]).toBe('main: purged 50000 row(s) (10000 rows/s)\n');
});

test('on a terminal a shorter line clears what the longer one before it left (review 12 item 17)', () => {
  const lines: string[] = [];
  const c = clock();
  const progress = purgeProgress({ name: 'main', isTty: true, write: (t) => lines.push(t), total: 100000, now: c.now });
  c.advance(1000);
  progress.update(1000);
  c.advance(1000);
  progress.update(99999);
  expect(lines.every((l) => l.startsWith('\r') && l.endsWith('\x1b[K'))).toBe(true);
});
