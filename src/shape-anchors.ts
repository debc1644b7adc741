/**
 * Keeps one object of a shape alive, so that V8 keeps the code it optimised for that shape.
 *
 * V8 compiles a hot function against the hidden classes ("maps") of the objects it met there, and
 * holds those maps weakly: a map that no live object has any more dies at the next full garbage
 * collection, and every function compiled against it is thrown away (`node --trace-deopt` prints
 * "marking dependent code … for deoptimization, reason: weak objects"). A unit of work's objects —
 * the unit, its queue's iterator, the entities it wrote — are all garbage once it committed, so
 * an application writing in bursts (a job every minute) paid for compiling the write path again
 * after each full collection: 20,000 SQLite inserts in units of 500 took 1.67 times the raw
 * driver's CPU time after a forced `gc()`, 1.11 times without (bench/tools/sqlite-insert-harness.js).
 * One object of each such class, kept here, keeps its map and the code compiled for it.
 */
const anchors: object[] = [];
const classAnchors = new WeakMap<object, object>();

/** Keeps `instance` (a library object of a hot class, holding nothing of the caller's) for good. */
export function keepShape<T extends object>(instance: T): T {
  anchors.push(instance);
  return instance;
}

/**
 * Keeps one instance of a caller's class as long as the class itself lives: the one the model
 * constructed to read its members' initial values, which has the map later instances start with
 * (a class whose constructor assigns its members; with `declare`d or uninitialised members the
 * constructor's own initial map is already kept by the class). What that constructor stored in it
 * stays alive with the class: one object per entity class, which lifespan made anyway.
 */
export function keepClassShape(target: object, instance: unknown): void {
  if (typeof instance === 'object' && instance !== null && !classAnchors.has(target))
    classAnchors.set(target, instance);
}
