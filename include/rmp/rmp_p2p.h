/* rmp/rmp_p2p.h — point-to-point: blocking and nonblocking sends and receives, probes, requests, statuses,
 * generalized requests, Isendrecv, partitioned communication.
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_P2P_H
#define RMP_API_P2P_H

/* ---- Point-to-point --------------------------------------------------------------------- */
/* Messages from one sender on one communicator match in the order they were sent. A count of
 * 0 may come with RMP_DATATYPE_NULL (an empty message, as MPICH allows). */
int rmp_send(const void *buf, int count, rmp_datatype_t type, int dest, int tag, rmp_comm_t comm);
int rmp_recv(void *buf, int count, rmp_datatype_t type, int source, int tag, rmp_comm_t comm,
             rmp_status_t *status);
int rmp_isend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm, rmp_request_t *req);
int rmp_irecv(void *buf, int count, rmp_datatype_t type, int source, int tag, rmp_comm_t comm,
              rmp_request_t *req);
/* Both halves are checked before anything is posted: an invalid argument leaves every queue
 * as it was. */
int rmp_sendrecv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, rmp_datatype_t recvtype, int source,
                 int recvtag, rmp_comm_t comm, rmp_status_t *status);
/* Wait for / test a request; a completed request is freed and *req set to RMP_REQUEST_NULL
 * (a persistent one only becomes inactive: see rmp_send_init). A NULL request completes at
 * once with an empty status. The return value is the request's
 * error (e.g. RMP_ERR_TRUNCATE), also stored in status->error. */
int rmp_wait(rmp_request_t *req, rmp_status_t *status);
int rmp_test(rmp_request_t *req, int *flag, rmp_status_t *status);
/* statuses may be RMP_STATUSES_IGNORE; on RMP_ERR_IN_STATUS each status holds its error. */
int rmp_waitall(int count, rmp_request_t reqs[], rmp_status_t statuses[]);
int rmp_testall(int count, rmp_request_t reqs[], int *flag, rmp_status_t statuses[]);
/* *index = the completed request's index, or RMP_UNDEFINED if all are NULL. */
int rmp_waitany(int count, rmp_request_t reqs[], int *index, rmp_status_t *status);
/* Block until a matching message can be received; it is not received. A probe naming a
 * source that failed, with nothing of it left to receive, returns the failure (RMP_ERR_PEER or
 * RMP_ERR_TRANSPORT) instead of waiting. */
int rmp_probe(int source, int tag, rmp_comm_t comm, rmp_status_t *status);
int rmp_iprobe(int source, int tag, rmp_comm_t comm, int *flag, rmp_status_t *status);
/* Cancel a posted receive that has not matched yet, or a send, in any mode, whose message no
 * receive has matched yet (even an eager or buffered send that is complete already: its
 * message may wait unmatched at the receiver). The receiver is asked, so the wait that follows
 * needs it to make progress (any rmp call there, or its rmp_finalize, answers); rmp_cancel
 * itself returns at once. Still wait on (or free) the request afterwards: its status says
 * whether it was cancelled (rmp_test_cancelled), never both cancelled and received.
 * Otherwise the operation completes as usual. */
int rmp_cancel(rmp_request_t *req);

/* Send modes. Synchronous (ssend): completes only once the receiver has matched the message
 * (whatever its size, the data waits at the sender until a receive takes it). Ready (rsend):
 * the receive must be posted already; rmp does not check it and sends as rmp_send does, which
 * is correct for every ready send. Buffered (bsend): the data is copied into the buffer given
 * to rmp_buffer_attach and the call returns at once (an ibsend's request is complete when it
 * returns); a message needs its packed size + RMP_BSEND_OVERHEAD bytes of that buffer while it
 * is in flight, and one that does not fit, even after up to 2 s of progress for earlier ones
 * to give their space back, gives RMP_ERR_BUFFER with nothing sent (as does a bsend with no
 * buffer attached). */
