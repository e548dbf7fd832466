/* rmp/mpi_comm.h — communicators' side of the MPI binding's constants and types: user reductions,
 * windows, intercommunicators, communicator creation, names, info objects, attributes.
 * Part of mpi.h, which includes it after the handle types, constants and error classes
 * (never on its own). */
#ifndef RMP_MPI_COMM_H
#define RMP_MPI_COMM_H

/* ---- User-defined reductions ------------------------------------------------------------ */
/* void fn(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype): inoutvec[i] =
 * invec[i] op inoutvec[i] for *len elements (MPI_Datatype is rmp_datatype_t). */
typedef rmp_user_function MPI_User_function;
/* MPI-4.0's large-count form (MPI_Op_create_c): *len is an MPI_Count (long long). */
typedef rmp_user_function_c MPI_User_function_c;

/* ---- OSU micro-benchmark support: names, windows and one-sided, topologies, neighbourhood ---
 * (What the OSU micro-benchmarks' shared utility code refers to, so that their programs build
 * unchanged with rmpcc/rmpicxx.) */
#define MPI_MAX_OBJECT_NAME RMP_MAX_OBJECT_NAME

/* Windows (MPI-3.1 ch. 11): creation and free are collectives (every rank's base, size and
 * displacement unit are exchanged; MPI_Win_allocate allocates, MPI_Win_free waits for all
 * ranks and frees). info: hints, kept (MPI_Win_get_info). Creation errors are raised on the
 * communicator's handler, the others on the window's once the program set one
 * (MPI_Win_set_errhandler), else (and for an invalid window) on MPI_COMM_WORLD's. */
typedef rmp_win_t MPI_Win;
#define MPI_WIN_NULL ((MPI_Win)RMP_WIN_NULL)

/* Synchronization. The asserts are rmp's values (an OR of them, 0 for none); a bit a call does
 * not accept (fence: NOSTORE, NOPUT, NOPRECEDE, NOSUCCEED; post: NOCHECK, NOSTORE, NOPUT;
 * start, lock, lock_all: NOCHECK) raises MPI_ERR_ASSERT, a lock type other than the two
 * MPI_ERR_LOCKTYPE (MPICH 4.0.2 raises MPI_ERR_ARG for both). Lock, unlock, flush and
 * flush_local of MPI_PROC_NULL do nothing, as in MPICH. A second lock of one target, an
 * unlock without lock, a complete without start...: MPI_ERR_RMA_SYNC. */
#define MPI_MODE_NOCHECK RMP_MODE_NOCHECK
#define MPI_MODE_NOSTORE RMP_MODE_NOSTORE
#define MPI_MODE_NOPUT RMP_MODE_NOPUT
#define MPI_MODE_NOPRECEDE RMP_MODE_NOPRECEDE
#define MPI_MODE_NOSUCCEED RMP_MODE_NOSUCCEED
#define MPI_LOCK_EXCLUSIVE RMP_LOCK_EXCLUSIVE
#define MPI_LOCK_SHARED RMP_LOCK_SHARED

/* Process topologies (MPI_Comm_dup copies them). reorder is ignored (ranks keep their
 * order); MPI_Cart_create gives MPI_COMM_NULL to the ranks past the grid; MPI_Cart_rank wraps
 * periodic dimensions and raises MPI_ERR_RANK off a non-periodic one. */
#define MPI_CART RMP_CART
#define MPI_DIST_GRAPH RMP_DIST_GRAPH
#define MPI_UNWEIGHTED RMP_UNWEIGHTED
#define MPI_WEIGHTS_EMPTY RMP_WEIGHTS_EMPTY

/* ---- Intercommunicators ------------------------------------------------------------------ */
#define MPI_ROOT RMP_ROOT

/* ---- Communicator creation, names, info objects, attributes, error classes --------------- */
/* -- attributes and error classes -- */
/* Attribute caching (MPI-3.1 6.7) on communicators, datatypes and windows. The callbacks have
 * MPI signatures, so the MPI layer holds keyvals and attributes (rmp's native API has none).
 * Copy callbacks run at MPI_Comm_dup (and MPI_Type_dup), in the order the attributes were
 * set; a copy callback's error makes the dup fail with that error (the new handle is then
 * MPI_COMM_NULL). Delete callbacks run at delete_attr, when set_attr replaces a value, and
 * when the object is freed (in the reverse order of setting; MPI_Finalize frees
 * MPI_COMM_SELF's, then MPI_COMM_WORLD's). A delete callback's error is returned and the
 * attribute stays. A freed keyval stays valid for the attributes still holding it. Keyvals of
 * one kind of object give MPI_ERR_KEYVAL on another, as do freed, invalid and (for set,
 * delete and free) predefined keyvals. */
