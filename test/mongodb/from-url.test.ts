import { openerFor } from '../../src/providers/url-openers';
import { openMongoUrl, parseMongoUrl } from '../../src/providers/mongodb/from-url';

describe('mongodb URLs for the CLI', () => {
  test('the database, the password to mask, and lifespan\u2019s hideExpired option', () => {
    expect(parseMongoUrl('mongodb://app:s3cr%40t@h1:27017,h2:27018/shop?replicaSet=rs0&hideExpired=true')).toEqual({
      driverUrl: 'mongodb://app:s3cr%40t@h1:27017,h2:27018/shop?replicaSet=rs0',
      database: 'shop',
      password: 's3cr@t',
      hideExpired: true,
    });
    expect(parseMongoUrl('mongodb+srv://cluster.example.net/app')).toEqual({
      driverUrl: 'mongodb+srv://cluster.example.net/app',
      database: 'app',
      password: null,
      hideExpired: false,
    });
  });

  test('a URL without a database is refused with the form to use', () => {
    expect(() => parseMongoUrl('mongodb://localhost:27017')).toThrow(/must name a database/);
    expect(() => parseMongoUrl('mongodb://localhost:27017/?w=1')).toThrow(/must name a database/);
  });

  test('the CLI finds the opener; an unreachable server is a StoreError', async () => {
    expect(openerFor('mongodb://127.0.0.1:1/app')).toBe(openMongoUrl);
    await expect(openMongoUrl('mongodb://127.0.0.1:1/app?serverSelectionTimeoutMS=200')).rejects.toMatchObject({
      code: 'STORE_UNREACHABLE',
    });
  });
});