int rmp_ssend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm);
int rmp_issend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req);
int rmp_rsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm);
int rmp_irsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req);
int rmp_bsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm);
int rmp_ibsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req);
#define RMP_BSEND_OVERHEAD 64
/* One buffer per process, and one per communicator (MPI-4.1 3.6): a bsend on a communicator
 * uses its own buffer when it has one, else the process's. Attaching a second one to the same
 * owner gives RMP_ERR_BUFFER (detach first). RMP_BUFFER_AUTOMATIC as buf (size ignored): rmp
 * allocates each message's space as needed. Detach waits until every buffered message has left
 * the buffer (its receiver matched it, or it was pushed eagerly) and returns the buffer's
 * address and size (NULL and 0 if none was attached; RMP_BUFFER_AUTOMATIC and 0). Flush waits
 * until the messages buffered before the call left (none attached: returns at once); iflush
 * does it as a request. Freeing a communicator detaches its buffer (its messages still go). */
#define RMP_BUFFER_AUTOMATIC ((void *)2)
int rmp_buffer_attach(void *buf, int size);
int rmp_buffer_detach(void **buf, int *size);
int rmp_buffer_flush(void);
int rmp_buffer_iflush(rmp_request_t *req);
int rmp_comm_attach_buffer(rmp_comm_t comm, void *buf, int size);
int rmp_comm_detach_buffer(rmp_comm_t comm, void **buf, int *size);
int rmp_comm_flush_buffer(rmp_comm_t comm);
int rmp_comm_iflush_buffer(rmp_comm_t comm, rmp_request_t *req);

/* Persistent requests: the arguments are checked, the datatype resolved and the peer looked up
 * once; rmp_start (or rmp_startall) then runs the operation, as often as wanted. A persistent
 * request is inactive when made and after each wait/test that completes it: the handle stays
 * valid (it is not set to RMP_REQUEST_NULL), and wait/test on an inactive one return at once
 * with an empty status. rmp_request_free frees it. Starting an active one gives
 * RMP_ERR_REQUEST. */
int rmp_send_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                  rmp_comm_t comm, rmp_request_t *req);
int rmp_ssend_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, rmp_request_t *req);
int rmp_bsend_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, rmp_request_t *req);
int rmp_rsend_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, rmp_request_t *req);
int rmp_recv_init(void *buf, int count, rmp_datatype_t type, int source, int tag,
                  rmp_comm_t comm, rmp_request_t *req);
int rmp_start(rmp_request_t *req);
/* Every request is checked (persistent, inactive, listed once) before any is started. */
int rmp_startall(int count, rmp_request_t reqs[]);

/* Free a request without waiting for it; *req becomes RMP_REQUEST_NULL. An active request
 * completes in the background (its data is sent or received as usual, its status lost) and is
 * then freed; an inactive persistent one is freed at once. A nonblocking collective's request
 * gives RMP_ERR_REQUEST (complete it with a wait or test). */
int rmp_request_free(rmp_request_t *req);

/* Wait until at least one active request completes (waitsome), or take those that completed
 * already (testsome): *outcount of them, their indices in indices[] and statuses in
 * statuses[] (which may be RMP_STATUSES_IGNORE), in index order; each is freed and reset as by
 * rmp_wait. *outcount = RMP_UNDEFINED when no request is active (all RMP_REQUEST_NULL or
 * inactive persistent). When one of them failed: RMP_ERR_IN_STATUS if statuses were given
 * (each holds its error), else the first error. */
int rmp_waitsome(int incount, rmp_request_t reqs[], int *outcount, int indices[],
                 rmp_status_t statuses[]);
int rmp_testsome(int incount, rmp_request_t reqs[], int *outcount, int indices[],
                 rmp_status_t statuses[]);

