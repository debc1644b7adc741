import type { ProblemList } from '../errors';
import type { EntityDraft } from './draft';
import type { FieldModel, TtlModel } from './types';

/**
 * @ExpiresAt / `.expiresAt(x => x.m)`: the TTL model of an entity whose records each expire at a
 * Date member's instant. Null (with the problems added) when the declaration is not usable; the
 * caller resolves a @TimeToLive duration only when there is no @ExpiresAt.
 */
export function resolveExpiresAt(
  draft: EntityDraft,
  fields: readonly FieldModel[],
  problems: ProblemList,
  entity: string,
): TtlModel | null {
  const members = draft.expiresAt ?? [];
  const [member] = members;
  if (member === undefined) return null;
  if (draft.ttl.length > 0) {
    problems.add({
      entity,
      member,
      code: 'MODEL_TTL_AND_EXPIRES_AT',
      message:
        `declares both a duration (${draft.ttl.map((t) => t.origin).join(', ')}) and an expiry member ` +
        `(@ExpiresAt on ${member}): an entity declares one or the other`,
      hint:
        `keep @ExpiresAt() on ${member} (each record expires at its value) or the @TimeToLive duration ` +
        '(records expire that long after a write), not both',
    });
    return null;
  }
  if (new Set(members).size > 1) {
    problems.add({
      entity,
      member,
      code: 'MODEL_EXPIRES_AT_MEMBER',
      message: `has @ExpiresAt on ${members.length} members (${members.join(', ')})`,
      hint: 'keep @ExpiresAt() on the one member whose instant each record expires at',
    });
    return null;
  }
  const field = fields.find((f) => f.member === member);
  if (!field) return null; // the member's own problem (a bad name, a bad type) is reported with the fields
  if (field.type !== 'date') {
    problems.add({
      entity,
      member,
      code: 'MODEL_EXPIRES_AT_MEMBER',
      message: `@ExpiresAt is on ${member}, which is ${field.type}, not a Date`,
      hint: 'put @ExpiresAt() on a Date member',
    });
    return null;
  }
  return Object.freeze({
    seconds: null,
    declared: `@ExpiresAt() on ${member}`,
    anchor: null,
    perWrite: false,
    expiryField: field.storedName,
    instantMember: member,
  });
}
