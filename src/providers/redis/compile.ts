import type { EntityModel, FieldModel, Model } from '../../model/types';
import { fieldOf } from '../../model/types';

/** One entity on Redis: where its keys live and what its writes stamp. Plain data. */
export interface KeyspaceMapping {
  readonly entity: EntityModel;
  readonly collection: string;
  /** Members of the key's hash tag `{…}` (the partition members when the key has clustering members too). */
  readonly tagMembers: readonly FieldModel[];
  /** Key members after the hash tag (all key members when there is no tag). */
  readonly restMembers: readonly FieldModel[];
  /** Stored fields, the @CreatedAt member first (a script keeps it on an upsert by its position). */
  readonly fields: readonly FieldModel[];
  /** The entity default in seconds (EX sent with each write), or null: no expiry. */
  readonly defaultSeconds: number | null;
}

export interface CompiledModel {
  readonly mappings: readonly KeyspaceMapping[];
}

export function compileModel(model: Model): CompiledModel {
  return { mappings: model.entities.map(compileEntity) };
}

function compileEntity(entity: EntityModel): KeyspaceMapping {
  const field = (member: string) => fieldOf(entity, member) as FieldModel;
  const partition = entity.key.partition.map(field);
  const clustering = entity.key.clustering.map((c) => field(c.member));
  // A lone key needs no tag: the whole key already decides the slot.
  const tagged = clustering.length > 0;
  const createdAt = entity.createdAt;
  const fields = [...entity.fields].sort((a, b) => Number(b.member === createdAt) - Number(a.member === createdAt));
  return {
    entity,
    collection: entity.collection,
    tagMembers: tagged ? partition : [],
    restMembers: tagged ? clustering : partition,
    fields,
    defaultSeconds: entity.ttl?.seconds ?? null,
  };
}
