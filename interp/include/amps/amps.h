/* amps.h: the C embedding API of amps: run scripts in-process, exchange values and tensors,
 * register native functions and modules. amps.hpp is the same API for C++.
 *
 * Conventions (every function):
 *  - No global state: everything lives in an amps_vm. Several vms in one process are independent
 *    (globals, modules, autocast state, RNG, active GradScaler) and may run on different threads;
 *    one vm is used by one thread at a time, except amps_interrupt (any thread, any time).
 *  - Functions that can fail return an amps_status; on failure the vm's last error
 *    (amps_last_error) says why. API misuse (a null handle, a wrong dtype or size, a bad argument)
 *    is AMPS_ERROR_MISUSE with a message, never a crash.
 *  - amps_value* handles belong to the host: every handle an amps_* function hands out
 *    (through an out-parameter or a return value) is released with amps_release, exactly once.
 *    Handles passed in are borrowed: amps never releases or keeps them (it keeps its own reference
 *    to the value when it needs one). Release every handle before amps_free of the vm that made it,
 *    except tensors, which may outlive their vm.
 *  - Strings passed in are copied; strings handed out stay valid as documented per function. */
#ifndef AMPS_AMPS_H
#define AMPS_AMPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AMPS_API_VERSION 3   /* 2: containers, iteration, host objects, parallel calls, RNG; 3: instances */

typedef struct amps_vm amps_vm;       /* one interpreter */
typedef struct amps_value amps_value; /* a host-held reference to a script value */
typedef struct amps_args amps_args;   /* the arguments and result of one native call (valid only during it) */
typedef struct amps_rng amps_rng;     /* a random stream (the generator behind manual_seed and rand) */

typedef enum amps_status {
  AMPS_OK = 0,
  AMPS_ERROR_SYNTAX = 1,  /* the code did not compile (SyntaxError, or a NameError the resolver found) */
  AMPS_ERROR_RUNTIME = 2, /* an amps error escaped the script (incl. KeyboardInterrupt, budgets) */
  AMPS_ERROR_MISUSE = 3,  /* the host broke this API's contract */
  AMPS_ERROR_MEMORY = 4   /* out of memory */
} amps_status;

/* What amps_typeof reports; OTHER covers everything else (instances, modules, ranges, host
 * objects, ...: amps_type_name tells them apart). LIST .. DEVICE were OTHER before version 2. */
typedef enum amps_type {
  AMPS_TYPE_NONE, AMPS_TYPE_BOOL, AMPS_TYPE_INT, AMPS_TYPE_FLOAT, AMPS_TYPE_STR,
  AMPS_TYPE_TENSOR, AMPS_TYPE_CALLABLE, AMPS_TYPE_OTHER,
  AMPS_TYPE_LIST, AMPS_TYPE_TUPLE, AMPS_TYPE_DICT, AMPS_TYPE_DTYPE, AMPS_TYPE_DEVICE
} amps_type;

/* Tensor element types (the order of runtime/dtype.def; UINT8 .. INT16 were added after BOOL, so the older
 * values keep their numbers). */
typedef enum amps_dtype {
  AMPS_FLOAT64, AMPS_FLOAT32, AMPS_FLOAT16, AMPS_BFLOAT16, AMPS_INT64, AMPS_INT32, AMPS_BOOL,
  AMPS_UINT8, AMPS_INT8, AMPS_INT16
} amps_dtype;

/* How autocast treats a native function's tensor arguments (the policies of the built-in ops).
 * The cast applies while autocast is enabled for the arguments' device type; only floating,
 * non-float64 tensor arguments (positional and keyword) are cast:
 *   LOWER   to the region's autocast dtype (e.g. bfloat16 in `autocast cpu<bfloat16>`);
 *   FP32    to float32;
 *   PROMOTE to the widest floating dtype among them;
 *   NONE    never cast. */
typedef enum amps_cast_rule { AMPS_CAST_NONE, AMPS_CAST_LOWER, AMPS_CAST_FP32, AMPS_CAST_PROMOTE } amps_cast_rule;

/* ---------------------------------------------------------------- configuration */

/* Receives script output (print) or diagnostics (warnings, cast traces); [text] is not
 * NUL-terminated and valid only during the call. */
