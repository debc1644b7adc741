import { ErrorCodes } from '../../error-codes';
import { LifespanError } from '../../errors';
import type { EntityClass } from '../../model/types';
import type { CompiledModel, EntityMapping } from './compile';
import type { Executor } from './executor';
import { STORE } from './semantics';
import { TableStatements } from './statements';
import type { TtlClock } from './ttl-limits';

/** What repositories and units of work of one session share. */
export class SessionContext {
  private readonly statementsByTable = new Map<EntityMapping, TableStatements>();

  constructor(
    readonly executor: Executor,
    readonly keyspace: string,
    readonly compiled: CompiledModel,
    private readonly nowFn: () => Date,
    private readonly ceiling: Date | null,
  ) {}

  now(): Date {
    return this.nowFn();
  }

  clock(): TtlClock {
    return { now: this.nowFn(), ceiling: this.ceiling };
  }

  mappingOf(target: EntityClass | undefined): EntityMapping {
    const mapping = this.compiled.mappings.find((m) => m.entity.target === target);
    if (!mapping) {
      const name = typeof target === 'function' && target.name ? target.name : String(target);
      throw new LifespanError(ErrorCodes.UNKNOWN_ENTITY, `${name} is not an entity of this model`, {
        store: STORE,
        hint: `pass one of ${this.compiled.mappings.map((m) => m.entity.name).join(', ')}, or add the class to the ModelBuilder the store was opened with`,
      });
    }
    return mapping;
  }

  statements(mapping: EntityMapping): TableStatements {
    let statements = this.statementsByTable.get(mapping);
    if (!statements) {
      statements = new TableStatements(this.keyspace, mapping);
      this.statementsByTable.set(mapping, statements);
    }
    return statements;
  }
}
