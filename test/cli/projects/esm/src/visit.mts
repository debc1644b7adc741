import { Entity, Key, TimeToLive } from 'lifespan-orm';

@Entity('visits')
export class Visit {
  @Key() id!: string;
  @TimeToLive('1d') lastSeenAt!: Date;
}
