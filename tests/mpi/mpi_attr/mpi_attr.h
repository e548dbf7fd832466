/* mpi_attr.h — what the files of the mpi_attr program share: the log the callbacks write
 * (mpi_attr.c), the error-class expectation, and each file's cases, called from main. */
#ifndef RMP_TEST_MPI_ATTR_H
#define RMP_TEST_MPI_ATTR_H

#include "../mpicheck.h"

#define LOGMAX 64
typedef struct logent {
    char what; /* 'c' copy, 'd' delete */
    int obj, keyval;
    void *val;
} logent_t;
extern logent_t logv[LOGMAX];
extern int nlog;

void expect_class(const char *what, int rc, int cls);
void log_call(char what, int obj, int keyval, void *val);
int delete_log(MPI_Comm comm, int keyval, void *val, void *extra);
int type_delete_log(MPI_Datatype t, int keyval, void *val, void *extra);
int win_delete_log(MPI_Win w, int keyval, void *val, void *extra);
void expect_log(int i, char what, int obj, int keyval, void *val);

void failing_callbacks(void); /* errors.c */
void double_free(void);
void invalid(void);
void types(void); /* objects.c */
void windows(void);
void delete_in_callbacks(void);
void threads(void);

#endif