typedef void (*amps_write_fn)(void* user, const char* text, size_t len);
/* Source of module [name] for `import name`, or NULL when the host has none. The host returns
 * memory from malloc; amps frees it. */
typedef char* (*amps_load_module_fn)(void* user, const char* name);
/* Host allocator for tensor memory: [alloc] returns [nbytes] aligned to 64 bytes (NULL when out of
 * memory), [free] releases it. Both may run on any thread and after amps_free: [user] must outlive
 * every tensor the vm created. */
typedef void* (*amps_alloc_fn)(void* user, size_t nbytes);
typedef void (*amps_free_fn)(void* user, void* p);

typedef struct amps_config {
  amps_write_fn write;            /* script output; NULL: stdout */
  amps_write_fn diagnostic;       /* warnings and traces; NULL: stderr */
  void* user;                     /* passed to write, diagnostic and load_module */
  amps_load_module_fn load_module;/* NULL: modules only from registrations and module_roots */
  const char* const* module_roots;/* `import a.b` finds ROOT/a/b.amps; copied at amps_new */
  size_t module_root_count;
  const char* default_device;     /* "cpu" (NULL), "cuda", "cuda:1", ...: where factories put tensors */
  int sandbox;                    /* nonzero: no file or process access; imports only from module_roots */
  int imports_only_from_roots;    /* nonzero: file imports only from module_roots (sandbox implies it) */
  uint64_t step_budget;           /* loop iterations + calls per run/call; 0: unlimited (BudgetError) */
  uint64_t time_budget_ms;        /* wall time per run/call; 0: unlimited (TimeoutError) */
  amps_alloc_fn alloc;            /* tensor memory; NULL: the runtime's aligned allocator */
  amps_free_fn free;
  void* alloc_user;
  int no_stdlib;                  /* nonzero: do not install the standard library (amps_open_stdlib) */
  const char* const* argv;        /* the script's `args`; copied at amps_new */
  size_t argc;
} amps_config;

/* Fills [cfg] with the defaults (all zero/NULL). */
void amps_config_init(amps_config* cfg);

/* Creates an interpreter from [cfg] (NULL: defaults) in [*out]; installs the standard library
 * unless cfg->no_stdlib. On failure *out is NULL and amps_last_error(NULL) is a generic message;
 * the returned status says why (MISUSE: bad config, e.g. an unavailable default_device). */
amps_status amps_new(const amps_config* cfg, amps_vm** out);
/* Frees the interpreter; NULL is a no-op. Must not run concurrently with a call on [vm]. */
void amps_free(amps_vm* vm);
/* Installs the standard library (nn, optim, data, io, ...) through the registration API below:
 * the stdlib uses only this header's functions (stdlib/install.cpp). */
amps_status amps_open_stdlib(amps_vm* vm);
/* Nonzero when [vm] was created with cfg->sandbox: natives must then refuse to open files or
 * start processes (raise PermissionError), as the stdlib's do. */
int amps_sandboxed(const amps_vm* vm);
/* Writes [text] ([len] bytes) to the vm's output sink (what print uses) or its diagnostic sink
 * (warnings, progress bars). Safe from natives and hooks; NULL vm: no-op. */
void amps_write(amps_vm* vm, const char* text, size_t len);
void amps_write_diagnostic(amps_vm* vm, const char* text, size_t len);
/* Tells [vm] that [loaded] was just read from the checkpoint file [path] (the stdlib's load() does;
 * hosts that read checkpoints their own way may too). When [loaded] is, or directly holds (as a
 * dict value or a list/tuple item), a GradScaler state dict (a dict with exactly the keys of
 * GradScaler.state_dict(): scale, growth_factor, backoff_factor, growth_interval, _growth_tracker,
 * all numbers), the vm remembers it (the first one found; a later such checkpoint replaces it): an
 * enabled GradScaler that reaches scale() or step() while still fresh (no load_state_dict, update
 * or step yet) with a state different from the saved one warns once on the diagnostic sink
 * (FILE:LINE:COL: UserWarning: the checkpoint loaded from PATH holds GradScaler state ...).
 * MISUSE for a NULL path or value. */
amps_status amps_checkpoint_loaded(amps_vm* vm, const char* path, const amps_value* loaded);

/* ---------------------------------------------------------------- errors */

