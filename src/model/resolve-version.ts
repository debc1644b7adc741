import type { ModelProblem } from '../errors';
import type { EntityDraft } from './draft';
import { VERSION_FIELD_TYPES, type FieldModel, type KeyModel } from './types';

type Report = (p: Omit<ModelProblem, 'entity'>) => void;

/**
 * The @Version member: one per entity, a whole number the store compares and increments (update(),
 * delete({ ifVersion })), never nullable and never part of the key (a key identifies the record, a
 * version counts its writes).
 */
export function resolveVersion(
  draft: EntityDraft,
  fields: readonly FieldModel[],
  key: KeyModel,
  report: Report,
): string | null {
  const declared = [...new Set(draft.versions)];
  if (declared.length === 0) return null;
  if (declared.length > 1) {
    report({
      code: 'MODEL_VERSION_DECLARED_TWICE',
      member: declared[1],
      message: `has ${declared.length} version members (${declared.join(', ')})`,
      hint: 'keep one @Version() (or .version(x => x.member)): one counter decides every conditional write',
    });
    return null;
  }
  const member = declared[0] as string;
  const field = fields.find((f) => f.member === member);
  // A field that failed to resolve has its own problem reported already.
  if (!field) return null;
  const isKey = [...key.partition, ...key.clustering.map((c) => c.member)].includes(member);
  const why = !VERSION_FIELD_TYPES.includes(field.type)
    ? `is ${field.type}, not a number`
    : field.nullable
      ? 'is nullable'
      : isKey
        ? 'is a key member'
        : undefined;
  if (why === undefined) return member;
  report({
    code: 'MODEL_VERSION_NOT_NUMERIC',
    member,
    message: `the version member '${member}' ${why}`,
    hint: "declare it as a non-nullable number that is not part of the key, e.g. @Version() version = 0 (or { type: 'integer' })",
  });
  return null;
}