#define MPI_KEYVAL_INVALID (-1)
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval,
                                        void *extra_state, void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out,
                                       int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
                                         void *extra_state);
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val,
                                void *extra_state);
/* The predefined callbacks (functions, as MPI-3.1 6.7.2 declares them): null copy sets
 * *flag = 0 (not copied); dup sets *(void **)attribute_val_out = attribute_val_in and
 * *flag = 1; null delete does nothing. */
int MPI_NULL_COPY_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                     void *attribute_val_out, int *flag);
int MPI_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
               void *attribute_val_out, int *flag);
int MPI_NULL_DELETE_FN(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                          void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in,
                    void *attribute_val_out, int *flag);
int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int comm_keyval, void *attribute_val,
                            void *extra_state);
int MPI_TYPE_NULL_COPY_FN(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                          void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_TYPE_DUP_FN(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                    void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                            void *extra_state);
int MPI_WIN_NULL_COPY_FN(MPI_Win oldwin, int win_keyval, void *extra_state,
                         void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_WIN_DUP_FN(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in,
                   void *attribute_val_out, int *flag);
int MPI_WIN_NULL_DELETE_FN(MPI_Win win, int win_keyval, void *attribute_val, void *extra_state);

/* Predefined attributes (read-only; get_attr's attribute_val receives a pointer to an int,
 * except MPI_WIN_BASE: the base itself, and MPI_WIN_SIZE: a pointer to an MPI_Aint).
 * Communicator ones, on every communicator: MPI_TAG_UB (RMP_TAG_UB), MPI_HOST
 * (MPI_PROC_NULL), MPI_IO (MPI_ANY_SOURCE: every rank can do I/O), MPI_WTIME_IS_GLOBAL (0),
 * MPI_UNIVERSE_SIZE (the size of MPI_COMM_WORLD), MPI_APPNUM (0), MPI_LASTUSEDCODE (the last
 * code MPI_Add_error_class/code made, MPI_ERR_LASTCODE before any). Window ones: what the
 * calling rank gave at creation (a dynamic window: MPI_BOTTOM, 0 and 1), the flavor, and
 * MPI_WIN_UNIFIED. */
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_LASTUSEDCODE 6
#define MPI_APPNUM 7
#define MPI_WIN_BASE 8
#define MPI_WIN_SIZE 9
#define MPI_WIN_DISP_UNIT 10
#define MPI_WIN_CREATE_FLAVOR 11
#define MPI_WIN_MODEL 12
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

/* User error classes, codes and strings (MPI-3.1 8.5): new classes and codes are numbered
 * from MPI_ERR_LASTCODE + 1 up (MPI_LASTUSEDCODE tells the last); MPI_Error_class and
 * MPI_Error_string know them (a code or class with no string added has the string "").
 * Strings may be added only to user codes and classes (else MPI_ERR_ARG), and must be
 * shorter than MPI_MAX_ERROR_STRING. */
#define MPI_ERR_LASTCODE 127

/* User error handlers (MPI-3.1 8.3): called with the communicator (window) and the error
 * code when a call on it fails, then the call returns the code. A handler is refcounted: a
 * communicator or window using it keeps it alive after MPI_Errhandler_free, and a new
 * communicator inherits its parent's. MPI_Comm_get_errhandler returns a new reference (free
 * it). A window has no handler of its own until MPI_Win_set_errhandler: MPI_COMM_WORLD's
 * takes its errors (as in MPICH) and MPI_Win_get_errhandler reports that one.
 * MPI_Comm_call_errhandler and MPI_Win_call_errhandler return MPI_SUCCESS once the handler
 * returned (MPI_ERRORS_RETURN: at once). */
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Comm_errhandler_function MPI_Handler_function; /* MPI-1 name */
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *error_code, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;

/* -- info objects, names, communicator creation -- */
/* Info objects (MPI-3.1 ch. 9; errors raised on MPI_COMM_WORLD's handler). Keys of 1 to
 * MPI_MAX_INFO_KEY characters (else MPI_ERR_INFO_KEY), values of 1 to MPI_MAX_INFO_VAL (else
 * MPI_ERR_INFO_VALUE), compared exactly; MPI_Info_get_nthkey lists keys in the order they were
 * first set. MPI_Info_get copies at most valuelen characters and a NUL (value holds
 * valuelen + 1 bytes). MPI_INFO_ENV (read-only: set, delete and free raise MPI_ERR_INFO) holds
 * "command", "argv" (when the program had arguments), "maxprocs" (the size of
 * MPI_COMM_WORLD), "host", "arch", "wdir" and "thread_level". */
#define MPI_INFO_ENV ((MPI_Info)RMP_INFO_ENV)
#define MPI_MAX_INFO_KEY RMP_MAX_INFO_KEY
#define MPI_MAX_INFO_VAL RMP_MAX_INFO_VAL

#endif
