/* _wcp_probe._fastlaunch: the launch counter of counter.py in C (docs/instrumentation.md, "The
 * launch counter"). A launch is on the program's hot path: in Python the count cost 1-3 us on top
 * of Warp's 5-25 us on the development machine, because every step is bytecode.
 *
 * Four types, all thin:
 * - State, the base of the Launches object: its hot fields (lock, last_key, total, open_n,
 *   capturing) are struct members, read here without an attribute lookup and by Python as
 *   attributes; it also counts a replay of the Launch object replayed last (count_cmd_repeat).
 * - Lock wraps the probe's RLock and keeps how often its holder took it, so that an identical
 *   launch, which runs no Python code, is counted without taking it while nobody holds it (the
 *   GIL makes that count atomic).
 * - Counter.count() is counter.py's PyCounter.count(): the same arguments, answer and protocol on
 *   the State (the lock, new_signature, maybe_snapshot).
 * - Forwarder is the wp.launch_tiled wrapper: a (*args, **kwargs) call forwarded without a Python
 *   frame (through vectorcall where the interpreter exports it), then counted.
 * Anything unusual answers False (the Forwarder calls the Python callable it was given): Python
 * then takes the general path.
 *
 * Built on the limited API of CPython 3.10 (abi3): one file serves every CPython 3.10+ a program
 * may use; any other interpreter gets the Python counter. */
#define Py_LIMITED_API 0x030A0000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <structmember.h>

/* Py_XSETREF is not in the limited API. */
#define SET_REF(field, value) \
  do {                        \
    PyObject* old_ = (field); \
    (field) = (value);        \
    Py_XDECREF(old_);         \
  } while (0)

/* ---- the Launches object's base --------------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  /* The objects are T_OBJECT_EX members (never NULL after new), the only kind Python's attribute
   * specialisation takes; the counts are C integers: the counter adds to them in place, and only
   * the record's slower paths read them from Python. */
  PyObject* lock;     /* the probe's RLock */
  PyObject* last_key; /* the key of the launch counted last */
  Py_ssize_t total, open_n, capturing;
  /* The Launch object replayed last (a weak reference), the device and bounds its key was built
   * for, and that key: a replay of it while the key is last_key is counted here (count_cmd_repeat). */
  PyObject *cmd_ref, *cmd_device, *cmd_bounds, *cmd_key;
} State;

/* The attribute names a replay reads, interned at import. */
static PyObject *name_device, *name_bounds;

/* The statics: the types, so that a Counter can check that its state is a State and find a Lock,
 * and a Forwarder that its counter is a Counter (a single-phase module, loaded once per
 * interpreter). */
static PyObject *state_type, *counter_type, *lock_type, *forwarder_type;

static int state_traverse(State* self, visitproc visit, void* arg) {
  Py_VISIT(self->lock);
  Py_VISIT(self->last_key);
  Py_VISIT(self->cmd_ref);
  Py_VISIT(self->cmd_device);
  Py_VISIT(self->cmd_bounds);
  Py_VISIT(self->cmd_key);
  return 0;
}

static void state_forget_cmd(State* self) {
  Py_CLEAR(self->cmd_ref);
  Py_CLEAR(self->cmd_device);
  Py_CLEAR(self->cmd_bounds);
  Py_CLEAR(self->cmd_key);
}

static int state_clear(State* self) {
  Py_CLEAR(self->lock);
  Py_CLEAR(self->last_key);
  state_forget_cmd(self);
  return 0;
}

static PyObject* state_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  State* self = (State*)PyType_GenericNew(type, args, kwargs);
  if (self == NULL) return NULL;
  Py_INCREF(Py_None);
  self->lock = Py_None;
  Py_INCREF(Py_None);
  self->last_key = Py_None;
  return (PyObject*)self;
}

static void state_dealloc(State* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  state_clear(self);
  freefunc free = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free(self);
  Py_DECREF(type);
}

static PyObject* state_count_repeat(State* self, PyObject* key);
static PyObject* state_count_cmd_repeat(State* self, PyObject* cmd);
static PyObject* state_cache_cmd_repeat(State* self, PyObject* const* args, Py_ssize_t nargs);