typedef struct amps_error {
  amps_status status;
  const char* kind;       /* "SyntaxError", "TypeError", "KeyboardInterrupt", "MisuseError", ... */
  const char* message;    /* the message alone */
  const char* file;       /* source name of the position; "" when the error has none */
  uint32_t line, column;  /* 1-based; 0 when the error has no position */
  const char* diagnostic; /* FILE:LINE:COL: Kind: message, the source line, a caret and the call stack */
} amps_error;

/* The last failure on [vm] (status AMPS_OK when the last call succeeded); strings stay valid
 * until the next call on [vm]. amps_last_error(NULL) describes the null-handle misuse. */
const amps_error* amps_last_error(const amps_vm* vm);
/* "AMPS_OK", "AMPS_ERROR_SYNTAX", ... (static strings). */
const char* amps_status_name(amps_status s);

/* ---------------------------------------------------------------- running code */

/* Compiles and runs [code] in the main module; [name] names it in diagnostics (NULL: "<string>").
 * [result] (may be NULL) receives the value of a trailing expression statement, else none. */
amps_status amps_run(amps_vm* vm, const char* name, const char* code, amps_value** result);
/* Runs the file at [path] as the main script (the host's own request: the sandbox does not apply). */
amps_status amps_run_file(amps_vm* vm, const char* path, amps_value** result);
/* Calls [callee] (a script function, class, bound method or native) with [argc] positional
 * arguments; [result] may be NULL. */
amps_status amps_call(amps_vm* vm, const amps_value* callee, size_t argc, amps_value* const* argv, amps_value** result);
/* Calls callees[i](*args[i]) for each i < n, where args[i] is a list or tuple of positional
 * arguments, each call on a thread of its own with a runtime context forked from the vm's (grad
 * mode, autocast state, default device; its RNG seeded from the vm's), and waits for them all.
 * Script code is serialised by the vm's interpreter lock, so only tensor ops overlap. results[i]
 * receives each result; on failure the first failed call's error (in order) is the vm's and no
 * results are set. Call it from the vm's thread (a run, a call or a native), like amps_call. */
amps_status amps_call_parallel(amps_vm* vm, size_t n, const amps_value* const* callees, const amps_value* const* args,
                               amps_value** results);
/* Asks the running script (if any) to stop at its next safe point (a loop iteration or call), where
 * a catchable KeyboardInterrupt is raised. Safe from any thread and from signal handlers; a request
 * made while nothing runs is dropped when the next run starts. */
void amps_interrupt(amps_vm* vm);

/* ---------------------------------------------------------------- globals and attributes */

/* A main-module global or builtin; AMPS_ERROR_RUNTIME (NameError) when undefined. */
amps_status amps_get_global(amps_vm* vm, const char* name, amps_value** out);
/* Assigns a global the scripts declared, else defines a builtin visible to later runs. */
amps_status amps_set_global(amps_vm* vm, const char* name, const amps_value* v);
/* obj.name (methods come back bound); AMPS_ERROR_RUNTIME (AttributeError) when absent. */
amps_status amps_get_attr(amps_vm* vm, const amps_value* obj, const char* name, amps_value** out);
/* obj.name into *out, or *out = NULL when [obj] has no such attribute (not an error). */
amps_status amps_find_attr(amps_vm* vm, const amps_value* obj, const char* name, amps_value** out);
/* The builtin [name] (print, repr, stack, float32, the ops, ...) even where a script global
 * shadows it; AMPS_ERROR_RUNTIME (NameError) when there is none. */
amps_status amps_get_builtin(amps_vm* vm, const char* name, amps_value** out);

/* ---------------------------------------------------------------- values */

/* New values (NULL only when out of memory). */
amps_value* amps_none(void);
amps_value* amps_bool(int b);
amps_value* amps_int(int64_t i);
amps_value* amps_float(double d);
amps_value* amps_str(const char* s, size_t len);
/* A list or tuple of the [n] values (each borrowed; the container holds its own references). */
amps_value* amps_list(size_t n, amps_value* const* items);
amps_value* amps_tuple(size_t n, amps_value* const* items);
/* A new empty dict (insertion-ordered, as in scripts); fill it with amps_dict_set. */
amps_value* amps_dict(void);
/* The script's dtype value for [dtype] (what `float32` names); NULL when [dtype] is invalid. */
amps_value* amps_dtype_value(amps_dtype dtype);
/* Another handle to the same value. */
amps_value* amps_retain(const amps_value* v);
/* Releases a handle; NULL is a no-op. */
void amps_release(amps_value* v);

