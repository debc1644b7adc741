import { fieldDraft, ttlDraftFrom, type TtlOptions } from '../model/draft';
import type { DurationInput } from '../model/duration';
import { classOf, designTypeOf, markEntity, ownDraft } from './metadata';

/** Marks a class as an entity, stored under `collection` (default: the class name). */
export function Entity(collection?: string): ClassDecorator {
  return (target) => {
    markEntity(target);
    const draft = ownDraft(target);
    if (collection !== undefined) draft.collection = collection;
  };
}

/**
 * On the class: every record's lifetime (`3600`, `'1h'`, `'PT1H'`, `{ hours: 1 }`) or options
 * (`{ ttl, perWrite, member, expiryField }`). On a Date member: expire that long after its value.
 */
export function TimeToLive(value: DurationInput | TtlOptions): ClassDecorator & PropertyDecorator {
  return ((target: object, member?: string | symbol) => {
    if (member === undefined) {
      ownDraft(target).ttl.push(ttlDraftFrom(value, '@TimeToLive on the class'));
      return;
    }
    const name = String(member);
    const draft = ownDraft(classOf(target));
    const field = fieldDraft(draft, name);
    const designType = designTypeOf(target, member);
    if (designType !== undefined) field.designType = designType;
    draft.ttl.push(ttlDraftFrom(value, `@TimeToLive on ${name}`, name));
  }) as ClassDecorator & PropertyDecorator;
}
