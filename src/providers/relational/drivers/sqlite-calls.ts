import type BetterSqlite3 from 'better-sqlite3';
import { generatedFunction } from '../../../runtime/generated-function';

/**
 * better-sqlite3's statement methods called with the parameters as separate arguments, by a
 * function made once per number of parameters. A spread call (`run(...params)`) reaches the native
 * method through V8's generic API-call path, and an array argument (`run(params)`, which
 * better-sqlite3 also binds) reads each element through the embedder API: each costs several
 * hundred instructions a statement more than a call of fixed arity, which optimized code makes
 * straight to the native method (callgrind; docs/performance.md, "Eleventh session").
 */
type Call<R> = (statement: BetterSqlite3.Statement, params: readonly unknown[]) => R;
type Method = 'run' | 'get' | 'all';

/** More parameters than this are spread: such statements are rare and their binding dominates. */
const MOST_UNROLLED = 100;

function callsOf<R>(method: Method): (arity: number) => Call<R> {
  const made: Array<Call<R>> = [];
  const spread: Call<R> = (statement, params) => (statement[method] as (...p: unknown[]) => R)(...params);
  return (arity) => {
    const known = made[arity];
    if (known) return known;
    const args = Array.from({ length: arity }, (_, i) => `params[${i}]`).join(', ');
    const call =
      arity > MOST_UNROLLED
        ? spread
        : (generatedFunction<Call<R>>([], [], 'statement, params', `return statement.${method}(${args});`) ?? spread);
    made[arity] = call;
    return call;
  };
}

const runCall = callsOf<BetterSqlite3.RunResult>('run');
const getCall = callsOf<unknown>('get');
const allCall = callsOf<unknown[]>('all');

/** The run() call of statements with `arity` parameters (a loop over one statement takes it once). */
export function runCallOf(arity: number): Call<BetterSqlite3.RunResult> {
  return runCall(arity);
}

export function runWith(statement: BetterSqlite3.Statement, params: readonly unknown[]): BetterSqlite3.RunResult {
  return runCall(params.length)(statement, params);
}

export function getWith(statement: BetterSqlite3.Statement, params: readonly unknown[]): unknown {
  return getCall(params.length)(statement, params);
}

export function allWith(statement: BetterSqlite3.Statement, params: readonly unknown[]): unknown[] {
  return allCall(params.length)(statement, params);
}