/* Matched probe: like probe, but the message found is taken out of matching and handed back
 * as *msg, so that no other receive (another thread's) can take it; only rmp_mrecv or
 * rmp_imrecv on *msg receive it (they reset *msg to RMP_MESSAGE_NULL). A probe of
 * RMP_PROC_NULL gives RMP_MESSAGE_NO_PROC, whose receive completes at once with an empty
 * status. improbe: *flag = 0 and *msg = RMP_MESSAGE_NULL when nothing matches. */
typedef struct rmp_message *rmp_message_t;
#define RMP_MESSAGE_NULL ((rmp_message_t)0)
#define RMP_MESSAGE_NO_PROC ((rmp_message_t)2)
int rmp_mprobe(int source, int tag, rmp_comm_t comm, rmp_message_t *msg, rmp_status_t *status);
int rmp_improbe(int source, int tag, rmp_comm_t comm, int *flag, rmp_message_t *msg,
                rmp_status_t *status);
int rmp_mrecv(void *buf, int count, rmp_datatype_t type, rmp_message_t *msg,
              rmp_status_t *status);
int rmp_imrecv(void *buf, int count, rmp_datatype_t type, rmp_message_t *msg,
               rmp_request_t *req);

/* Send count elements of buf to dest and receive into the same buffer (count elements of the
 * same type) from source; any size (the outgoing data is copied first). */
int rmp_sendrecv_replace(void *buf, int count, rmp_datatype_t type, int dest, int sendtag,
                         int source, int recvtag, rmp_comm_t comm, rmp_status_t *status);

/* Requests. testany: *flag = 1 with *index and *status of a completed request (reaped as by
 * rmp_test), or with *index = RMP_UNDEFINED when no request is active; else *flag = 0. */
int rmp_testany(int count, rmp_request_t reqs[], int *index, int *flag, rmp_status_t *status);
/* As rmp_test without completing: *flag = 1 and *status when the request is complete (or
 * RMP_REQUEST_NULL, or an inactive persistent request: an empty status), but the request stays
 * live and *req unchanged; a later wait, test or request_free completes it. A generalized
 * request's query callback makes the status each time. */
int rmp_request_get_status(rmp_request_t req, int *flag, rmp_status_t *status);
/* The same over arrays (MPI-4.1), every request left live: all: *flag = 1 and every status
 * when each request is complete (RMP_REQUEST_NULL and inactive persistent ones count as such),
 * else *flag = 0 and no status written; any: *flag = 1 with *index and *status of the first
 * active complete one, or with *index = RMP_UNDEFINED and an empty status when none is active,
 * else *flag = 0 and *index = RMP_UNDEFINED; some: the active complete ones' indices and
 * statuses (*outcount = RMP_UNDEFINED when none is active). A failed operation's error:
 * RMP_ERR_IN_STATUS with the statuses (all, some; its own error when they are ignored). */
int rmp_request_get_status_all(int count, rmp_request_t reqs[], int *flag,
                               rmp_status_t statuses[]);
int rmp_request_get_status_any(int count, rmp_request_t reqs[], int *index, int *flag,
                               rmp_status_t *status);
int rmp_request_get_status_some(int incount, rmp_request_t reqs[], int *outcount,
                                int indices[], rmp_status_t statuses[]);
/* Statuses: whether the operation was cancelled (also settable, for generalized requests), and
 * setting its size as count whole elements of type (count * size bytes, as MPICH and Open MPI
 * do: rmp_get_count then reports count). */
int rmp_test_cancelled(const rmp_status_t *status, int *flag);
int rmp_status_set_cancelled(rmp_status_t *status, int flag);
int rmp_status_set_elements(rmp_status_t *status, rmp_datatype_t type, long long count);
/* Generalized requests (MPI-3.1 12.2): an operation the program carries out itself, which rmp's
 * completion calls wait for like any other. query fills the status when a wait or test
 * completes the request (its return value is that call's error); free runs after query when
 * the request is freed (by that wait/test, or by rmp_request_free: then at completion);
 * cancel(extra_state, complete) runs at rmp_cancel. The callbacks run without rmp's lock held
 * (they may call rmp) and return RMP_SUCCESS or an RMP_ERR_* code. rmp_grequest_complete tells
 * rmp the operation is done (from any thread, once). */
