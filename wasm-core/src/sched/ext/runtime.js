// The sched_ext side of a user policy: dispatch queues, the helpers a policy
// calls (sched_ext's kfuncs, as `scx.*`) and the order in which its callbacks
// run. One host evaluates this file, boa (wasm-core/src/sim/ext/host_boa.rs):
// natively in `schedsim`, and in the page inside the policy guest
// (wasm-core/guest/), so both run a policy through identical code. The only
// traffic with the engine is `__scx_call(op, a, b, c, d)` returning a number,
// plus `__scx_init_task`, `__scx_kicks` and `__scx_error`.
//
// Steps: the host gives `__scx_boot` a count and the policy's text
// arrives with a call to it at the head of every function and loop body
// (wasm-core/src/sim/ext/guard.rs); the heavy builtins below charge their
// size to it, and regular expressions are refused.
//
// No clock, no network, no DOM: `scx.now()` is simulated time and
// `scx.random()` the run's seeded source.
var __scx_error = '';
var __scx_call, __scx_init_task, __scx_kicks;
// What a policy threw, as words: an error's message, else the value. A value
// that cannot be read (a Proxy whose traps throw) is said to be one, rather
// than letting the reading throw again.
function __scx_describe(e) {
  try {
    return String(e !== null && typeof e === 'object' && e.message !== undefined ? e.message : e);
  } catch (_) {
    return 'a thrown value that cannot be read (an ' + typeof e + ' whose reading throws)';
  }
}
function __scx_boot(source, nrCpus, seed, count) {
  'use strict';
  var DSQ_GLOBAL = -1;
  var DSQ_LOCAL = -2;
  var LOCAL_ON = 1 << 30;
  var SLICE_DFL = 20000000; // SCX_SLICE_DFL: 20 ms
  var ENQ_WAKEUP = 1, ENQ_PREEMPT = 2, ENQ_REENQ = 4;
  var KICK_IDLE = 1, KICK_PREEMPT = 2;
  var WAKE_FORK = 1, WAKE_TTWU = 2;
  var now = 0;
  var tasks = {};
  var dsqs = {}; // id -> { vtime: bool, q: [task] }
  var idle = [];
  for (var c = 0; c < nrCpus; c++) idle.push(false);
  var kicks = [];
  var curr = []; // per CPU: the running task or null
  for (var c2 = 0; c2 < nrCpus; c2++) curr.push(null);
  // xorshift64* on two 32-bit halves (integers only: the same bits everywhere).
  var rs = [(seed >>> 0) | 1, ((seed / 4294967296) >>> 0) ^ 0x9e3779b9];
  function random() {
    var a = rs[0], b = rs[1];
    a ^= a << 13; a ^= a >>> 17; a ^= a << 5;
    b ^= b << 7; b ^= b >>> 9; b ^= b << 8;
    rs[0] = a >>> 0; rs[1] = b >>> 0;
    return ((rs[0] ^ rs[1]) >>> 0) / 4294967296;
  }
  function localId(cpu) { return LOCAL_ON | cpu; }
  for (var c3 = 0; c3 < nrCpus; c3++) dsqs[localId(c3)] = { vtime: false, q: [] };
  dsqs[DSQ_GLOBAL] = { vtime: false, q: [] };
  function fail(msg) { throw new Error(msg); }
  // A value a callback returned, as a message shows it: a string is named as
  // one (its text quoted, cut short), never coerced to the number it spells;
  // an object is named by its type only (reading it would run its code).
  function shown(v) {
    if (typeof v === 'string') return 'a string, ' + JSON.stringify(v.length > 20 ? v.slice(0, 20) + '...' : v);
    if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
    return 'a value of type ' + typeof v;
  }
  function dsqOf(id) {
    var d = dsqs[id];
    if (!d) fail('dispatch queue ' + id + ' does not exist (create it with scx.create_dsq)');
    return d;
  }
  function unlink(p) {
    if (p.dsq === null) return;
    var q = dsqs[p.dsq].q;
    var i = q.indexOf(p);
    if (i >= 0) q.splice(i, 1);
    p.dsq = null;
  }
  function insertInto(p, id, vtimeOrder) {
    if (!p || tasks[p.pid] !== p) fail('insert of something that is not a task');
    if (p.running) fail('task ' + p.pid + ' is running: it cannot be queued');
    if (!p.queued) fail('task ' + p.pid + ' is not runnable: it cannot be queued');
    var d = dsqOf(id);
    unlink(p);
    if (vtimeOrder) {
      if (id < 0 || id >= LOCAL_ON) fail('built-in queues are FIFO: use scx.dsq_insert for queue ' + id);
      d.vtime = true;
      var i = d.q.length;
      while (i > 0 && d.q[i - 1].dsq_vtime > p.dsq_vtime) i--;
      d.q.splice(i, 0, p);
    } else {
      if (d.vtime) fail('queue ' + id + ' is ordered by vtime: use scx.dsq_insert_vtime');
      d.q.push(p);
    }
    p.dsq = id;
  }
  function allowed(p, cpu) { return p.cpus === null || p.cpus.indexOf(cpu) >= 0; }
  var pending = null; // a direct dispatch from select_cpu: [task, queue]
  var scx = {
    DSQ_GLOBAL: DSQ_GLOBAL, DSQ_LOCAL: DSQ_LOCAL, SLICE_DFL: SLICE_DFL,
    ENQ_WAKEUP: ENQ_WAKEUP, ENQ_PREEMPT: ENQ_PREEMPT, ENQ_REENQ: ENQ_REENQ,
    KICK_IDLE: KICK_IDLE, KICK_PREEMPT: KICK_PREEMPT, WAKE_FORK: WAKE_FORK, WAKE_TTWU: WAKE_TTWU,
    dsq_local_on: function (cpu) { return localId(cpu); },
    nr_cpu_ids: function () { return nrCpus; },
    now: function () { return now; },
    random: random,
    create_dsq: function (id) {
      if (!(id >= 0 && id < LOCAL_ON && id === Math.floor(id))) fail('scx.create_dsq: id must be an integer from 0');
      if (!dsqs[id]) dsqs[id] = { vtime: false, q: [] };
    },
    dsq_nr_queued: function (id) {
      if (id === DSQ_LOCAL) fail('scx.dsq_nr_queued: name the CPU with scx.dsq_local_on');
      return dsqOf(id).q.length;
    },
    dsq_insert: function (p, id, slice, flags) {
      p.slice = slice === undefined ? SLICE_DFL : slice;
      // From select_cpu: the task is queued there when it is enqueued (direct dispatch).
      if (p.selecting) { pending = [p, id]; return; }
      if (id === DSQ_LOCAL) id = localId(p.cpu);
      insertInto(p, id, false);
    },
    dsq_insert_vtime: function (p, id, slice, vtime, flags) {
      p.slice = slice === undefined ? SLICE_DFL : slice;
      p.dsq_vtime = vtime;
      insertInto(p, id, true);
    },
    dsq_move_to_local: function (id) {
      if (dispatching < 0) fail('scx.dsq_move_to_local: only from dispatch()');
      var d = dsqOf(id);
      for (var i = 0; i < d.q.length; i++) {
        if (allowed(d.q[i], dispatching)) { insertInto(d.q[i], localId(dispatching), false); return true; }
      }
      return false;
    },
    kick_cpu: function (cpu, flags) {
      if (!(cpu >= 0 && cpu < nrCpus)) fail('scx.kick_cpu: no CPU ' + cpu);
      // A CPU kicked again before the engine takes the kicks is kicked once
      // (preempting if any kick asked to), as the kernel's kick is a flag.
      var pre = flags & KICK_PREEMPT ? 1 : 0;
      for (var k = 0; k < kicks.length; k += 2) {
        if (kicks[k] === cpu) { kicks[k + 1] |= pre; return; }
      }
      kicks.push(cpu, pre);
    },
    test_and_clear_cpu_idle: function (cpu) {
      var was = idle[cpu] === true;
      idle[cpu] = false;
      return was;
    },
    pick_idle_cpu: function (p) {
      for (var i = 0; i < nrCpus; i++) if (idle[i] && allowed(p, i)) { idle[i] = false; return i; }
      return -1;
    },
    cpu_curr: function (cpu) { return curr[cpu]; },
    task_running: function (p) { return p.running; },
    allowed: allowed,
  };
  // The policy runs in strict mode (a misspelt variable is an error, not a new
  // global), and the names of the host's clock, network, storage and globals
  // are parameters bound to stand-ins that fail when touched: determinism
  // needs no clock and no outside world. `Math` is a copy without `random` (the run's source is
  // `scx.random()`). A guard rail for students, not a sandbox: the page also
  // takes the network and storage away from its engine worker.
  var hidden = ['Date', 'performance', 'setTimeout', 'setInterval', 'queueMicrotask', 'fetch', 'XMLHttpRequest',
    'WebSocket', 'importScripts', 'postMessage', 'self', 'globalThis', 'window', 'document', 'navigator', 'location',
    'indexedDB', 'caches', 'crypto'];
  // Each hidden name is a stand-in that says what it is at the first touch.
  function absent(name) {
    var no = function () {
      fail(name + ' is not available to a policy: no clock, network or page (time is scx.now(), chance scx.random())');
    };
    return new Proxy(no, { get: no, apply: no, construct: no, set: no });
  }
  var math = {};
  Object.getOwnPropertyNames(Math).forEach(function (k) { math[k] = Math[k]; });
  math.random = function () { fail('Math.random is not repeatable: use scx.random(), the run\'s seeded source'); };
  hidden.push('RegExp');
  limitBuiltins(count, fail);
  var proxy = boundedProxy(fail);
  var ops = Function.apply(null, ['scx', 'Math', '__scx_step', 'Proxy'].concat(hidden, ["'use strict';" + source + '\n;return {' +
    ['select_cpu', 'enqueue', 'dequeue', 'dispatch', 'runnable', 'running', 'stopping', 'quiescent', 'tick',
      'init_task', 'exit_task', 'init'].map(function (n) { return n + ': typeof ' + n + " === 'function' ? " + n + ' : null'; }).join(',') +
    '};'])).apply(null, [scx, math, count, proxy].concat(hidden.map(absent)));
  var dispatching = -1;
  if (ops.init) {
    try {
      ops.init();
    } catch (e) {
      // The host words an Error; anything else thrown is said as words here (a Proxy's own words may throw).
      var isError = false;
      try { isError = e instanceof Error; } catch (_) { /* a Proxy whose getPrototypeOf throws */ }
      throw isError ? e : new Error('init: ' + __scx_describe(e));
    }
  }

  function enqueue(p, flags) {
    if (pending !== null && pending[0] === p) {
      var id = pending[1];
      pending = null;
      insertInto(p, id === DSQ_LOCAL ? localId(p.cpu) : id, false);
    } else if (ops.enqueue) {
      ops.enqueue(p, flags);
    } else {
      scx.dsq_insert(p, DSQ_GLOBAL, SLICE_DFL, flags);
    }
  }
  // Picks for `cpu`: its local queue, else what dispatch() moves there, else
  // the global queue (as sched_ext consumes SCX_DSQ_GLOBAL last).
  function pick(cpu) {
    var local = dsqs[localId(cpu)].q;
    if (local.length === 0 && ops.dispatch) {
      dispatching = cpu;
      try { ops.dispatch(cpu, curr[cpu]); } finally { dispatching = -1; }
    }
    if (local.length === 0) {
      var g = dsqs[DSQ_GLOBAL].q;
      for (var i = 0; i < g.length; i++) if (allowed(g[i], cpu)) { insertInto(g[i], localId(cpu), false); break; }
    }
    // A task on a local queue it may not run on goes to the global queue.
    while (local.length > 0 && !allowed(local[0], cpu)) insertInto(local[0], DSQ_GLOBAL, false);
    if (local.length === 0) return -1;
    var p = local[0];
    unlink(p);
    p.cpu = cpu;
    p.running = true;
    curr[cpu] = p;
    if (p.slice <= 0) p.slice = SLICE_DFL;
    idle[cpu] = false;
    if (ops.running) ops.running(p);
    return p.pid;
  }
  var OPS = {
    1: function (t, pid, prev, flags) { // SELECT_CPU
      now = t;
      var p = tasks[pid];
      if (!ops.select_cpu) { // scx_select_cpu_dfl: the previous CPU if idle, else any idle CPU
        var dfl = scx.test_and_clear_cpu_idle(prev) ? prev : scx.pick_idle_cpu(p);
        p.cpu = dfl >= 0 ? dfl : prev;
        return p.cpu;
      }
      p.selecting = true;
      try { var cpu = ops.select_cpu(p, prev, flags); } finally { p.selecting = false; }
      if (typeof cpu !== 'number' || !(cpu >= 0 && cpu < nrCpus) || cpu !== Math.floor(cpu)) {
        fail('select_cpu returned ' + shown(cpu) + ', not a CPU (an integer from 0 to ' + (nrCpus - 1) + ')');
      }
      p.cpu = cpu;
      return cpu;
    },
    2: function (t, pid, cpu, flags) { // ENQUEUE (flags: 1 wakeup, 4 re-enqueue of the running task)
      now = t;
      var p = tasks[pid];
      p.cpu = cpu;
      p.queued = true;
      if (!(flags & ENQ_REENQ) && ops.runnable) ops.runnable(p, flags);
      enqueue(p, flags);
      return 0;
    },
    3: function (t, pid, sleeping, wasCurr) { // DEQUEUE
      now = t;
      var p = tasks[pid];
      if (wasCurr) { p.running = false; curr[p.cpu] = null; if (ops.stopping) ops.stopping(p, false); }
      var queued = p.dsq !== null;
      unlink(p);
      p.queued = false;
      if (pending !== null && pending[0] === p) pending = null;
      if (!queued && !wasCurr && ops.dequeue) ops.dequeue(p, sleeping ? 1 : 0);
      if (sleeping && ops.quiescent) ops.quiescent(p, 1);
      return 0;
    },
    4: function (t, cpu) { now = t; return pick(cpu); }, // PICK
    5: function (t, pid, ran) { // PUT_PREV of a task still runnable: it is enqueued again
      now = t;
      var p = tasks[pid];
      p.running = false;
      curr[p.cpu] = null;
      if (ops.stopping) ops.stopping(p, true);
      enqueue(p, ENQ_REENQ);
      return 0;
    },
    6: function (t, pid, ran) { // TICK: charge `ran` ns of slice; 1 = the slice is used up
      now = t;
      var p = tasks[pid];
      p.slice = Math.max(0, p.slice - ran);
      if (ops.tick) ops.tick(p);
      return p.slice <= 0 ? 1 : 0;
    },
    7: function (t, cpu, isIdle) { now = t; idle[cpu] = isIdle === 1; return 0; }, // UPDATE_IDLE
    8: function (t, pid) { // EXIT_TASK
      now = t;
      var p = tasks[pid];
      unlink(p);
      if (ops.exit_task) ops.exit_task(p);
      delete tasks[pid];
      return 0;
    },
    9: function (t, pid) { now = t; tasks[pid].slice = 0; return 0; }, // YIELD (and a preempting kick)
  };
  __scx_call = function (op, a, b, c, d) {
    try {
      return OPS[op](a, b, c, d);
    } catch (e) {
      __scx_error = __scx_describe(e);
      return NaN;
    }
  };
  __scx_init_task = function (t, pid, weight, nice, cpuList) {
    try {
      now = t;
      var cpus = cpuList === '' ? null : cpuList.split(',').map(Number);
      var p = { pid: pid, weight: weight, nice: nice, cpus: cpus, cpu: 0, slice: 0, dsq_vtime: 0, dsq: null,
        running: false, selecting: false, queued: false };
      tasks[pid] = p;
      if (ops.init_task) ops.init_task(p);
      return 0;
    } catch (e) {
      __scx_error = __scx_describe(e);
      return NaN;
    }
  };
  __scx_kicks = function () {
    var k = kicks.join(',');
    kicks = [];
    return k;
  };
}