static PyMethodDef state_methods[] = {
    {"count_repeat", (PyCFunction)state_count_repeat, METH_O,
     "count_repeat(key) -> bool: True when a launch whose key is last_key was counted without the lock."},
    {"count_cmd_repeat", (PyCFunction)state_count_cmd_repeat, METH_O,
     "count_cmd_repeat(cmd) -> bool: True when a replay of the cached Launch, unchanged, was counted without the "
     "lock."},
    {"cache_cmd_repeat", (PyCFunction)(void (*)(void))state_cache_cmd_repeat, METH_FASTCALL,
     "cache_cmd_repeat(cmd, device, bounds, key): the replay count_cmd_repeat counts while key is last_key."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef state_members[] = {
    {"lock", T_OBJECT_EX, offsetof(State, lock), 0, NULL},
    {"last_key", T_OBJECT_EX, offsetof(State, last_key), 0, NULL},
    {"total", T_PYSSIZET, offsetof(State, total), 0, NULL},
    {"open_n", T_PYSSIZET, offsetof(State, open_n), 0, NULL},
    {"capturing", T_PYSSIZET, offsetof(State, capturing), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot state_slots[] = {
    {Py_tp_doc, "The launch record's hot fields, as attributes (the base of launches.py's Launches)."},
    {Py_tp_new, state_new},
    {Py_tp_dealloc, state_dealloc},
    {Py_tp_traverse, state_traverse},
    {Py_tp_clear, state_clear},
    {Py_tp_members, state_members},
    {Py_tp_methods, state_methods},
    {0, NULL},
};

static PyType_Spec state_spec = {"_wcp_probe._fastlaunch.State", sizeof(State), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE, state_slots};

/* ---- the probe's lock ---------------------------------------------------------------------------- */

/* Lock(rlock): acquire/release/with forwarded to a threading.RLock, with its depth (how many
 * times its holder took it) kept here. The depth changes only while the RLock and the GIL are
 * held, so a reader holding the GIL sees 0 only when no thread is inside a locked section (a
 * thread that has just taken the RLock without the GIL runs no Python code until it has the GIL
 * back, and counts itself in first). */
typedef struct {
  PyObject_HEAD
  PyObject *inner, *inner_acquire, *inner_release;
  Py_ssize_t depth;
} Lock;

static int lock_traverse(Lock* self, visitproc visit, void* arg) {
  Py_VISIT(self->inner);
  Py_VISIT(self->inner_acquire);
  Py_VISIT(self->inner_release);
  return 0;
}

static int lock_clear(Lock* self) {
  Py_CLEAR(self->inner);
  Py_CLEAR(self->inner_acquire);
  Py_CLEAR(self->inner_release);
  return 0;
}

static void lock_dealloc(Lock* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  lock_clear(self);
  freefunc free = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free(self);
  Py_DECREF(type);
}

static int lock_init(Lock* self, PyObject* args, PyObject* kwargs) {
  PyObject* inner;
  if (kwargs != NULL && PyDict_Size(kwargs) != 0) {
    PyErr_SetString(PyExc_TypeError, "Lock() takes one positional argument");
    return -1;
  }
  if (!PyArg_UnpackTuple(args, "Lock", 1, 1, &inner)) return -1;
  PyObject* acquire = PyObject_GetAttrString(inner, "acquire");
  PyObject* release = acquire == NULL ? NULL : PyObject_GetAttrString(inner, "release");
  if (release == NULL) {
    Py_XDECREF(acquire);
    return -1;
  }
  lock_clear(self);
  Py_INCREF(inner);
  self->inner = inner;
  self->inner_acquire = acquire;
  self->inner_release = release;
  self->depth = 0;
  return 0;
}

/* Whether __init__ ran (and the garbage collector has not cleared it): else an error. */
static int lock_ready(Lock* self) {
  if (self->inner_acquire != NULL && self->inner_release != NULL) return 1;
  PyErr_SetString(PyExc_RuntimeError, "Lock is not initialised");
  return 0;
}

static PyObject* lock_acquire(Lock* self, PyObject* args, PyObject* kwargs) {
  if (!lock_ready(self)) return NULL;
  PyObject* taken = PyObject_Call(self->inner_acquire, args, kwargs);
  if (taken == NULL) return NULL;
  int is_taken = PyObject_IsTrue(taken);
  if (is_taken < 0) {
    Py_DECREF(taken);
    return NULL;
  }
  if (is_taken) ++self->depth;
  return taken;
}

static PyObject* lock_release(Lock* self, PyObject* unused) {
  (void)unused;
  if (!lock_ready(self)) return NULL;
  PyObject* done = PyObject_CallObject(self->inner_release, NULL);
  if (done == NULL) return NULL; /* not held by this thread: the RLock's own error */
  if (self->depth > 0) --self->depth;
  return done;
}

static PyObject* lock_enter(Lock* self, PyObject* unused) {
  (void)unused;
  PyObject* no_args = PyTuple_New(0);
  if (no_args == NULL) return NULL;
  PyObject* taken = lock_acquire(self, no_args, NULL);
  Py_DECREF(no_args);
  return taken;
}

static PyObject* lock_exit(Lock* self, PyObject* args) {
  (void)args;
  PyObject* done = lock_release(self, NULL);
  if (done == NULL) return NULL;
  Py_DECREF(done);
  Py_RETURN_FALSE;
}

static PyObject* lock_held(Lock* self, PyObject* unused) {
  (void)unused;
  return PyLong_FromSsize_t(self->depth);
}

static PyMethodDef lock_methods[] = {
    {"acquire", (PyCFunction)(void (*)(void))lock_acquire, METH_VARARGS | METH_KEYWORDS, "As RLock.acquire."},
    {"release", (PyCFunction)lock_release, METH_NOARGS, "As RLock.release."},
    {"__enter__", (PyCFunction)lock_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)lock_exit, METH_VARARGS, NULL},
    {"depth", (PyCFunction)lock_held, METH_NOARGS, "How many times its holder took it (0: free)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot lock_slots[] = {
    {Py_tp_doc, "The probe's RLock, its holder kept in view of the launch counter."},
    {Py_tp_init, lock_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, lock_dealloc},
    {Py_tp_traverse, lock_traverse},
    {Py_tp_clear, lock_clear},
    {Py_tp_methods, lock_methods},
    {0, NULL},
};

static PyType_Spec lock_spec = {"_wcp_probe._fastlaunch.Lock", sizeof(Lock), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
                                lock_slots};

/* ---- the launch counter ---------------------------------------------------------------------- */

/* The attribute names, interned once per counter. */
typedef struct {
  PyObject *runtime, *tape, *default_device, *device, *dtype, *maybe_snapshot, *new_signature, *acquire, *release;
} Names;

static int names_init(Names* n) {
#define INTERN(field) ((n->field = PyUnicode_InternFromString(#field)) != NULL)
  return INTERN(runtime) && INTERN(tape) && INTERN(default_device) && INTERN(device) && INTERN(dtype) &&
                 INTERN(maybe_snapshot) && INTERN(new_signature) && INTERN(acquire) && INTERN(release)
             ? 0
             : -1;
#undef INTERN
}

static void names_clear(Names* n) {
  PyObject** fields[] = {&n->runtime,        &n->tape,          &n->default_device, &n->device, &n->dtype,
                         &n->maybe_snapshot, &n->new_signature, &n->acquire,        &n->release};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) Py_CLEAR(*fields[i]);
}

enum { NO_DTYPE_TYPES = 4 };

typedef struct {
  PyObject_HEAD
  State* state;                /* the Launches object */
  PyObject* ctx;               /* Warp's context module (its runtime) */
  PyObject* ctx_dict;          /* its namespace, where it is a module: runtime is read there */
  PyObject* default_block_dim; /* what launch() defaults block_dim to: recorded as None */
  PyObject* tiled_threads;     /* dict: threads inside launch_tiled's fallback */
  PyObject* entry;             /* "launch" or "launch_tiled" */
  int is_launch;               /* wp.launch: a tape, and launch_tiled's fallback, take the general path */
  Names names;
  /* The previous launch this counter counted, valid while state.last_key is l_key. The kernel is
   * kept by id only, as Python keeps it: a kernel that dies resets last_key first. */
  PyObject* l_key;
  uintptr_t l_kid;
  PyObject *l_dim, *l_dev, *l_dtypes, *l_block_dim, *l_adjoint;
  /* state.lock's bound methods, looked up again when the lock is replaced (fork, exit). */
  PyObject *lock, *lock_acquire, *lock_release;
  /* Types whose instances had no dtype (a struct): asked with builtins.getattr and a default,
   * which does not build the AttributeError that a plain lookup raises and formats. */
  PyObject* no_dtype[NO_DTYPE_TYPES];
  int no_dtype_next;
  PyObject* getattr;
} Counter;

static void counter_forget(Counter* self) {
  Py_CLEAR(self->l_key);
  Py_CLEAR(self->l_dim);
  Py_CLEAR(self->l_dev);
  Py_CLEAR(self->l_dtypes);
  Py_CLEAR(self->l_block_dim);
  Py_CLEAR(self->l_adjoint);
}

static int counter_traverse(Counter* self, visitproc visit, void* arg) {
  Py_VISIT((PyObject*)self->state);
  Py_VISIT(self->ctx);
  Py_VISIT(self->ctx_dict);
  Py_VISIT(self->default_block_dim);
  Py_VISIT(self->tiled_threads);
  Py_VISIT(self->l_key);
  Py_VISIT(self->l_dim);
  Py_VISIT(self->l_dev);
  Py_VISIT(self->l_dtypes);
  Py_VISIT(self->l_block_dim);
  Py_VISIT(self->l_adjoint);
  Py_VISIT(self->lock);
  Py_VISIT(self->lock_acquire);
  Py_VISIT(self->lock_release);
  for (int i = 0; i < NO_DTYPE_TYPES; ++i) Py_VISIT(self->no_dtype[i]);
  Py_VISIT(self->getattr);
  return 0;
}

static int counter_clear(Counter* self) {
  Py_CLEAR(self->state);
  Py_CLEAR(self->ctx);
  Py_CLEAR(self->ctx_dict);
  Py_CLEAR(self->default_block_dim);
  Py_CLEAR(self->tiled_threads);
  Py_CLEAR(self->entry);
  counter_forget(self);
  Py_CLEAR(self->lock);
  Py_CLEAR(self->lock_acquire);
  Py_CLEAR(self->lock_release);
  for (int i = 0; i < NO_DTYPE_TYPES; ++i) Py_CLEAR(self->no_dtype[i]);
  Py_CLEAR(self->getattr);
  names_clear(&self->names);
  return 0;
}

static void counter_dealloc(Counter* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  counter_clear(self);
  freefunc free = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free(self);
  Py_DECREF(type);
}

/* Counter(state, ctx, default_block_dim, tiled_threads, entry, is_launch) */
static int counter_init(Counter* self, PyObject* args, PyObject* kwargs) {
  PyObject *state, *ctx, *default_block_dim, *tiled_threads, *entry;
  int is_launch;
  if (kwargs != NULL && PyDict_Size(kwargs) != 0) {
    PyErr_SetString(PyExc_TypeError, "Counter() takes positional arguments only");
    return -1;
  }
  if (!PyArg_ParseTuple(args, "OOOO!Up:Counter", &state, &ctx, &default_block_dim, &PyDict_Type, &tiled_threads, &entry,
                        &is_launch))
    return -1;
  int is_state = PyObject_IsInstance(state, state_type);
  if (is_state <= 0) {
    if (is_state == 0) PyErr_SetString(PyExc_TypeError, "Counter(): state must be a _fastlaunch.State");
    return -1;
  }
  counter_clear(self);
  if (names_init(&self->names) < 0) return -1;
  PyObject* builtins = PyImport_ImportModule("builtins");
  self->getattr = builtins == NULL ? NULL : PyObject_GetAttrString(builtins, "getattr");
  Py_XDECREF(builtins);
  if (self->getattr == NULL) return -1;
  Py_INCREF(state);
  self->state = (State*)state;
  Py_INCREF(ctx);
  self->ctx = ctx;
  if (PyModule_Check(ctx)) {
    self->ctx_dict = PyModule_GetDict(ctx); /* borrowed */
    Py_XINCREF(self->ctx_dict);
  }
  Py_INCREF(default_block_dim);
  self->default_block_dim = default_block_dim;
  Py_INCREF(tiled_threads);
  self->tiled_threads = tiled_threads;
  Py_INCREF(entry);
  self->entry = entry;
  self->is_launch = is_launch;
  return 0;
}

static int same(PyObject* a, PyObject* b);

/* The dtype of one launch argument, as getattr(arg, "dtype", None): a new reference, or NULL with
 * an error other than AttributeError. Python scalars have none: skip the failed lookup. */
static PyObject* dtype_of(Counter* self, PyObject* arg) {
  if (arg == Py_None || PyFloat_CheckExact(arg) || PyLong_CheckExact(arg) || PyBool_Check(arg)) {
    Py_INCREF(Py_None);
    return Py_None;
  }
  PyObject* type = (PyObject*)Py_TYPE(arg);
  for (int i = 0; i < NO_DTYPE_TYPES; ++i) {
    if (self->no_dtype[i] == type) {
      return PyObject_CallFunctionObjArgs(self->getattr, arg, self->names.dtype, Py_None, NULL);
    }
  }
  PyObject* dtype = PyObject_GetAttr(arg, self->names.dtype);
  if (dtype == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    Py_INCREF(type);
    SET_REF(self->no_dtype[self->no_dtype_next], type);
    self->no_dtype_next = (self->no_dtype_next + 1) % NO_DTYPE_TYPES;
    Py_INCREF(Py_None);
    dtype = Py_None;
  }
  return dtype;
}

/* The dtype of the i-th of n inputs then m outputs (each a list or tuple), as dtype_of. The
 * argument is held while its dtype is read: a dtype property could change the list. */
static PyObject* dtype_at(Counter* self, PyObject* inputs, Py_ssize_t n, PyObject* outputs, Py_ssize_t i) {
  PyObject* seq = i < n ? inputs : outputs;
  Py_ssize_t at = i < n ? i : i - n;
  PyObject* arg = PyList_CheckExact(seq) ? PyList_GetItem(seq, at) : PyTuple_GetItem(seq, at);
  if (arg == NULL) return NULL; /* IndexError: the list shrank */
  Py_INCREF(arg);
  PyObject* dtype = dtype_of(self, arg);
  Py_DECREF(arg);
  return dtype;
}

/* The number of items of a list or tuple, or -1 for anything else (no error set). */
static Py_ssize_t items(PyObject* seq) {
  if (PyList_CheckExact(seq)) return PyList_Size(seq);
  if (PyTuple_CheckExact(seq)) return PyTuple_Size(seq);
  return -1;
}

/* Whether every argument's dtype is the one in `expected` (launch_dtypes' form), read without
 * building the tuple: 1 yes, 0 no, -1 on error. The arguments are lists or tuples. */
static int dtypes_match(Counter* self, PyObject* inputs, PyObject* outputs, PyObject* expected) {
  Py_ssize_t n = items(inputs), m = items(outputs);
  if (m == 0 && n == 1) {
    PyObject* dtype = dtype_at(self, inputs, n, outputs, 0);
    int equal = dtype == NULL ? -1 : same(dtype, expected);
    Py_XDECREF(dtype);
    return equal;
  }
  if (!PyTuple_CheckExact(expected) || PyTuple_Size(expected) != n + m) return 0;
  for (Py_ssize_t i = 0; i < n + m; ++i) {
    PyObject* dtype = dtype_at(self, inputs, n, outputs, i);
    int equal = dtype == NULL ? -1 : same(dtype, PyTuple_GetItem(expected, i));
    Py_XDECREF(dtype);
    if (equal != 1) return equal;
  }
  return 1;
}

/* Every argument's dtype, inputs then outputs, as a tuple; a lone input's bare (as launches.py
 * has it). The arguments are lists or tuples. */
static PyObject* launch_dtypes(Counter* self, PyObject* inputs, PyObject* outputs) {
  Py_ssize_t n = items(inputs), m = items(outputs);
  if (m == 0 && n == 1) return dtype_at(self, inputs, n, outputs, 0);
  PyObject* dtypes = PyTuple_New(n + m);
  if (dtypes == NULL) return NULL;
  for (Py_ssize_t i = 0; i < n + m; ++i) {
    PyObject* dtype = dtype_at(self, inputs, n, outputs, i);
    if (dtype == NULL) {
      Py_DECREF(dtypes);
      return NULL;
    }
    PyTuple_SetItem(dtypes, i, dtype); /* steals */
  }
  return dtypes;
}

/* 1 when equal, 0 when not, -1 on error; identity first, as Python's == on containers does. */
static int same(PyObject* a, PyObject* b) {
  if (a == b) return 1;
  if (a == NULL || b == NULL) return 0;
  return PyObject_RichCompareBool(a, b, Py_EQ);
}

/* A device named by a string equal to the previous one's but not the same object (built per
 * call, f"cuda:{i}") is the same device; any other device compares by identity. */
static int same_device(PyObject* dev, PyObject* previous) {
  if (dev == previous) return 1;
  if (previous == NULL || !PyUnicode_CheckExact(dev)) return 0;
  return PyObject_RichCompareBool(dev, previous, Py_EQ);
}

/* Equal without running Python code: identity, or exact ints and strings, or tuples of those;
 * 0 also means "cannot tell here". */
static int plainly_same(PyObject* a, PyObject* b) {
  if (a == b) return 1;
  if (a == NULL || b == NULL || Py_TYPE(a) != Py_TYPE(b)) return 0;
  if (PyLong_CheckExact(a) || PyUnicode_CheckExact(a)) return PyObject_RichCompareBool(a, b, Py_EQ) == 1;
  if (!PyTuple_CheckExact(a) || PyTuple_Size(a) != PyTuple_Size(b)) return 0;
  for (Py_ssize_t i = 0; i < PyTuple_Size(a); ++i) {
    PyObject *x = PyTuple_GetItem(a, i), *y = PyTuple_GetItem(b, i);
    if (x != y && !((PyLong_CheckExact(x) || PyUnicode_CheckExact(x)) && Py_TYPE(x) == Py_TYPE(y) &&
                    PyObject_RichCompareBool(x, y, Py_EQ) == 1))
      return 0;
  }
  return 1;
}

/* One more of the open run (total and open_n), unless a snapshot is due (maybe_snapshot() is
 * Python: under the lock): 1 counted, 0 not. Only where no thread holds the lock. */
static int add_repeat(State* state) {
  if (((state->total + 1) & 63) == 0) return 0;
  ++state->total;
  ++state->open_n;
  return 1;
}

/* The count of an identical launch while no thread holds the probe's lock: it runs no Python code
 * and allocates nothing the garbage collector tracks, so no other thread can run before it ends.
 * 1 counted, 0 when the locked path must count it (held, different, a snapshot due, or unsure). */
static int count_unlocked(Counter* self, PyObject* kernel, PyObject* dim, PyObject* dev, PyObject* dtypes,
                          PyObject* block_dim, PyObject* adjoint) {
  State* state = self->state;
  PyObject* lock = state->lock;
  if (lock == NULL || Py_TYPE(lock) != (PyTypeObject*)lock_type || ((Lock*)lock)->depth != 0) return 0;
  if (self->l_key == NULL || self->l_key != state->last_key || self->l_kid != (uintptr_t)kernel) return 0;
  if (dtypes != self->l_dtypes || !plainly_same(dim, self->l_dim) || !plainly_same(dev, self->l_dev) ||
      !plainly_same(block_dim, self->l_block_dim) || adjoint != self->l_adjoint)
    return 0;
  return add_repeat(state);
}

/* Whether nobody holds the state's lock (a native Lock): the condition of every unlocked count. */
static int lock_free(State* self) {
  PyObject* lock = self->lock;
  return lock != NULL && Py_TYPE(lock) == (PyTypeObject*)lock_type && ((Lock*)lock)->depth == 0;
}

/* State.count_repeat(key): the same for a caller that has the key (Launch.launch replays, whose
 * key is built once per Launch object): True counted, False for the caller's locked path. */
static PyObject* state_count_repeat(State* self, PyObject* key) {
  return PyBool_FromLong(key == self->last_key && lock_free(self) && add_repeat(self));
}

/* cmd.<name> is `expected` (1), is not or cannot be read (0): a replay that cannot tell takes
 * Python's path, which reads it again and says why. */
static int attribute_is(PyObject* cmd, PyObject* name, PyObject* expected) {
  PyObject* value = PyObject_GetAttr(cmd, name);
  if (value == NULL) {
    PyErr_Clear();
    return 0;
  }
  int is = value == expected;
  Py_DECREF(value);
  return is;
}

/* State.count_cmd_repeat(cmd): a replay of the Launch object cached by cache_cmd_repeat, while its
 * key is last_key, with the same device and bounds objects (as launches.py's count_cmd checks)
 * and no capture: counted as count_repeat does. False: Python's count_cmd counts it. */
static PyObject* state_count_cmd_repeat(State* self, PyObject* cmd) {
  if (self->cmd_ref == NULL || self->cmd_key != self->last_key || PyWeakref_GetObject(self->cmd_ref) != cmd)
    Py_RETURN_FALSE;
  /* The reads may run Python code (a property), and another thread then, which may cache another
   * replay: what they are compared with is held, and the conditions of the count are checked
   * after them, where nothing runs until it is done. */
  PyObject *device = self->cmd_device, *bounds = self->cmd_bounds, *key = self->cmd_key;
  Py_INCREF(device);
  Py_INCREF(bounds);
  Py_INCREF(key);
  int counted = attribute_is(cmd, name_device, device) && attribute_is(cmd, name_bounds, bounds) &&
                self->cmd_key == key && key == self->last_key && self->capturing == 0 && lock_free(self) &&
                add_repeat(self);
  Py_DECREF(device);
  Py_DECREF(bounds);
  Py_DECREF(key);
  return PyBool_FromLong(counted);
}

/* State.cache_cmd_repeat(cmd, device, bounds, key): remembered weakly, so the cache keeps no
 * Launch (and none of its arrays) alive; a Launch without weak references is not cached. */
static PyObject* state_cache_cmd_repeat(State* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 4) {
    PyErr_Format(PyExc_TypeError, "cache_cmd_repeat() takes 4 arguments (%zd given)", nargs);
    return NULL;
  }
  if (self->cmd_ref == NULL || PyWeakref_GetObject(self->cmd_ref) != args[0]) {
    PyObject* ref = PyWeakref_NewRef(args[0], NULL);
    if (ref == NULL) {
      PyErr_Clear();
      state_forget_cmd(self);
      Py_RETURN_NONE;
    }
    SET_REF(self->cmd_ref, ref);
  }
  Py_INCREF(args[1]);
  SET_REF(self->cmd_device, args[1]);
  Py_INCREF(args[2]);
  SET_REF(self->cmd_bounds, args[2]);
  Py_INCREF(args[3]);
  SET_REF(self->cmd_key, args[3]);
  Py_RETURN_NONE;
}

/* Takes state.lock (blocking, as Python's `lock.acquire()`): 0, or -1 on error. */
static int lock(Counter* self) {
  PyObject* lock = self->state->lock;
  if (lock == NULL) {
    PyErr_SetString(PyExc_AttributeError, "the launch state has no lock");
    return -1;
  }
  if (lock != self->lock) {
    PyObject* acquire = PyObject_GetAttr(lock, self->names.acquire);
    PyObject* release = acquire == NULL ? NULL : PyObject_GetAttr(lock, self->names.release);
    if (release == NULL) {
      Py_XDECREF(acquire);
      return -1;
    }
    SET_REF(self->lock_acquire, acquire);
    SET_REF(self->lock_release, release);
    Py_INCREF(lock);
    SET_REF(self->lock, lock);
  }
  PyObject* taken = PyObject_CallObject(self->lock_acquire, NULL);
  if (taken == NULL) return -1;
  Py_DECREF(taken);
  return 0;
}

/* Under the lock: count the launch into the state (launches.py's compare, then its slow path).
 * 0 on success, -1 on error. Steals nothing. */
static int count_locked(Counter* self, PyObject* kernel, PyObject* dim, PyObject* dev, PyObject* dtypes,
                        PyObject* block_dim, PyObject* adjoint) {
  State* state = self->state;
  Py_ssize_t total = ++state->total;
  int equal = self->l_key != NULL && self->l_key == state->last_key && self->l_kid == (uintptr_t)kernel;
  if (equal) equal = same(dim, self->l_dim);
  if (equal == 1) equal = same(dtypes, self->l_dtypes);
  if (equal == 1) equal = same_device(dev, self->l_dev);
  if (equal == 1) equal = same(block_dim, self->l_block_dim);
  if (equal == 1) equal = same(adjoint, self->l_adjoint);
  if (equal < 0) return -1;
  if (equal) {
    /* Equal but not the same object (a device string after the Device it names, adjoint=0 after
     * False): the next launch like this one is compared with this one, so it can be counted
     * without the lock again. */
    if (dev != self->l_dev) {
      Py_INCREF(dev);
      SET_REF(self->l_dev, dev);
    }
    if (block_dim != self->l_block_dim) {
      Py_INCREF(block_dim);
      SET_REF(self->l_block_dim, block_dim);
    }
    if (adjoint != self->l_adjoint) {
      Py_INCREF(adjoint);
      SET_REF(self->l_adjoint, adjoint);
    }
    ++state->open_n;
    if ((total & 63) == 0) {
      PyObject* done = PyObject_CallMethodObjArgs((PyObject*)state, self->names.maybe_snapshot, NULL);
      if (done == NULL) return -1;
      Py_DECREF(done);
    }
    return 0;
  }

  PyObject* kid = PyLong_FromVoidPtr(kernel);
  if (kid == NULL) return -1;
  PyObject* key = PyTuple_Pack(7, kid, dim, dev, dtypes, block_dim, adjoint, self->entry);
  Py_DECREF(kid);
  if (key == NULL) return -1;
  PyObject* done = PyObject_CallMethodObjArgs((PyObject*)state, self->names.new_signature, key, kernel, Py_None,
                                              Py_None, dim, dev, dtypes, block_dim, adjoint, self->entry, NULL);
  if (done == NULL || state->last_key != key) {
    Py_XDECREF(done);
    Py_DECREF(key);
    return done == NULL ? -1 : 0;
  }
  Py_DECREF(done);
  SET_REF(self->l_key, key);
  self->l_kid = (uintptr_t)kernel;
  Py_INCREF(dim);
  SET_REF(self->l_dim, dim);
  Py_INCREF(dev);
  SET_REF(self->l_dev, dev);
  Py_INCREF(dtypes);
  SET_REF(self->l_dtypes, dtypes);
  Py_INCREF(block_dim);
  SET_REF(self->l_block_dim, block_dim);
  Py_INCREF(adjoint);
  SET_REF(self->l_adjoint, adjoint);
  return 0;
}

/* The count itself: 1 counted, 0 for the general path, -1 on error. */
static int count_launch(Counter* self, PyObject* kernel, PyObject* dim, PyObject* inputs, PyObject* outputs,
                        PyObject* device, PyObject* stream, PyObject* adjoint, PyObject* block_dim,
                        PyObject* record_tape) {
  Names* names = &self->names;
  int is_default = same(block_dim, self->default_block_dim);
  if (is_default < 0) return -1;
  if (is_default) block_dim = Py_None;

  if (self->state->capturing != 0) return 0;

  /* ctx.runtime: a module's attribute is its namespace's entry (a module __getattr__ answers only
   * for names not there), read without the generic lookup. */
  PyObject* runtime = self->ctx_dict == NULL ? NULL : PyDict_GetItemWithError(self->ctx_dict, names->runtime);
  if (runtime != NULL) {
    Py_INCREF(runtime);
  } else if (!PyErr_Occurred()) {
    runtime = PyObject_GetAttr(self->ctx, names->runtime);
  }
  if (runtime == NULL) return -1;
  if (self->is_launch) {
    if (PyDict_Size(self->tiled_threads) != 0) {
      Py_DECREF(runtime);
      return 0;
    }
    PyObject* tape = PyObject_GetAttr(runtime, names->tape);
    if (tape == NULL) {
      Py_DECREF(runtime);
      return -1;
    }
    int taped = tape != Py_None;
    Py_DECREF(tape);
    if (taped) {
      taped = PyObject_IsTrue(record_tape);
      if (taped != 0) {
        Py_DECREF(runtime);
        return taped < 0 ? -1 : 0;
      }
    }
  }

  /* The device Warp launched on. */
  PyObject* dev;
  if (stream != Py_None) {
    dev = PyObject_GetAttr(stream, names->device);
  } else if (device == Py_None) {
    dev = PyObject_GetAttr(runtime, names->default_device);
  } else {
    Py_INCREF(device);
    dev = device;
  }
  Py_DECREF(runtime);
  if (dev == NULL) return -1;

  /* Hashable dims: an int or a tuple as given, a list as a tuple of its items (the caller may
   * change it later); launch bounds and the rest take the general path. */
  if (PyLong_CheckExact(dim) || PyTuple_CheckExact(dim)) {
    Py_INCREF(dim);
  } else if (PyList_CheckExact(dim)) {
    dim = PyList_AsTuple(dim);
    if (dim == NULL) {
      Py_DECREF(dev);
      return -1;
    }
  } else {
    Py_DECREF(dev);
    return 0;
  }

  /* The dtypes: compared in place with the previous launch's, built only when they differ. The
   * previous tuple is held while its items are compared (a dtype property may switch threads). */
  if (items(inputs) < 0 || items(outputs) < 0) {
    Py_DECREF(dim);
    Py_DECREF(dev);
    return 0;
  }
  PyObject* dtypes = self->l_dtypes;
  int match = 0;
  if (dtypes != NULL) {
    Py_INCREF(dtypes);
    match = dtypes_match(self, inputs, outputs, dtypes);
    if (match != 1) Py_CLEAR(dtypes);
  }
  if (match == 0) dtypes = launch_dtypes(self, inputs, outputs);
  if (dtypes == NULL) {
    Py_DECREF(dim);
    Py_DECREF(dev);
    return -1;
  }

  int result = count_unlocked(self, kernel, dim, dev, dtypes, block_dim, adjoint) ? 1 : (lock(self) < 0 ? -1 : 0);
  if (result == 0) {
    result = count_locked(self, kernel, dim, dev, dtypes, block_dim, adjoint) < 0 ? -1 : 1;
    /* Released even after an error, the error kept across the call. */
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyObject* released = PyObject_CallObject(self->lock_release, NULL);
    if (released == NULL) {
      if (type != NULL) {
        PyErr_Clear();
      } else {
        result = -1;
      }
    }
    Py_XDECREF(released);
    if (type != NULL) PyErr_Restore(type, value, traceback);
  }
  Py_DECREF(dtypes);
  Py_DECREF(dim);
  Py_DECREF(dev);
  return result;
}

/* count(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape) -> bool:
 * True when the launch was counted, False when Python's general path must record it. */
static PyObject* counter_count(Counter* self, PyObject* const* args, Py_ssize_t nargs) {
  if (self->state == NULL || self->ctx == NULL || self->entry == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "Counter is not initialised");
    return NULL;
  }
  if (nargs != 9) {
    PyErr_Format(PyExc_TypeError, "count() takes 9 arguments (%zd given)", nargs);
    return NULL;
  }
  int counted = count_launch(self, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8]);
  if (counted < 0) return NULL;
  return PyBool_FromLong(counted);
}

