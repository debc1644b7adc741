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
      throw new LifespanError(
        'ENTITY_NOT_IN_MODEL',
        `${target?.name ?? String(target)} is not an entity of this model`,
        {
          store: STORE,
          hint: 'add the class to the ModelBuilder the store was opened with',
        },
      );
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
