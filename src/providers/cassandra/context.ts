import type { EntityClass } from '../../model/types';
import { lookupByEntity } from '../../runtime/entity-lookup';
import type { CompiledModel, EntityMapping } from './compile';
import type { Executor } from './executor';
import { STORE } from './semantics';
import { TableStatements } from './statements';
import type { TtlClock } from './ttl-limits';

/** What repositories and units of work of one session share. */
export class SessionContext {
  private readonly statementsByTable = new Map<EntityMapping, TableStatements>();
  private readonly lookup: (target: unknown) => EntityMapping;

  constructor(
    readonly executor: Executor,
    readonly keyspace: string,
    readonly compiled: CompiledModel,
    private readonly nowFn: () => Date,
    private readonly ceiling: Date | null,
  ) {
    this.lookup = lookupByEntity(STORE, compiled.mappings);
  }

  now(): Date {
    return this.nowFn();
  }

  clock(): TtlClock {
    return { now: this.nowFn(), ceiling: this.ceiling };
  }

  mappingOf(target: EntityClass | undefined): EntityMapping {
    return this.lookup(target);
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
