'use strict';
/**
 * Counts what a piece of code sends to the server, at the driver: `requests` (statements executed:
 * pg Client#query, mysql2 Connection#query/#execute, better-sqlite3 statement runs and exec,
 * cassandra-driver Client#execute/#batch) and `waves` (requests issued while none was in flight:
 * the round trips one after another, which is what a latency-bound plan() pays).
 * Installed only around the counted run, so timed runs pay nothing for it.
 */

function counter() {
  const state = { requests: 0, waves: 0, inFlight: 0 };
  return {
    state,
    start() {
      if (state.inFlight === 0) state.waves++;
      state.requests++;
      state.inFlight++;
    },
    end() {
      state.inFlight--;
    },
  };
}

/** Wraps `proto[name]`; `settle(args, result, done)` calls done() when the request has answered. */
function wrap(proto, name, c, settle, restores) {
  const original = proto[name];
  if (typeof original !== 'function') return;
  const own = Object.prototype.hasOwnProperty.call(proto, name);
  proto[name] = function counted(...args) {
    c.start();
    let ended = false;
    const done = () => {
      if (!ended) {
        ended = true;
        c.end();
      }
    };
    try {
      return settle(args, () => original.apply(this, args), done);
    } catch (error) {
      done();
      throw error;
    }
  };
  restores.push(() => {
    if (own) proto[name] = original;
    else delete proto[name];
  });
}

/** Synchronous calls answer when they return. */
const sync = (_args, call, done) => {
  try {
    return call();
  } finally {
    done();
  }
};

/** A trailing callback, or else a returned promise. */
const callbackOrPromise = (args, call, done) => {
  const last = args.length - 1;
  if (typeof args[last] === 'function') {
    const callback = args[last];
    args[last] = function answered(...results) {
      done();
      return callback.apply(this, results);
    };
    return call();
  }
  const result = call();
  if (result && typeof result.then === 'function') result.then(done, done);
  else done();
  return result;
};

/** Starts counting for `store`; returns { stop() → { requests, waves } }. */
function countRequests(store) {
  const c = counter();
  const restores = [];
  if (store === 'sqlite') {
    const Database = require('better-sqlite3');
    const probe = new Database(':memory:');
    const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
    probe.close();
    for (const m of ['run', 'get', 'all', 'iterate']) wrap(statementProto, m, c, sync, restores);
    wrap(Database.prototype, 'exec', c, sync, restores);
  } else if (store === 'postgres') {
    wrap(require('pg').Client.prototype, 'query', c, callbackOrPromise, restores);
  } else if (store === 'mariadb') {
    const { Connection } = require('mysql2');
    for (const m of ['query', 'execute']) wrap(Connection.prototype, m, c, callbackOrPromise, restores);
  } else if (store === 'cassandra') {
    const { Client } = require('cassandra-driver');
    for (const m of ['execute', 'batch', 'eachRow']) wrap(Client.prototype, m, c, callbackOrPromise, restores);
  }
  return {
    stop() {
      for (const restore of restores.reverse()) restore();
      return { requests: c.state.requests, waves: c.state.waves };
    },
  };
}

module.exports = { countRequests };
