import { addIdentityMember, applyFieldOptions, fieldDraft, keyDraft, type FieldOptions } from '../model/draft';
import type { SortOrder } from '../model/types';
import { classOf, designTypeOf, ownDraft } from './metadata';

type MemberDecorator = (target: object, member: string | symbol) => void;

/** Records a member as a field; every check waits for ModelBuilder.build(). */
function recordField(target: object, member: string | symbol, options?: FieldOptions) {
  const draft = ownDraft(classOf(target));
  const name = String(member);
  const field = fieldDraft(draft, name);
  const designType = designTypeOf(target, member);
  if (designType !== undefined) field.designType = designType;
  applyFieldOptions(field, options);
  return { draft, name };
}

/** A stored member. `type` makes it work without decorator metadata. */
export function Field(options?: FieldOptions): MemberDecorator {
  return (target, member) => {
    recordField(target, member, options);
  };
}

/**
 * Identity. Alone (or with @ClusteringKey members) the @Key members are the partition key; with a
 * @PartitionKey they are the rest of the primary key: the Cosmos item id, Cassandra clustering columns.
 */
export function Key(options?: FieldOptions): MemberDecorator {
  return (target, member) => {
    const { draft, name } = recordField(target, member, options);
    addIdentityMember(keyDraft(draft), name);
  };
}

/** A member of the partition key (placement); several form a composite partition key in order. */
export function PartitionKey(options?: FieldOptions): MemberDecorator {
  return (target, member) => {
    const { draft, name } = recordField(target, member, options);
    keyDraft(draft).partition.push(name);
  };
}

/** A member that orders rows within a partition. */
export function ClusteringKey(order: SortOrder = 'asc', options?: FieldOptions): MemberDecorator {
  return (target, member) => {
    const { draft, name } = recordField(target, member, options);
    keyDraft(draft).clustering.push({ member: name, order });
  };
}

/** Set on insert; by convention the member a document-anchored TTL counts from. */
export function CreatedAt(options?: Omit<FieldOptions, 'type'>): MemberDecorator {
  return (target, member) => {
    const { draft, name } = recordField(target, member, { ...options, type: 'date' });
    draft.createdAt = name;
  };
}

/** Set on every write; a TTL counting from it slides with each write. */
export function UpdatedAt(options?: Omit<FieldOptions, 'type'>): MemberDecorator {
  return (target, member) => {
    const { draft, name } = recordField(target, member, { ...options, type: 'date' });
    draft.updatedAt = name;
  };
}