static PyMethodDef counter_methods[] = {
    {"count", (PyCFunction)(void (*)(void))counter_count, METH_FASTCALL,
     "count(kernel, dim, inputs, outputs, device, stream, adjoint, block_dim, record_tape) -> bool"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot counter_slots[] = {
    {Py_tp_doc, "Counts identical launches into a Launches object (launches.py's PyCounter, in C)."},
    {Py_tp_init, counter_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, counter_dealloc},
    {Py_tp_traverse, counter_traverse},
    {Py_tp_clear, counter_clear},
    {Py_tp_methods, counter_methods},
    {0, NULL},
};

static PyType_Spec counter_spec = {"_wcp_probe._fastlaunch.Counter", sizeof(Counter), 0,
                                   Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, counter_slots};

/* ---- the wp.launch_tiled wrapper ---------------------------------------------------------------- */

/* The vectorcall protocol (PEP 590): public since CPython 3.9 and unchanged since, in the limited
 * API only from 3.12. The Forwarder is called through it where the interpreter exports
 * PyObject_Vectorcall (3.11 and later; looked up at import), so that a call reaches Warp's
 * launch_tiled as the caller made it: the tuple and dict of a tp_call, and the stack rebuilt
 * from them to call Warp, cost 0.2-0.3 us per launch. The flag and the offset member are the
 * ones CPython reads; they are declared here because the 3.10 limited headers leave them out. */
#ifndef Py_TPFLAGS_HAVE_VECTORCALL
#define Py_TPFLAGS_HAVE_VECTORCALL (1UL << 11)
#endif
#ifndef PY_VECTORCALL_ARGUMENTS_OFFSET
#define PY_VECTORCALL_ARGUMENTS_OFFSET ((size_t)1 << (8 * sizeof(size_t) - 1))
#endif
typedef PyObject* (*VectorcallFunc)(PyObject* callable, PyObject* const* args, size_t nargsf, PyObject* kwnames);
static VectorcallFunc object_vectorcall; /* PyObject_Vectorcall, or NULL where not exported */

typedef struct {
  PyObject_HEAD
  PyObject* direct;       /* Warp's launch_tiled reading Warp's launch(), or None */
  PyObject* warp_globals; /* dict: Warp's context module, whose `launch` must be launch_wrapper */
  PyObject* launch_wrapper;
  PyObject* fallback;       /* fallback(args, kwargs): Warp's own launch_tiled, the thread marked */
  PyObject* probe;          /* fail_pending(error), drain() */
  PyObject* finished_loads; /* loads waiting for their record: drain() when not empty */
  PyObject* counter;        /* a Counter for "launch_tiled" */
  PyObject* record;         /* record(args, kwargs, result): the general path, in Python */
  PyObject *inputs_default, *outputs_default;
  PyObject *s_launch, *s_dim, *s_block_dim, *s_inputs, *s_outputs, *s_device, *s_stream, *s_adjoint, *s_fail_pending,
      *s_drain, *s_count_unrecorded;
  PyObject* dict;       /* the attributes wrap_like() sets (__wrapped__, __name__, ...) */
  VectorcallFunc entry; /* forwarder_vectorcall: what CPython calls, at __vectorcalloffset__ */
} Forwarder;

enum { FORWARDER_GIVEN = 10, FORWARDER_NAMES = 11, FORWARDER_OBJECTS = FORWARDER_GIVEN + FORWARDER_NAMES + 1 };

static int forwarder_traverse(Forwarder* self, visitproc visit, void* arg) {
  PyObject** fields = &self->direct;
  for (int i = 0; i < FORWARDER_OBJECTS; ++i) Py_VISIT(fields[i]);
  return 0;
}

/* Drops what __init__ set (not the attributes). */
static void forwarder_forget(Forwarder* self) {
  PyObject** fields = &self->direct;
  for (int i = 0; i < FORWARDER_GIVEN + FORWARDER_NAMES; ++i) Py_CLEAR(fields[i]);
}

static int forwarder_clear(Forwarder* self) {
  forwarder_forget(self);
  Py_CLEAR(self->dict);
  return 0;
}

static void forwarder_dealloc(Forwarder* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  forwarder_clear(self);
  freefunc free = (freefunc)PyType_GetSlot(type, Py_tp_free);
  free(self);
  Py_DECREF(type);
}

static PyObject* forwarder_vectorcall(PyObject* callable, PyObject* const* args, size_t nargsf, PyObject* kwnames);

/* Forwarder(direct, warp_globals, launch_wrapper, fallback, probe, finished_loads, counter, record,
 *           inputs_default, outputs_default) */
static int forwarder_init(Forwarder* self, PyObject* args, PyObject* kwargs) {
  PyObject* given[FORWARDER_GIVEN];
  if (kwargs != NULL && PyDict_Size(kwargs) != 0) {
    PyErr_SetString(PyExc_TypeError, "Forwarder() takes positional arguments only");
    return -1;
  }
  if (!PyArg_UnpackTuple(args, "Forwarder", 10, 10, &given[0], &given[1], &given[2], &given[3], &given[4], &given[5],
                         &given[6], &given[7], &given[8], &given[9]))
    return -1;
  if (!PyDict_Check(given[1])) {
    PyErr_SetString(PyExc_TypeError, "Forwarder(): warp_globals must be a dict");
    return -1;
  }
  int is_counter = PyObject_IsInstance(given[6], counter_type);
  if (is_counter <= 0) {
    if (is_counter == 0) PyErr_SetString(PyExc_TypeError, "Forwarder(): counter must be a _fastlaunch.Counter");
    return -1;
  }
  forwarder_forget(self);
  PyObject** fields = &self->direct;
  for (int i = 0; i < FORWARDER_GIVEN; ++i) {
    Py_INCREF(given[i]);
    fields[i] = given[i];
  }
  const char* names[FORWARDER_NAMES] = {"launch", "dim",     "block_dim",    "inputs", "outputs",         "device",
                                        "stream", "adjoint", "fail_pending", "drain",  "count_unrecorded"};
  for (int i = 0; i < FORWARDER_NAMES; ++i) {
    if ((fields[FORWARDER_GIVEN + i] = PyUnicode_InternFromString(names[i])) == NULL) return -1;
  }
  self->entry = forwarder_vectorcall;
  return 0;
}

/* One call's arguments as the caller passed them: a tuple and a dict (tp_call), or CPython's
 * stack of positional then keyword values with the keywords' names (vectorcall). */
typedef struct {
  PyObject* tuple;
  PyObject* kwargs;
  PyObject* const* stack;
  Py_ssize_t nargs;
  PyObject* kwnames;
} Call;

/* The keyword `name`'s value, else `otherwise`: a borrowed reference (NULL only with an error).
 * The names a call site passes are interned, as `name` is: identity first, then by value. */
static PyObject* keyword(const Call* call, PyObject* name, PyObject* otherwise) {
  if (call->kwargs != NULL) {
    PyObject* value = PyDict_GetItemWithError(call->kwargs, name);
    if (value != NULL || PyErr_Occurred()) return value;
    return otherwise;
  }
  Py_ssize_t n = call->kwnames == NULL ? 0 : PyTuple_Size(call->kwnames);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (PyTuple_GetItem(call->kwnames, i) == name) return call->stack[call->nargs + i];
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (PyUnicode_Compare(PyTuple_GetItem(call->kwnames, i), name) == 0) return call->stack[call->nargs + i];
  }
  return PyErr_Occurred() ? NULL : otherwise;
}

/* The call as a tuple and a dict (an empty one where there are no keywords, as Python passes to
 * a **kwargs function): new references, 0, or -1 with an error. */
static int call_as_tuple_and_dict(const Call* call, PyObject** tuple, PyObject** kwargs) {
  if (call->tuple != NULL) {
    Py_INCREF(call->tuple);
    *tuple = call->tuple;
  } else if ((*tuple = PyTuple_New(call->nargs)) == NULL) {
    return -1;
  } else {
    for (Py_ssize_t i = 0; i < call->nargs; ++i) {
      Py_INCREF(call->stack[i]);
      PyTuple_SetItem(*tuple, i, call->stack[i]); /* steals */
    }
  }
  if (call->kwargs != NULL) {
    Py_INCREF(call->kwargs);
    *kwargs = call->kwargs;
    return 0;
  }
  if ((*kwargs = PyDict_New()) == NULL) {
    Py_CLEAR(*tuple);
    return -1;
  }
  Py_ssize_t n = call->kwnames == NULL ? 0 : PyTuple_Size(call->kwnames);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (PyDict_SetItem(*kwargs, PyTuple_GetItem(call->kwnames, i), call->stack[call->nargs + i]) < 0) {
      Py_CLEAR(*tuple);
      Py_CLEAR(*kwargs);
      return -1;
    }
  }
  return 0;
}