amps_type amps_typeof(const amps_value* v);
/* The name type(v) reports: "int", "list", "Tensor", a script class's or a host class's name.
 * A static string, valid for the life of the process; "none" for NULL. */
const char* amps_type_name(const amps_value* v);
/* Conversions with the language's rules: bool/int/float interconvert (to_int truncates only exact
 * integers), to_float also reads one-element tensors (a host sync); MISUSE on anything else. */
amps_status amps_to_bool(amps_vm* vm, const amps_value* v, int* out);
amps_status amps_to_int(amps_vm* vm, const amps_value* v, int64_t* out);
amps_status amps_to_float(amps_vm* vm, const amps_value* v, double* out);
/* The UTF-8 text of a str (borrowed: valid while [v] is held); MISUSE unless a str. */
amps_status amps_to_str(amps_vm* vm, const amps_value* v, const char** out, size_t* len);
/* str(v) as the script's print shows it; *out is malloc'd and the host frees it. */
amps_status amps_repr(amps_vm* vm, const amps_value* v, char** out);
/* The dtype a dtype value names; MISUSE unless a dtype. */
amps_status amps_to_dtype(amps_vm* vm, const amps_value* v, amps_dtype* out);
/* A device value from "cpu", "cuda", "cuda:1", ... (what device(spec) returns); a runtime error
 * (ValueError) for a malformed spec. */
amps_status amps_device_value(amps_vm* vm, const char* spec, amps_value** out);

/* ---------------------------------------------------------------- containers and iteration
 * Errors these raise inside a native carry the native's call position. */

/* len(v) as the script's len(): str, list, tuple, dict, range, or an object with __len__, which
 * must return a non-negative int. TypeError (AMPS_ERROR_RUNTIME) otherwise. */
amps_status amps_len(amps_vm* vm, const amps_value* v, int64_t* out);
/* Item [index] of a list or tuple (negative counts from the end); IndexError when out of range,
 * MISUSE unless a list or tuple. */
amps_status amps_item(amps_vm* vm, const amps_value* seq, int64_t index, amps_value** out);
/* dict[key] into *out, or *out = NULL when the key is absent. TypeError for an unhashable key
 * (a list, a dict), MISUSE unless [dict] is a dict. */
amps_status amps_dict_get(amps_vm* vm, const amps_value* dict, const amps_value* key, amps_value** out);
/* dict[key] = value (both borrowed); TypeError for an unhashable key. */
amps_status amps_dict_set(amps_vm* vm, const amps_value* dict, const amps_value* key, const amps_value* value);
/* Entry [index] of a dict in insertion order (0 <= index < its amps_len); [key] and [value] may
 * each be NULL when not wanted. */
amps_status amps_dict_entry(amps_vm* vm, const amps_value* dict, size_t index, amps_value** key, amps_value** value);
/* An iterator over [iterable] that yields what a for loop over it would: ranges, lists and tuples
 * (read live), the keys of a dict, the characters of a str, iterators (themselves), objects with
 * __iter__ (and __next__) or with __len__ and __getitem__. TypeError when not iterable. */
amps_status amps_iter(amps_vm* vm, const amps_value* iterable, amps_value** out);
/* The next item of [iterator] (from amps_iter, or a host iterator object) in *out, or *out = NULL
 * when it is exhausted. An error raised while producing the item is AMPS_ERROR_RUNTIME. */
amps_status amps_next(amps_vm* vm, const amps_value* iterator, amps_value** out);

/* ---------------------------------------------------------------- tensors */

/* Runs when the last tensor using a wrapped buffer dies (on any thread, maybe after amps_free). */
typedef void (*amps_release_fn)(void* user, void* data);

/* A cpu tensor over the host's buffer [data], without a copy: [shape] has [ndim] sizes, [strides]
 * (in elements, non-negative; NULL: contiguous row-major) describe the layout. The tensor and its
 * views read and write [data] in place. Ownership stays with the host until [release] runs
 * (release(release_user, data)), once, when the last tensor using the buffer dies; with a NULL
 * release the host keeps [data] alive as long as any tensor may use it. */
