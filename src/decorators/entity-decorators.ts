import { ttlDraftFrom, type TtlOptions } from '../model/draft';
import type { DurationParts, DurationString } from '../model/duration';
import type { MemberDecorator } from './field-decorators';
import { markEntity } from '../model/class-metadata';
import { classSite, isStandardContext, memberSite } from './standard';

/** A class decorator usable with either TypeScript standard (legacy `(class)`, TC39 `(class, context)`). */
export interface EntityClassDecorator {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  <F extends Function>(target: F): void;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  <F extends Function>(value: F, context: ClassDecoratorContext): void;
}

/** Marks a class as an entity, stored under `collection` (default: the class name). */
export function Entity(collection?: string): EntityClassDecorator {
  return ((...args: unknown[]) => {
    const { target, draft } = classSite('@Entity', args);
    markEntity(target);
    if (collection !== undefined) draft.collection = collection;
  }) as EntityClassDecorator;
}

/**
 * On the class: every record's lifetime (`3600`, `'1h'`, `'PT1H'`, `{ hours: 1 }`) or options
 * (`{ ttl, perWrite, member, expiryField }`). On a Date member: expire that long after its value.
 */
export function TimeToLive<D extends string = string>(
  value: number | DurationString<D> | DurationParts | TtlOptions<D>,
): EntityClassDecorator & MemberDecorator {
  return ((...args: unknown[]) => {
    const onClass = isStandardContext(args[1]) ? args[1].kind === 'class' : args[1] === undefined;
    if (onClass) {
      classSite('@TimeToLive', args).draft.ttl.push(ttlDraftFrom(value, '@TimeToLive on the class'));
      return;
    }
    const { draft, name } = memberSite('@TimeToLive', args);
    draft.ttl.push(ttlDraftFrom(value, `@TimeToLive on ${name}`, name));
  }) as EntityClassDecorator & MemberDecorator;
}