/* The count after Warp returned: 1 counted, 0 for the general path, -1 on error. */
static int forwarder_count(Forwarder* self, const Call* call, PyObject* result) {
  if (result != Py_None || call->nargs != 1) return 0;
  PyObject* dim = keyword(call, self->s_dim, NULL);
  PyObject* block_dim = dim == NULL ? NULL : keyword(call, self->s_block_dim, NULL);
  if (block_dim == NULL) return PyErr_Occurred() ? -1 : 0;
  PyObject* inputs = keyword(call, self->s_inputs, self->inputs_default);
  PyObject* outputs = inputs == NULL ? NULL : keyword(call, self->s_outputs, self->outputs_default);
  PyObject* device = outputs == NULL ? NULL : keyword(call, self->s_device, Py_None);
  PyObject* stream = device == NULL ? NULL : keyword(call, self->s_stream, Py_None);
  PyObject* adjoint = stream == NULL ? NULL : keyword(call, self->s_adjoint, Py_False);
  if (adjoint == NULL) return -1;
  PyObject* kernel = call->tuple != NULL ? PyTuple_GetItem(call->tuple, 0) : call->stack[0];
  return count_launch((Counter*)self->counter, kernel, dim, inputs, outputs, device, stream, adjoint, block_dim,
                      Py_True);
}

