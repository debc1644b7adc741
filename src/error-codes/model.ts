import type { ErrorCodeSpec } from '../error-code-spec';

/** Codes of the model: decorators, the fluent builder, entity checks. Each row's TSDoc is its meaning in docs/errors.md. */
export const MODEL_CODES = {
  /** A ModelError built without any problem (a defect: a ModelError always lists its problems). */
  MODEL_INVALID: { family: 'ModelError', exit: 'model' },
  /** A key member of a type that cannot be a key. */
  MODEL_BAD_KEY_TYPE: { family: 'ModelError', exit: 'model' },
  /** A collection/table name that is not allowed. */
  MODEL_BAD_NAME: { family: 'ModelError', exit: 'model' },
  /** A field option of the wrong kind (e.g. nullable that is not a boolean). */
  MODEL_BAD_OPTION: { family: 'ModelError', exit: 'model' },
  /** A fluent member selector that does not read exactly one member. */
  MODEL_BAD_SELECTOR: { family: 'ModelError', exit: 'model' },
  /** A decorator used where, or in a form, lifespan cannot read. */
  MODEL_DECORATOR_UNSUPPORTED: { family: 'ModelError', exit: 'model' },
  /** Two different classes with one entity name in the model. */
  MODEL_DUPLICATE_ENTITY: { family: 'ModelError', exit: 'model' },
  /** Two members stored under one name. */
  MODEL_DUPLICATE_NAME: { family: 'ModelError', exit: 'model' },
  /** The per-write expiry field is also the name of a member. */
  MODEL_EXPIRY_FIELD_TAKEN: { family: 'ModelError', exit: 'model' },
  /** An entity without a (partition) key. */
  MODEL_NO_KEY: { family: 'ModelError', exit: 'model' },
  /** A member whose type lifespan cannot tell; declare it. */
  MODEL_NO_TYPE: { family: 'ModelError', exit: 'model' },
  /** A class in the model with neither decorators nor fluent configuration. */
  MODEL_NOT_AN_ENTITY: { family: 'ModelError', exit: 'model' },
  /** A key member declared nullable. */
  MODEL_NULLABLE_KEY: { family: 'ModelError', exit: 'model' },
  /** A created/updated timestamp member that is not a Date. */
  MODEL_TIMESTAMP_NOT_DATE: { family: 'ModelError', exit: 'model' },
  /** An entity with more than one TTL declaration. */
  MODEL_TTL_DECLARED_TWICE: { family: 'ModelError', exit: 'model' },
  /** A TTL declaration with neither a duration nor perWrite. */
  MODEL_TTL_EMPTY: { family: 'ModelError', exit: 'model' },
  /** A TTL that counts from a member that is not a Date. */
  MODEL_TTL_MEMBER_NOT_DATE: { family: 'ModelError', exit: 'model' },
  /** TTL options of the wrong shape (unknown keys, options that throw when read). */
  MODEL_TTL_OPTIONS: { family: 'ModelError', exit: 'model' },
  /** A TTL that counts from a member the entity does not have. */
  MODEL_TTL_UNKNOWN_MEMBER: { family: 'ModelError', exit: 'model' },
  /** A field type lifespan does not know. */
  MODEL_UNKNOWN_TYPE: { family: 'ModelError', exit: 'model' },
  /** An entity with more than one version member (Version() / .version()). */
  MODEL_VERSION_DECLARED_TWICE: { family: 'ModelError', exit: 'model' },
  /** A version member (Version() / .version()) that is not a number, is nullable, or is a key member. */
  MODEL_VERSION_NOT_NUMERIC: { family: 'ModelError', exit: 'model' },
  /** explain() asked for a store that is not one of lifespan's stores. */
  EXPLAIN_UNKNOWN_STORE: { family: 'ModelError', exit: 'model' },

  // Expiry from a member (@ExpiresAt, issue 25).
  /** An entity that declares both a duration (@TimeToLive) and an expiry member (@ExpiresAt). */
  MODEL_TTL_AND_EXPIRES_AT: { family: 'ModelError', exit: 'model' },
  /** @ExpiresAt on more than one member, or on a member that is not a Date. */
  MODEL_EXPIRES_AT_MEMBER: { family: 'ModelError', exit: 'model' },
} as const satisfies Record<string, ErrorCodeSpec>;