amps_status amps_tensor_wrap(amps_vm* vm, void* data, amps_dtype dtype, size_t ndim, const int64_t* shape,
                             const int64_t* strides, amps_release_fn release, void* release_user,
                             amps_value** out);
/* A cpu tensor holding a copy of [data] (same layout rules as amps_tensor_wrap); [data] is not kept. */
amps_status amps_tensor_copy(amps_vm* vm, const void* data, amps_dtype dtype, size_t ndim, const int64_t* shape,
                             const int64_t* strides, amps_value** out);
/* A new contiguous cpu tensor of [shape] with uninitialised elements, allocated as the vm's own
 * tensors are (amps_config.alloc or the runtime's 64-byte aligned allocator): fill it through
 * amps_tensor_info's data, e.g. straight from a file, without a staging copy. */
amps_status amps_tensor_empty(amps_vm* vm, amps_dtype dtype, size_t ndim, const int64_t* shape, amps_value** out);
/* The dtype's script name ("float32", "bfloat16", "bool", ...; static) and its element size in
 * bytes; NULL / 0 for an invalid dtype. */
const char* amps_dtype_name(amps_dtype dtype);
size_t amps_dtype_size(amps_dtype dtype);

typedef struct amps_tensor_info {
  amps_dtype dtype;
  size_t ndim;
  const int64_t* shape;   /* borrowed: valid while the tensor handle is held and not resized */
  const int64_t* strides; /* in elements */
  void* data;             /* address of element (0,...,0) for host tensors; NULL on cuda */
  const char* device;     /* device type: "cpu", "cuda", "xla" or "xpu" (a static string) */
  int device_index;       /* the device ordinal (0 for cpu) */
  int64_t numel;
} amps_tensor_info;

/* Describes tensor [t]; MISUSE unless [t] is a tensor. */
amps_status amps_tensor_info_get(amps_vm* vm, const amps_value* t, amps_tensor_info* out);
/* Copies [t]'s elements in row-major order into [buf] ([nbytes] bytes). [dtype] is the buffer's
 * element type and must equal the tensor's, and nbytes must be numel * element size: MISUSE
 * otherwise (convert in the script with .to(dtype)). Works for every device (a host sync). */
amps_status amps_tensor_read(amps_vm* vm, const amps_value* t, amps_dtype dtype, void* buf, size_t nbytes);

/* ---------------------------------------------------------------- native functions and modules */

/* A native function: read the arguments from [call], set a result with amps_return (none when not
 * set) and return AMPS_OK; or return amps_raise(...) to raise an amps error in the script.
 * Returning the failure status of an amps_* call on the vm right after it failed (a script
 * callback that raised, an iteration error, ...) re-raises that error in the script unchanged:
 * its kind (user exception classes too), position and call stack. Any other failure status
 * becomes a RuntimeError "name() failed (STATUS): last error". The same holds for the hooks of
 * host classes (amps_class), which report their own errors with amps_fail. */
typedef amps_status (*amps_native_fn)(amps_vm* vm, amps_args* call);

/* One row of a registration table; a table ends with a row whose name is NULL. */
typedef struct amps_reg {
  const char* name;
  amps_native_fn fn;
  amps_cast_rule cast; /* applied to tensor arguments inside autocast regions, as for built-in ops */
  void* user;          /* handed to fn through amps_args_user; must outlive the vm */
} amps_reg;

/* Defines each row of [table] as a global function (visible to code run afterwards). */
amps_status amps_register_globals(amps_vm* vm, const amps_reg* table);
/* Registers module [name] for `import name`, created on first import: the table's functions
 * (table may be NULL), then [source] (may be NULL; copied), amps code run as the module body,
 * which sees those functions and whose top-level names become the module's attributes. */
amps_status amps_register_module(amps_vm* vm, const char* name, const amps_reg* table, const char* source);

/* The call's arguments: positional count, positional [i] and keyword [name] (borrowed: valid during
 * the call; NULL when out of range / absent), and the row's user pointer. */
size_t amps_arg_count(const amps_args* call);
const amps_value* amps_arg(const amps_args* call, size_t i);
const amps_value* amps_kwarg(const amps_args* call, const char* name);
/* The keyword arguments in call order: their count, and keyword [i] with its name in *name
 * (borrowed, valid during the call; NULL when out of range). */