/* The error of a failed count, named in the record's `unrecorded` as launches.py names it. */
static void note_probe_error(Forwarder* self) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyObject* name = type == NULL ? NULL : PyObject_GetAttrString(type, "__name__");
  PyObject* what = name == NULL ? NULL : PyUnicode_FromFormat("launches via warp.launch_tiled (probe error: %U)", name);
  PyObject* state = (PyObject*)((Counter*)self->counter)->state;
  PyObject* done = what == NULL ? NULL : PyObject_CallMethodObjArgs(state, self->s_count_unrecorded, what, NULL);
  Py_XDECREF(done);
  Py_XDECREF(what);
  Py_XDECREF(name);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  PyErr_Clear();
}

/* Whether Warp's launch_tiled is called through its copy: Warp's module still calls the probe's
 * launch wrapper (else Warp's own launch_tiled runs, the thread marked, by `fallback`). */
static int forwards_direct(Forwarder* self) {
  if (self->direct == Py_None) return 0;
  PyObject* current = PyDict_GetItemWithError(self->warp_globals, self->s_launch);
  if (current == NULL && PyErr_Occurred()) PyErr_Clear();
  return current == self->launch_wrapper;
}

/* What the copy of Warp's launch_tiled returned: a load it started and did not finish failed
 * with its error, which goes on as it was; the records of finished loads are written now. */
