import { LifespanError } from '../../../errors';
import { RELATIONAL_STORE } from '../options';

/**
 * A statement lifespan built breaks a rule of the driver layer (a read the driver would answer
 * ambiguously, a parameter that cannot be sent the way asked): a defect in lifespan, never the
 * caller's input. The detail names the rule, never a bound value (it may be a secret).
 */
export function internalError(detail: string, entity?: string): LifespanError {
  return new LifespanError('RELATIONAL_INTERNAL', detail, {
    entity,
    store: RELATIONAL_STORE,
    hint: 'this is a defect in lifespan: please report it',
  });
}
