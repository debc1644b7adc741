/**
 * Type-level checks of duration texts, run by `npm run typecheck` (not by jest): a duration
 * literal TypeScript can tell is wrong does not compile; a `string` that is not a literal is
 * still accepted and checked at run time (test/model/duration-strict.test.ts).
 */
import { ModelBuilder, TimeToLive } from '../../src';

class Session {
  id = '';
  createdAt = new Date(0);
}

export function typeChecks(fromEnvironment: string | undefined): void {
  // @ts-expect-error '1 hour' is no duration text: write '1h'
  TimeToLive('1 hour');
  // @ts-expect-error a unit TypeScript can see is not one of d, h, m, s
  TimeToLive('15 minutes');
  // @ts-expect-error units out of order
  TimeToLive('30m1h');
  TimeToLive('1h');
  TimeToLive('1h30m');
  TimeToLive('1.5h');
  TimeToLive('PT1H');
  TimeToLive(3600);
  TimeToLive({ hours: 1 });
  TimeToLive({ perWrite: true });
  TimeToLive(fromEnvironment ?? '1h');
  TimeToLive('1h ');
  TimeToLive({ ttl: '1h', perWrite: true });
  TimeToLive({ ttl: fromEnvironment ?? '1h' });
  // @ts-expect-error the options form checks the literal too
  TimeToLive({ ttl: '1 hour' });
  const builder = new ModelBuilder();
  // @ts-expect-error the fluent form checks the literal too
  builder.entity(Session, (e) => e.key((s) => s.id).timeToLive('1 hour'));
  // @ts-expect-error and with a member to count from
  builder.entity(Session, (e) => e.key((s) => s.id).timeToLive((s) => s.createdAt, '2 days'));
  builder.entity(Session, (e) => e.key((s) => s.id).timeToLive((s) => s.createdAt, '2d'));
}