static PyObject* after_direct(Forwarder* self, PyObject* result) {
  if (result == NULL) {
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (value != NULL) {
      PyObject* done = PyObject_CallMethodObjArgs(self->probe, self->s_fail_pending, value, NULL);
      Py_XDECREF(done);
      PyErr_Clear();
    }
    PyErr_Restore(type, value, traceback);
    return NULL;
  }
  int pending = PyObject_IsTrue(self->finished_loads);
  if (pending > 0) {
    PyObject* done = PyObject_CallMethodObjArgs(self->probe, self->s_drain, NULL);
    Py_XDECREF(done);
  }
  if (PyErr_Occurred()) PyErr_Clear();
  return result;
}

/* Counts the launch Warp ran (`result`, stolen and returned), by the counter or, for any other
 * call, by record(args, kwargs, result) in Python. */
static PyObject* count_forwarded(Forwarder* self, const Call* call, PyObject* result) {
  int counted = forwarder_count(self, call, result);
  if (counted < 0) {
    if (!PyErr_ExceptionMatches(PyExc_Exception)) { /* KeyboardInterrupt and the like go on */
      Py_DECREF(result);
      return NULL;
    }
    note_probe_error(self);
  } else if (counted == 0) {
    PyObject *args, *kwargs;
    if (call_as_tuple_and_dict(call, &args, &kwargs) < 0) {
      PyErr_Clear();
      return result;
    }
    PyObject* done = PyObject_CallFunctionObjArgs(self->record, args, kwargs, result, NULL);
    Py_DECREF(args);
    Py_DECREF(kwargs);
    if (done == NULL) {
      Py_DECREF(result);
      return NULL; /* record() catches Exception itself: what reaches here is not the probe's */
    }
    Py_DECREF(done);
  }
  return result;
}