// Builtins charge the policy's count by the size they go over (or
// make), so that a loop of cheap-looking calls (`a.indexOf` on a long array,
// `'x'.repeat(n)`) is bounded like the loop itself; a chain of `bind` goes at
// most 1,000 deep (calling one recurses in the engine).
function limitBuiltins(count, fail) {
  'use strict';
  var rapply = Reflect.apply;
  var define = Object.defineProperty;
  function len(v) {
    var n = v === null || v === undefined ? 0 : Number(v.length);
    return n >= 0 ? n : 0;
  }
  function wrap(obj, names, before, after) {
    names.forEach(function (n) {
      var f = obj[n];
      if (typeof f !== 'function') return;
      define(obj, n, { writable: true, enumerable: false, configurable: true, value: function () {
        count(1 + (before ? before(this, arguments) : 0));
        var r = rapply(f, this, arguments);
        if (after) count(1 + after(r));
        return r;
      } });
    });
  }
  function self(t) { return len(t); }
  wrap(Array.prototype, ['fill', 'indexOf', 'lastIndexOf', 'includes', 'join', 'toString', 'toLocaleString',
    'reverse', 'slice', 'splice', 'copyWithin', 'flat', 'flatMap', 'forEach', 'map', 'filter', 'reduce',
    'reduceRight', 'every', 'some', 'find', 'findIndex', 'findLast', 'findLastIndex', 'shift', 'unshift',
    'toReversed', 'toSorted', 'toSpliced', 'with'], self);
  wrap(Array.prototype, ['sort'], function (t) { var n = len(t); return n * Math.ceil(Math.log2(n + 1)); });
  wrap(Array.prototype, ['concat'], function (t, a) {
    var n = len(t);
    for (var i = 0; i < a.length; i++) n += len(a[i]);
    return n;
  });
  wrap(Array.prototype, ['push'], function (t, a) { return a.length; });
  wrap(Array, ['from', 'of'], null, len);
  wrap(String.prototype, ['indexOf', 'lastIndexOf', 'includes', 'startsWith', 'endsWith', 'split', 'replace',
    'replaceAll', 'concat', 'slice', 'substring', 'substr', 'toUpperCase', 'toLowerCase', 'toLocaleUpperCase',
    'toLocaleLowerCase', 'trim', 'trimStart', 'trimEnd', 'normalize', 'localeCompare'], self, len);
  wrap(String.prototype, ['repeat'], function (t, a) { return len(String(t)) * (Number(a[0]) || 0); });
  wrap(String.prototype, ['padStart', 'padEnd'], function (t, a) { return Number(a[0]) || 0; });
  wrap(String, ['fromCharCode', 'fromCodePoint'], function (t, a) { return a.length; });
  wrap(Object, ['keys', 'values', 'entries', 'getOwnPropertyNames', 'getOwnPropertySymbols'], null, len);
  wrap(Object, ['assign'], function (t, a) {
    var n = 0;
    for (var i = 1; i < a.length; i++) n += a[i] && typeof a[i] === 'object' ? len(Object.keys(a[i])) : 0;
    return n;
  });
  wrap(Reflect, ['ownKeys'], null, len);
  wrap(JSON, ['parse'], function (t, a) { return len(String(a[0])); });
  wrap(JSON, ['stringify'], null, len);
  wrap(Function.prototype, ['apply'], function (t, a) { return len(a[1]); });
  wrap(Reflect, ['apply', 'construct'], function (t, a) { return len(a[1]); });
  // A promise's jobs never run natively; each still makes records.
  wrap(Promise.prototype, ['then', 'catch', 'finally'], function () { return 100; });
  wrap(Promise, ['resolve', 'reject', 'all', 'allSettled', 'any', 'race'], function (t, a) { return 100 + len(a[0]); });
  ['match', 'matchAll', 'search'].forEach(function (n) {
    define(String.prototype, n, { writable: true, enumerable: false, configurable: true, value: function () {
      fail('String.prototype.' + n + ' builds a regular expression, which a policy may not use');
    } });
  });
  var depth = new WeakMap();
  var bind = Function.prototype.bind;
  define(Function.prototype, 'bind', { writable: true, enumerable: false, configurable: true, value: function () {
    var d = (depth.get(this) || 0) + 1;
    if (d > 1000) fail('a chain of bind went past 1000 functions');
    count(1 + arguments.length);
    var b = rapply(bind, this, arguments);
    depth.set(b, d);
    return b;
  } });
}
// A Proxy whose target is a Proxy counts one deeper; past 1,000 it is
// refused (reading through a chain recurses in the engine).
function boundedProxy(fail) {
  'use strict';
  var Real = Proxy;
  var depth = new WeakMap();
  function make(target, handler) {
    var d = (target !== null && typeof target === 'object' || typeof target === 'function' ? depth.get(target) || 0 : 0) + 1;
    if (d > 1000) fail('a chain of Proxy went past 1000 objects');
    var p = new Real(target, handler);
    depth.set(p, d);
    return p;
  }
  var P = function Proxy(target, handler) {
    if (new.target === undefined) fail('Proxy must be called with new');
    return make(target, handler);
  };
  P.revocable = function (target, handler) {
    var r = Real.revocable(target, handler);
    var d = (typeof target === 'object' && target !== null || typeof target === 'function' ? depth.get(target) || 0 : 0) + 1;
    if (d > 1000) fail('a chain of Proxy went past 1000 objects');
    depth.set(r.proxy, d);
    return r;
  };
  return P;
}
