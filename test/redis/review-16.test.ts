/**
 * The fresh-eyes review of the Redis provider (issue 16): one test per defect, each red on 3410baa.
 */
import 'reflect-metadata';
import { ErrorCodes } from '../../src';
import { parseRedisUrl } from '../../src/providers/redis/from-url';
import { storeOfUrl } from '../../src/providers/url-openers';

describe('item 1: redis:// URLs name the redis store and a numeric database', () => {
  test('the database path is a non-negative integer, else REDIS_BAD_URL', () => {
    expect(parseRedisUrl('redis://h:6379/0').driverUrl).toBe('redis://h:6379/0');
    expect(parseRedisUrl('redis://h:6379').driverUrl).toBe('redis://h:6379');
    for (const bad of ['redis://h:6379/x', 'redis://h:6379/-1', 'redis://h:6379/1.5']) {
      expect(() => parseRedisUrl(bad)).toThrow(expect.objectContaining({ code: 'REDIS_BAD_URL', store: 'redis' }));
    }
  });

  test('connection errors of a redis:// URL name the redis store', () => {
    expect(storeOfUrl('redis://127.0.0.1:6379/1')).toBe('redis');
    expect(storeOfUrl('rediss://h/0')).toBe('redis');
    expect(storeOfUrl('postgres://h/db')).toBe('relational');
    expect(ErrorCodes.STORE_DATABASE_MISSING).toBe('STORE_DATABASE_MISSING');
  });
});