static int forwarder_ready(Forwarder* self) {
  if (self->counter != NULL && self->s_count_unrecorded != NULL) return 1;
  PyErr_SetString(PyExc_RuntimeError, "Forwarder is not initialised");
  return 0;
}

/* The call through Warp's own launch_tiled, the thread marked: fallback(args, kwargs). */
static PyObject* call_fallback(Forwarder* self, const Call* call) {
  PyObject *args, *kwargs;
  if (call_as_tuple_and_dict(call, &args, &kwargs) < 0) return NULL;
  PyObject* result = PyObject_CallFunctionObjArgs(self->fallback, args, kwargs, NULL);
  Py_DECREF(args);
  Py_DECREF(kwargs);
  return result;
}

static PyObject* forwarder_call(Forwarder* self, PyObject* args, PyObject* kwargs) {
  if (!forwarder_ready(self)) return NULL;
  Call call = {args, kwargs, NULL, PyTuple_Size(args), NULL};
  PyObject* result = forwards_direct(self) ? after_direct(self, PyObject_Call(self->direct, args, kwargs))
                                           : call_fallback(self, &call);
  return result == NULL ? NULL : count_forwarded(self, &call, result);
}

static PyObject* forwarder_vectorcall(PyObject* callable, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  Forwarder* self = (Forwarder*)callable;
  if (!forwarder_ready(self)) return NULL;
  Call call = {NULL, NULL, args, (Py_ssize_t)(nargsf & ~PY_VECTORCALL_ARGUMENTS_OFFSET), kwnames};
  /* Reached only where the type has the vectorcall flag, set at import when object_vectorcall was found. */
  PyObject* result = forwards_direct(self) ? after_direct(self, object_vectorcall(self->direct, args, nargsf, kwnames))
                                           : call_fallback(self, &call);
  return result == NULL ? NULL : count_forwarded(self, &call, result);
}

