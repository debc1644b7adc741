import 'reflect-metadata';
import { Entity, Key, Field, TimeToLive, CreatedAt, ModelBuilder } from 'lifespan-orm';
import { SESSION_TTL } from '@lib/ttl.js';
import { Visit } from './visit.mjs';

@Entity('sessions')
@TimeToLive(SESSION_TTL)
export class Session {
  @Key() id!: string;
  @Field() hits!: number;
  @CreatedAt() createdAt!: Date;
}

// Top-level await, as an ESM models file may use it.
const extra = await Promise.resolve([Visit]);

export const model = new ModelBuilder().entity(Session).entity(extra[0]!).build();
