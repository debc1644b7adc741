import { ServerClock } from '../../src/providers/cosmos/server-clock';

describe('ServerClock (the server time queries carry)', () => {
  const header = (epochSeconds: number) => new Date(epochSeconds * 1000).toUTCString();

  it('estimates the server clock from the offset at the latest Date header, not the client clock', () => {
    let client = 5_000_000; // the client clock is an hour behind the server
    const clock = new ServerClock(() => client);
    expect(clock.estimateSeconds()).toBeUndefined();
    expect(clock.observe(header(5_000 + 3_600))).toBe(8_600);
    expect(clock.estimateSeconds()).toBe(8_600);
    client += 10_000;
    expect(clock.estimateSeconds()).toBe(8_610);
  });

  it('is within a second of the header whatever the fraction of the second it was sent in', () => {
    let client = 1_000_000;
    const clock = new ServerClock(() => client);
    clock.observe(header(1_000));
    for (const later of [0, 400, 999]) {
      client = 1_000_000 + later;
      expect(Math.abs((clock.estimateSeconds() as number) - 1_000)).toBeLessThanOrEqual(1);
    }
  });

  it('forgets a sample older than a minute, and ignores a missing or unreadable header', () => {
    let client = 0;
    const clock = new ServerClock(() => client);
    expect(clock.observe(undefined)).toBeUndefined();
    expect(clock.observe('not a date')).toBeUndefined();
    clock.observe(header(100));
    client = 61_000;
    expect(clock.estimateSeconds()).toBeUndefined();
  });
});