static PyMemberDef forwarder_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Forwarder, entry), READONLY, NULL},
    {"__dictoffset__", T_PYSSIZET, offsetof(Forwarder, dict), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef forwarder_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot forwarder_slots[] = {
    {Py_tp_doc, "wp.launch_tiled's wrapper: forwards the call unchanged, then counts the launch."},
    {Py_tp_init, forwarder_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, forwarder_dealloc},
    {Py_tp_traverse, forwarder_traverse},
    {Py_tp_clear, forwarder_clear},
    {Py_tp_call, forwarder_call},
    {Py_tp_members, forwarder_members},
    {Py_tp_getset, forwarder_getset},
    {0, NULL},
};

/* Py_TPFLAGS_HAVE_VECTORCALL is added at import where PyObject_Vectorcall is exported. */
static PyType_Spec forwarder_spec = {"_wcp_probe._fastlaunch.Forwarder", sizeof(Forwarder), 0,
                                     Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, forwarder_slots};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_fastlaunch", "The launch counter of launches.py, in C.", -1, NULL, NULL, NULL, NULL, NULL};

/* Creates the type of `spec` and adds it to the module as `name`: the new type, a reference the
 * caller keeps (the statics outlive a module dropped from sys.modules), or NULL with an error. */
static PyObject* add_type(PyObject* module, const char* name, PyType_Spec* spec) {
  PyObject* type = PyType_FromSpec(spec);
  if (type == NULL) return NULL;
  if (PyModule_AddObject(module, name, type) < 0) { /* steals only on success */
    Py_DECREF(type);
    return NULL;
  }
  Py_INCREF(type);
  return type;
}

PyMODINIT_FUNC PyInit__fastlaunch(void) {
  if ((name_device == NULL && (name_device = PyUnicode_InternFromString("device")) == NULL) ||
      (name_bounds == NULL && (name_bounds = PyUnicode_InternFromString("bounds")) == NULL))
    return NULL;
  object_vectorcall = (VectorcallFunc)dlsym(RTLD_DEFAULT, "PyObject_Vectorcall");
  if (object_vectorcall != NULL) forwarder_spec.flags |= Py_TPFLAGS_HAVE_VECTORCALL;
  PyObject* module = PyModule_Create(&module_def);
  if (module == NULL) return NULL;
  if ((state_type = add_type(module, "State", &state_spec)) == NULL ||
      (lock_type = add_type(module, "Lock", &lock_spec)) == NULL ||
      (counter_type = add_type(module, "Counter", &counter_spec)) == NULL ||
      (forwarder_type = add_type(module, "Forwarder", &forwarder_spec)) == NULL) {
    Py_DECREF(module);
    return NULL;
  }
  /* Whether the Forwarder is called through vectorcall (a test asserts it where it should be). */
  if (PyModule_AddIntConstant(module, "VECTORCALL", object_vectorcall != NULL) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