size_t amps_kwarg_count(const amps_args* call);
const amps_value* amps_kwarg_at(const amps_args* call, size_t i, const char** name);
/* Binds the call's arguments to the [n] parameter names [params], Python-style, as the builtins
 * do: out[i] receives positional i or keyword params[i] (borrowed, valid during the call), NULL
 * when not given. Too many positionals, an unknown keyword or a duplicate raise the builtins'
 * TypeError ("fn() got an unexpected keyword argument ...", named after [fn]) on the call and
 * return AMPS_ERROR_RUNTIME, for `if (s) return s;`. */
amps_status amps_args_bind(amps_args* call, const char* fn, const char* const* params, size_t n, const amps_value** out);
void* amps_args_user(const amps_args* call);
/* Sets the call's result (borrowed; amps keeps its own reference). */
void amps_return(amps_args* call, const amps_value* v);
/* Records an amps error of [kind] ("ValueError", ...) with [message] at the call site and returns
 * AMPS_ERROR_RUNTIME, for `return amps_raise(call, ...)`. */
amps_status amps_raise(amps_args* call, const char* kind, const char* message);
/* Records an amps error of [kind] with [message] and no position as the vm's failure and returns
 * AMPS_ERROR_RUNTIME: for hooks that have no amps_args (amps_class attr and next), whose caller
 * raises it; the script construct that reached the hook (a call, a for loop) adds its position. */
amps_status amps_fail(amps_vm* vm, const char* kind, const char* message);

/* ---------------------------------------------------------------- host objects */

/* obj.name for a name that is not one of the class's methods: *out = a new handle (amps takes it
 * over), or leave *out NULL when the object has no such attribute. */
typedef amps_status (*amps_attr_fn)(amps_vm* vm, void* data, const char* name, amps_value** out);
/* The next item of an iterator object: *out = a new handle (amps takes it over), or leave *out
 * NULL when exhausted. */
typedef amps_status (*amps_next_fn)(amps_vm* vm, void* data, amps_value** out);
/* Releases an object's data when its last reference dies: on any thread, possibly during or after
 * amps_free, so it must not call into the vm. */
typedef void (*amps_drop_fn)(void* data);

/* A host class: scripts see its instances as objects of type [name]. The struct and its tables
 * are borrowed and must outlive every object of the class (static tables, typically).
 *  - methods: obj.name(...) calls the row's fn with the object as amps_arg(call, 0), the rest
 *    after it; __len__, __iter__ and __getitem__ rows make len(obj), for loops and obj[i] work,
 *    as in a script class. May be NULL.
 *  - attr: every other attribute (may be NULL: none).
 *  - next: when set, instances are iterators (for loops and amps_next call it); an iterator
 *    class has no methods and no attr.
 *  - drop: may be NULL. */
typedef struct amps_class {
  const char* name;
  const amps_reg* methods;
  amps_attr_fn attr;
  amps_next_fn next;
  amps_drop_fn drop;
} amps_class;

/* A new object of [cls] over [data], which it owns from now on (cls->drop releases it); on
 * failure (MISUSE: a NULL or inconsistent class) the host keeps [data]. */
amps_status amps_object_new(amps_vm* vm, const amps_class* cls, void* data, amps_value** out);
/* The data of [v] when it is an object of [cls] (of any host class when [cls] is NULL), else
 * NULL. Valid while [v] is held. */
void* amps_object_data(const amps_value* v, const amps_class* cls);
/* The class of [v] when it is a host object, else NULL. */
const amps_class* amps_object_class(const amps_value* v);

/* ---------------------------------------------------------------- script-class instances
 * What a pickle-like serializer needs (the stdlib's save/load of whole models): a script instance's class
 * by name, its own attributes, and a bare instance rebuilt from them. */

/* Nonzero when [v] is an instance of a script class (a `class` statement's; nn.Module subclasses,
 * optimizers, plain classes), not of a built-in type, a host class or an exception class. */
int amps_is_instance(const amps_value* v);
/* A number that is the same for two handles exactly when they hold the same heap object (Python's
 * id(); tensors, containers, instances, ...); 0 for none, bools, ints and floats. */
