import type { CodeOf, ErrorCode } from './error-codes';

/**
 * One error hierarchy for the whole library. Every error carries a stable `code` (for programs),
 * where it happened (entity, member, store) and what to do about it (for people).
 */
export interface ErrorPlace {
  readonly entity?: string | undefined;
  readonly member?: string | undefined;
  readonly store?: string | undefined;
}

export interface LifespanErrorOptions extends ErrorPlace {
  readonly hint?: string | undefined;
  readonly cause?: unknown;
}

export class LifespanError extends Error {
  readonly code: ErrorCode;
  /** What went wrong, without the place and the hint that `message` adds around it. */
  readonly detail: string;
  readonly entity: string | undefined;
  readonly member: string | undefined;
  readonly store: string | undefined;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: LifespanErrorOptions = {}) {
    super(composeMessage(message, options), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.detail = message;
    this.entity = options.entity;
    this.member = options.member;
    this.store = options.store;
    this.hint = options.hint;
  }
}

function composeMessage(message: string, options: LifespanErrorOptions): string {
  const place = describePlace(options);
  const head = place ? `${place}: ${message}` : message;
  return options.hint ? `${head} — ${options.hint}` : head;
}

export function describePlace(place: ErrorPlace): string {
  const parts: string[] = [];
  if (place.entity) parts.push(place.member ? `${place.entity}.${place.member}` : place.entity);
  else if (place.member) parts.push(place.member);
  if (place.store) parts.push(`[${place.store}]`);
  return parts.join(' ');
}

/** One problem found while building or compiling a model; a ModelError lists all of them. */
export interface ModelProblem extends ErrorPlace {
  readonly code: ErrorCode;
  readonly message: string;
  readonly hint?: string | undefined;
}

export class ModelError extends LifespanError {
  readonly problems: readonly ModelProblem[];

  constructor(problems: readonly ModelProblem[]) {
    const first = problems[0];
    super(first?.code ?? 'MODEL_INVALID', formatProblems(problems));
    this.problems = Object.freeze([...problems]);
  }
}

function formatProblems(problems: readonly ModelProblem[]): string {
  const lines = problems.map((p) => {
    const place = describePlace(p);
    const head = place ? `${place}: ${p.message}` : p.message;
    return `  - ${head}${p.hint ? ` — ${p.hint}` : ''} (${p.code})`;
  });
  const noun = problems.length === 1 ? 'problem' : 'problems';
  return `The model has ${problems.length} ${noun}:\n${lines.join('\n')}`;
}

export class TtlError extends LifespanError {
  readonly value: unknown;

  constructor(code: CodeOf<'TtlError'>, value: unknown, message: string, options: LifespanErrorOptions = {}) {
    super(code, message, options);
    this.value = value;
  }
}

export class UnsupportedTtlError extends LifespanError {
  constructor(code: CodeOf<'UnsupportedTtlError'>, message: string, options: LifespanErrorOptions = {}) {
    super(code, message, options);
  }
}

/** A driver or server failure, with the original error kept as `cause`. */
export class StoreError extends LifespanError {
  constructor(code: CodeOf<'StoreError'>, message: string, options: LifespanErrorOptions = {}) {
    super(code, message, options);
  }
}

/** The error as one problem of a ModelError, read from its fields; `place` fills what it does not name. */
export function problemOf(error: LifespanError, place: ErrorPlace = {}): ModelProblem {
  return {
    code: error.code,
    message: error.detail,
    hint: error.hint,
    entity: error.entity ?? place.entity,
    member: error.member ?? place.member,
    store: error.store ?? place.store,
  };
}

/** Collects problems so one ModelError can report every one of them at once. */
export class ProblemList {
  private readonly items: ModelProblem[] = [];

  add(problem: ModelProblem): void {
    this.items.push(problem);
  }

  get size(): number {
    return this.items.length;
  }

  /** Runs `fn`, turning a thrown TtlError/ModelError into problems instead of stopping. */
  collect<T>(place: ErrorPlace, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (error) {
      if (error instanceof ModelError) {
        error.problems.forEach((p) => this.add(p));
        return undefined;
      }
      if (error instanceof LifespanError) {
        this.add(problemOf(error, place));
        return undefined;
      }
      throw error;
    }
  }

  throwIfAny(): void {
    if (this.items.length > 0) throw new ModelError(this.items);
  }
}