typedef int rmp_grequest_query_fn(void *extra_state, rmp_status_t *status);
typedef int rmp_grequest_free_fn(void *extra_state);
typedef int rmp_grequest_cancel_fn(void *extra_state, int complete);
int rmp_grequest_start(rmp_grequest_query_fn *query_fn, rmp_grequest_free_fn *free_fn,
                       rmp_grequest_cancel_fn *cancel_fn, void *extra_state,
                       rmp_request_t *req);
int rmp_grequest_complete(rmp_request_t req);

/* A send and a receive started together (MPI-4.0 MPI_Isendrecv), completed by one request
 * whose status is the receive's (its error: the receive's, else the send's). The arguments are
 * checked as rmp_sendrecv's. rmp_request_free may free it while it runs, as a point-to-point
 * request (it completes in the background). */
int rmp_isendrecv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                  int source, int recvtag, rmp_comm_t comm, rmp_request_t *req);
/* The same with one buffer: the data to send is copied at the call (the buffer may be
 * received into at once); the buffer is not to be touched until completion. */
int rmp_isendrecv_replace(void *buf, int count, rmp_datatype_t type, int dest, int sendtag,
                          int source, int recvtag, rmp_comm_t comm, rmp_request_t *req);

/* ---- MPI-4: partitioned communication (MPI-4.0 ch. 4) ------------------------------------- */
/* A persistent send (receive) of `partitions` partitions of count elements of type each, the
 * i-th at buf + i * count * extent. The k-th psend init of (comm, dest, tag) matches the k-th
 * precv init of (comm, source, tag), whatever the order of the starts; the two sides may cut
 * the message into different numbers of partitions, only the total bytes must match (else
 * every round of both ends with RMP_ERR_TRUNCATE). No wildcards: RMP_ANY_SOURCE gives
 * RMP_ERR_RANK, RMP_ANY_TAG RMP_ERR_TAG; partitions < 0 RMP_ERR_ARG. rmp_start begins a round
 * (both sides start each request as often); wait/test complete it as a persistent request's
 * (the receive's status: source, tag, the total bytes); rmp_request_free frees an inactive
 * one (an active one: RMP_ERR_REQUEST); rmp_cancel does nothing to it. Each send partition
 * moves as soon as it is ready and the receiver has started the round (above 262143
 * partitions, groups of consecutive ones move together), straight into the receive buffer. */
int rmp_psend_init(const void *buf, int partitions, long long count, rmp_datatype_t type,
                   int dest, int tag, rmp_comm_t comm, rmp_request_t *req);
int rmp_precv_init(void *buf, int partitions, long long count, rmp_datatype_t type, int source,
                   int tag, rmp_comm_t comm, rmp_request_t *req);
/* Send partition(s) ready, from any thread (RMP_THREAD_MULTIPLE), in any order: partition,
 * lo..hi, or the n listed. RMP_ERR_REQUEST: not an active partitioned send; RMP_ERR_ARG: a
 * partition out of range (range, list: none is marked), lo > hi, or one already ready in this
 * round (those before it are marked). */
int rmp_pready(int partition, rmp_request_t req);
int rmp_pready_range(int lo, int hi, rmp_request_t req);
int rmp_pready_list(int n, const int partitions[], rmp_request_t req);
/* *flag = 1 when every byte of receive partition `partition` is in the buffer (or the
 * request is inactive), else 0 after one pass of progress. RMP_ERR_REQUEST: not a
 * partitioned receive; RMP_ERR_ARG: partition out of range, flag NULL. */
int rmp_parrived(rmp_request_t req, int partition, int *flag);

#endif
