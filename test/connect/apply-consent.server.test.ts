/**
 * The library's apply() asks for the same consent as ensureCollections(): a step that can make
 * records already stored expire at once needs allowRetroactive, and without it nothing is applied.
 */
import 'reflect-metadata';
import type { Database } from '@azure/cosmos';
import { connect, Entity, Key, ModelBuilder, TimeToLive } from '../../src';
import { CosmosStore } from '../../src/providers/cosmos';
import { describeStore } from '../harness/stores';
import { localCosmos } from '../cosmos/fixtures';

@Entity('sessions')
@TimeToLive(3600)
class LongSession {
  @Key() id = '';
}
@Entity('sessions')
@TimeToLive(60)
class ShortSession {
  @Key() id = '';
}

const defaultTtl = async (database: Database) => (await database.container('sessions').read()).resource?.defaultTtl;

describeStore('cosmos', 'apply() consent for retroactive steps (in-process Cosmos server)', () => {
  const fixture = localCosmos();

  it('refuses a retroactive shortening over stored items without allowRetroactive, applies it with', async () => {
    const database = await fixture.freshDatabase();
    await (
      await connect(new ModelBuilder().entity(LongSession).build(), new CosmosStore({ database }))
    ).ensureCollections();
    await database.container('sessions').items.create({ id: 'stored' });
    const db = await connect(new ModelBuilder().entity(ShortSession).build(), new CosmosStore({ database }));
    const plan = await db.plan();

    await expect(db.apply(plan)).rejects.toMatchObject({
      code: 'PLAN_RETROACTIVE_NOT_ALLOWED',
      store: 'cosmos',
      message: expect.stringContaining('allowRetroactive'),
    });
    expect(await defaultTtl(database)).toBe(3600);

    expect((await db.apply(plan, { allowRetroactive: true })).applied).toHaveLength(1);
    expect(await defaultTtl(database)).toBe(60);
  });

  it('needs no consent for a new container; a lengthening needs allowUnexpiry, not allowRetroactive', async () => {
    const database = await fixture.freshDatabase();
    const short = await connect(new ModelBuilder().entity(ShortSession).build(), new CosmosStore({ database }));
    expect((await short.apply(await short.plan())).applied.map((s) => s.action)).toEqual(['create-container']);
    const long = await connect(new ModelBuilder().entity(LongSession).build(), new CosmosStore({ database }));
    // A longer DefaultTimeToLive brings back items expired but not yet deleted (issue 25).
    const plan = await long.plan();
    await expect(long.apply(plan, { allowRetroactive: true })).rejects.toMatchObject({
      code: 'PLAN_UNEXPIRY_NOT_ALLOWED',
    });
    expect((await long.apply(plan, { allowUnexpiry: true })).applied.map((s) => s.action)).toEqual(['set-default-ttl']);
  });
});
