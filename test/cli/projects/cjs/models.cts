import 'reflect-metadata';
import { Entity, Key, Field, TimeToLive, CreatedAt, ModelBuilder } from 'lifespan-orm';

@Entity('sessions')
@TimeToLive(process.env.FIXTURE_TTL ?? '1h')
class Session {
  @Key() id!: string;
  @Field() hits!: number;
  @CreatedAt() createdAt!: Date;
}

export const model = new ModelBuilder().entity(Session).build();