uint64_t amps_identity(const amps_value* v);
/* Where pickle would find the class of instance [obj]: *module receives the name of the module that
 * holds the class at its top level under its name (a registered module's first, such as "nn"; then
 * "__main__" for the main script's globals; then an imported file module's: "models" for
 * models.amps), *name the class's name (both new str handles). AttributeError (AMPS_ERROR_RUNTIME)
 * when no module holds it (a class made inside a function); MISUSE unless amps_is_instance(obj). */
amps_status amps_instance_class(amps_vm* vm, const amps_value* obj, amps_value** module, amps_value** name);
/* Where pickle finds function, builtin or class [v] by reference: the module that holds it at its top level under
 * its own name, as amps_instance_class reports a class's ("builtins" for the builtins: lstm_cell, print), and the
 * name (new str handles). An instance is found under any top-level name of a module (nn.functional's object is
 * "nn"."functional"): the receiver of a bound method such as F.relu. AttributeError
 * (AMPS_ERROR_RUNTIME) for a lambda, a function or class made inside a function, or an instance no module holds;
 * MISUSE for other values. */
amps_status amps_global_name(amps_vm* vm, const amps_value* v, amps_value** module, amps_value** name);
/* The receiver and the function of bound method [v] (obj.method; new handles); MISUSE for other values. */
amps_status amps_method_parts(amps_vm* vm, const amps_value* v, amps_value** self, amps_value** fn);
/* The value module [module] holds at its top level under [name] (as amps_global_name and amps_instance_class report
 * them: "__main__", "builtins", a registered module, imported when not yet, or an imported file module's name);
 * *out = NULL when there is none (not an error). */
amps_status amps_find_global(amps_vm* vm, const char* module, const char* name, amps_value** out);
/* The class [name] of [module] (as amps_instance_class reports them): for "__main__" the main
 * script's global, else the module's top-level name, importing a registered module that was not
 * imported yet (a file module is found only when the script imported it, from any path).
 * *out = NULL when there is no such class (not an error). */
amps_status amps_find_class(amps_vm* vm, const char* module, const char* name, amps_value** out);
/* The own attributes of instance [obj] (not its class's) in the order they were first set: a new
 * dict name -> value. MISUSE unless amps_is_instance(obj). */
amps_status amps_instance_attrs(amps_vm* vm, const amps_value* obj, amps_value** out);
/* A new instance of script class [cls] with no attributes, made WITHOUT calling its init (as
 * pickle's load does); fill it with amps_instance_set. MISUSE unless [cls] is a script class
 * (exception classes included: refused). */
amps_status amps_instance_new(amps_vm* vm, const amps_value* cls, amps_value** out);
/* Sets own attribute [name] of instance [obj] to [v] directly (no __setattr__, no property setter:
 * pickle's __dict__ update). MISUSE unless amps_is_instance(obj). */
amps_status amps_instance_set(amps_vm* vm, const amps_value* obj, const char* name, const amps_value* v);
/* obj.name = v as the script's assignment does (properties, tensor attributes, host objects);
 * AttributeError (AMPS_ERROR_RUNTIME) when [obj] does not take it. */
amps_status amps_set_attr(amps_vm* vm, const amps_value* obj, const char* name, const amps_value* v);

/* ---------------------------------------------------------------- random numbers */

/* A new stream with the interpreter's algorithm (mt19937_64): one seeded like manual_seed(seed)
 * draws what the script's generator would. Free with amps_rng_free (NULL is a no-op). */
amps_rng* amps_rng_new(uint64_t seed);
void amps_rng_free(amps_rng* rng);
/* The vm's own generator, the one manual_seed reseeds and rand/randn/shuffling draw from
 * (borrowed: valid while the vm lives; use it on the vm's thread only). */
amps_rng* amps_vm_rng(amps_vm* vm);
/* The stream of a script Generator value (torch.Generator; default_generator is the vm's own), or NULL when [v]
 * is not one (borrowed: valid while [v] is held; use it on the vm's thread only). */
amps_rng* amps_generator_rng(const amps_value* v);
/* A uniform integer in [0, n) without modulo bias (0 when n is 0), and a standard normal draw. */
uint64_t amps_rng_below(amps_rng* rng, uint64_t n);
double amps_rng_normal(amps_rng* rng);

#ifdef __cplusplus
}
#endif

#endif /* AMPS_AMPS_H */
