# rmp — GNU make build. `make` builds lib/librmp.{so,a}, bin/mrun, lib/pkgconfig/rmp.pc;
# `make check` runs every test (unit, integration under mrun, sanitizer reruns, verbs in the
# soft-RoCE VM); `make demo` runs an example allreduce with `mrun -n 4`.
# Variants: VARIANT=release (default, outputs in lib/ bin/), asan, tsan (outputs in build/VARIANT).

# `make` alone builds `all`: rules above its own (the MPI objects' generated headers) must not
# become the default goal (they did: plain `make` built one object file).
.DEFAULT_GOAL := all

VARIANT ?= release
CC ?= cc
PREFIX ?= /usr/local
VERSION := 0.1.0

PMIX_CFLAGS := $(shell pkg-config --cflags pmix 2>/dev/null)
PMIX_LIBS := $(shell pkg-config --libs pmix 2>/dev/null || echo -lpmix)

# What a build needs that `make deps` installs, as "Debian package:pkg-config module" pairs.
# Checked only by the targets that compile (need-build-deps, need-test-deps below), so that
# deps, clean, demo and check still start on a fresh machine; `=`, not `:=`: asked only then.
BUILD_DEPS := libpmix-dev:pmix libibverbs-dev:libibverbs librdmacm-dev:librdmacm
TEST_DEPS := libcriterion-dev:criterion
missing_pkgs = $(if $(shell command -v pkg-config),$(foreach d,$(1),$(if \
  $(shell pkg-config --exists $(lastword $(subst :, ,$(d))) && echo y),,$(firstword \
  $(subst :, ,$(d))))),pkg-config)
# One line naming what is missing, then make stops (before anything compiles).
deps_error = $(if $(strip $(1)),$(error rmp: $(subst $(space),$(comma)$(space),$(strip \
  $(1))) $(if $(word 2,$(1)),are,is) missing: run 'make deps' (or 'make demo') first))
comma := ,
space := $() $()

WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
# runtime/ is grouped by concern in subfolders (p2p, datatype, request, boot, util, prof; the
# transports apart): each is on the include path, so "core.h", "match.h", ... resolve anywhere.
RUNTIME_DIRS := runtime $(filter-out runtime/transport,$(patsubst %/,%,$(wildcard runtime/*/)))
# The headers generated from the API's descriptions (mpi_proto.h, pmpi.h): made in the build
# tree (one for every variant: their text does not depend on it), installed beside mpi.h.
GEN_RMP := build/include/rmp
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -g -fPIC $(WARN) -Iinclude -I$(GEN_RMP) $(RUNTIME_DIRS:%=-I%) -Icomm $(PMIX_CFLAGS)

ifeq ($(VARIANT),release)
  OUT := .
  # -O3 (as Open MPI and UCX build): 12 % fewer instructions per small message than -O2
  # (callgrind, rmp-bench msgrate 8 B: 770 -> 681 sent, 795 -> 704 received), from inlining
  # the short helpers of the message path within each file.
  OPT := -O3
  SAN :=
else ifeq ($(VARIANT),asan)
  OUT := build/asan
  OPT := -O1 -fno-omit-frame-pointer
  SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
else ifeq ($(VARIANT),tsan)
  OUT := build/tsan
  OPT := -O1 -fno-omit-frame-pointer
  # gcc warns that TSan does not model atomic_thread_fence; shm's doorbell fences order only
  # atomics (see bell_ring), so the warning is off where the compiler has it.
  SAN := -fsanitize=thread $(shell $(CC) -Werror -Wno-tsan -E -x c /dev/null >/dev/null 2>&1 && echo -Wno-tsan)
else
  $(error VARIANT must be release, asan or tsan)
endif

CFLAGS_ALL := $(BASE_CFLAGS) $(OPT) $(SAN) $(CFLAGS)
LDFLAGS_ALL := $(SAN) $(LDFLAGS)
OBJ := build/$(VARIANT)/obj
LIBS := $(PMIX_LIBS) -libverbs -lrdmacm -lpthread -lm

LIB_SRC := $(wildcard runtime/*.c runtime/*/*.c runtime/transport/*/*.c comm/*.c collectives/*.c rma/*.c io/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(OBJ)/%.o)
# Only the API leaves the library. Library objects are compiled with hidden visibility, and
# mk/visibility.h includes include/rmp.h first under default visibility: whatever rmp.h declares
# is exported, everything else (comm_get, op_check, rmp_ctx, ...) stays internal, with no list
# to keep in step with the header. librmp.so exports only those; librmp.a is one object made by
# `ld -r` over all objects with the hidden symbols made local, so a program may define any
# name the library uses inside. Internal calls need no PLT either.
$(LIB_OBJ): LIB_CFLAGS := -fvisibility=hidden -include mk/visibility.h
# All library objects with their internal symbols global: for the unit tests (and other tests
# of internals), never installed.
INTERNAL := build/$(VARIANT)/librmp-internal.a
# The MPI layer (mpi/, include/rmp/mpi.h) is a library of its own over librmp, exported the
# same way: what mpi.h declares leaves it, its helpers (rmpi_*) stay inside.
MPI_SRC := $(wildcard mpi/*.c)
# ... and the glue tools/gen-api generates from api/mpi.api (the forwarding _c forms).
MPI_OBJ := $(MPI_SRC:%.c=$(OBJ)/%.o) $(OBJ)/mpi/api_glue.o
# The profiling interface (MPI-3.1 14.2), generated from mpi.h by tools/gen-pmpi with no list
# to keep: pmpi.h (in $(GEN_RMP)) declares PMPI_X for every MPI_X; the layer's sources, written
# with MPI_ names, are compiled with `#define MPI_X PMPI_X` force-included after mpi.h, so
# they define PMPI_X and call PMPI_X among themselves (a tool's MPI_X never sees rmp's inner
# calls); the `ld -r` of librmp-mpi then adds each MPI_X as an alias of PMPI_X, made weak so
# that a program's own MPI_X wins over librmp-mpi.a's without a duplicate-symbol error.
PMPI_H := $(GEN_RMP)/pmpi.h
PMPI_GEN := $(OBJ)/mpi/pmpi
# The one description of the API (api/mpi.api, api/README.md): tools/gen-api writes the
# prototypes mpi.h includes (mpi_proto.h, in $(GEN_RMP): installed and read like mpi.h).
API := api/mpi.api
API_GEN := tools/gen-api tools/apilib.py
PROTO_H := $(GEN_RMP)/mpi_proto.h
$(MPI_OBJ): LIB_CFLAGS := -fvisibility=hidden -include mpi/visibility.h -include $(PMPI_GEN)-rename.h
$(MPI_OBJ): $(PMPI_GEN)-rename.h $(PMPI_H)
MRUN_SRC := $(wildcard launcher/*.c)
MRUN_OBJ := $(MRUN_SRC:%.c=$(OBJ)/%.o)
EX_SRC := $(wildcard examples/*.c)
EX_BIN := $(EX_SRC:examples/%.c=$(OUT)/bin/examples/%)
PROG_SRC := $(wildcard tests/progs/*.c)
PROG_BIN := $(PROG_SRC:tests/progs/%.c=build/$(VARIANT)/tests/progs/%)
MPIPROG_SRC := $(wildcard tests/mpi/*.c)
MPIPROG_BIN := $(MPIPROG_SRC:tests/mpi/%.c=build/$(VARIANT)/tests/mpi/%)
UNIT_SRC := $(wildcard tests/unit/*.c)
INTEG_SRC := $(wildcard tests/integration/*.c)
TESTS := build/$(VARIANT)/tests

BENCH_SRC := $(wildcard bench/rmp-bench/*.c)
BENCH := $(if $(BENCH_SRC),$(OUT)/bin/rmp-bench)

STATIC := $(OUT)/lib/librmp.a
SHARED := $(OUT)/lib/librmp.so
MRUN := $(OUT)/bin/mrun
MPI_STATIC := $(OUT)/lib/librmp-mpi.a
MPI_SHARED := $(OUT)/lib/librmp-mpi.so
RMPCC := $(OUT)/bin/rmpcc
RMPICXX := $(OUT)/bin/rmpicxx
# rmpicxx's C++ compiler: CXX when given, else the C++ driver of CC's family.
RMPICXX_CXX := $(if $(filter default,$(origin CXX)),$(if $(findstring clang,$(CC)),clang++,g++),$(CXX))
RMPINFO := $(OUT)/bin/rmp-info
RMPPROF := $(OUT)/bin/rmp-prof

.PHONY: deps all lib mpi check check-unit check-integration check-asan check-tsan check-vm check-cluster check-soak demo \
        install uninstall clean tests format bench

all: $(STATIC) $(SHARED) $(MRUN) $(OUT)/lib/pkgconfig/rmp.pc $(EX_BIN) $(BENCH) mpi $(RMPINFO) \
     $(RMPPROF)
lib: $(STATIC) $(SHARED)
mpi: $(MPI_STATIC) $(MPI_SHARED) $(RMPCC) $(OUT)/bin/rmpicc $(RMPICXX) $(OUT)/bin/rmpic++ \
     $(OUT)/lib/pkgconfig/rmp-mpi.pc

# Objects depend on the Makefile too: a change of flags (visibility, warnings) rebuilds them.
# (Any source may include mpi.h: the generated headers it includes come first.)
$(OBJ)/%.o: %.c Makefile | need-build-deps $(PMPI_H)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

.PHONY: need-build-deps need-test-deps
need-build-deps:
	$(call deps_error,$(call missing_pkgs,$(BUILD_DEPS)))
need-test-deps:
	$(call deps_error,$(call missing_pkgs,$(BUILD_DEPS) $(TEST_DEPS)))

$(OBJ)/librmp-all.o: $(LIB_OBJ)
	$(LD) -r -o $@ $^

$(STATIC): $(OBJ)/librmp-all.o
	@mkdir -p $(dir $@)
	objcopy --localize-hidden $< $(OBJ)/librmp.o
	rm -f $@ && ar rcs $@ $(OBJ)/librmp.o

# One member, as librmp.a: a program that uses comm/ alone still gets the collectives that
# comm/ runs through the table collectives/comm_serve.c fills at load (comm/comm_coll.h).
$(INTERNAL): $(OBJ)/librmp-all.o
	rm -f $@ && ar rcs $@ $<

# librmp.so.0 is the file (its soname, what programs load), librmp.so the link-time name.
$(SHARED).0: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,librmp.so.0 $(LDFLAGS_ALL) -o $@ $^ $(LIBS)

$(SHARED): $(SHARED).0
	ln -sf librmp.so.0 $@

# accept goes into mrun's dynamic symbol table so that libpmix's listener calls mrun's own,
# which admits only the job's uid (launcher/guard.c).
$(MRUN): $(MRUN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS_ALL) -Wl,--export-dynamic-symbol=accept -o $@ $^ $(PMIX_LIBS)

# mpi_proto.h and pmpi.h are made here, never committed (generated code is not source: a
# committed copy went stale at every merge that changed the API); rewritten only when their
# text changes, so that objects are not rebuilt for nothing.
$(PROTO_H): $(API) $(API_GEN)
	@mkdir -p $(dir $@)
	tools/gen-api proto $(API) > $@.tmp.$$$$ && \
	  if cmp -s $@.tmp.$$$$ $@; then rm -f $@.tmp.$$$$; touch $@; else mv $@.tmp.$$$$ $@; fi
$(OBJ)/mpi/api_glue.c: $(API) $(API_GEN) tools/apiglue.py
	@mkdir -p $(dir $@)
	tools/gen-api glue $(API) > $@.tmp && mv $@.tmp $@
$(OBJ)/mpi/api_glue.o: $(OBJ)/mpi/api_glue.c Makefile | need-build-deps
	$(CC) $(CFLAGS_ALL) $(LIB_CFLAGS) -Impi -MMD -MP -c $< -o $@
# (mpi.h includes the other headers of include/rmp/: a call added to one has its PMPI_ too)
$(PMPI_H): $(wildcard include/rmp/*.h) $(PROTO_H) tools/gen-pmpi
	tools/gen-pmpi header "$(CC) -I$(GEN_RMP)" include/rmp/mpi.h > $@.tmp.$$$$ && \
	  if cmp -s $@.tmp.$$$$ $@; then rm -f $@.tmp.$$$$; touch $@; else mv $@.tmp.$$$$ $@; fi
$(PMPI_GEN)-rename.h: $(PMPI_H) tools/gen-pmpi
	@mkdir -p $(dir $@)
	tools/gen-pmpi rename $< > $@.tmp && mv $@.tmp $@
$(PMPI_GEN)-names: $(PMPI_H) tools/gen-pmpi
	@mkdir -p $(dir $@)
	tools/gen-pmpi names $< > $@.tmp && mv $@.tmp $@

# RMP_PROFILE's timing of each call: MPI_X defined as a call of PMPI_X (gen-pmpi wrap), with
# MPI's own names (no rename), exported like the layer's; alias skips the names it defines.
$(PMPI_GEN)-wrap.c: $(PMPI_H) tools/gen-pmpi
	@mkdir -p $(dir $@)
	tools/gen-pmpi wrap $< > $@.tmp && mv $@.tmp $@
$(PMPI_GEN)-wrap.o: $(PMPI_GEN)-wrap.c Makefile
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden -include mpi/visibility.h -c $< -o $@

# One object for both libraries: the MPI_X aliases (weak), the helpers' hidden names local.
$(OBJ)/librmp-mpi-all.o: $(MPI_OBJ) $(PMPI_GEN)-wrap.o $(PMPI_H) tools/gen-pmpi
	$(LD) -r -o $(OBJ)/librmp-mpi-pmpi.o $(MPI_OBJ) $(PMPI_GEN)-wrap.o
	tools/gen-pmpi alias $(PMPI_H) $(OBJ)/librmp-mpi-pmpi.o > $(PMPI_GEN)-alias.ld
	$(LD) -r -o $@ $(OBJ)/librmp-mpi-pmpi.o $(PMPI_GEN)-alias.ld
$(OBJ)/librmp-mpi.o: $(OBJ)/librmp-mpi-all.o $(PMPI_GEN)-names
	objcopy --localize-hidden --weaken-symbols=$(PMPI_GEN)-names $< $@

$(MPI_STATIC): $(OBJ)/librmp-mpi.o
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $<

# librmp-mpi.so.0 needs librmp.so.0, found beside it wherever both are ($ORIGIN).
$(MPI_SHARED).0: $(OBJ)/librmp-mpi.o $(SHARED)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,librmp-mpi.so.0 -Wl,-rpath,'$$ORIGIN' $(LDFLAGS_ALL) -o $@ \
	  $< -L$(OUT)/lib -lrmp -lpthread

$(MPI_SHARED): $(MPI_SHARED).0
	ln -sf librmp-mpi.so.0 $@

# rmpcc for a compiler, include directory and library directory:
# $(call rmpcc_text,INCDIR,LIBDIR[,GENINC]). The libraries librmp needs are baked in for static
# links. GENINC, the build tree's generated headers (installed ones sit in INCDIR/rmp).
rmpcc_text = sed -e 's|@CC@|$(CC)|' -e 's|@INCDIR@|$(1)|' -e 's|@LIBDIR@|$(2)|' -e 's|@GENINC@|$(3)|' \
  -e 's|@VERSION@|$(VERSION)|' -e 's|@LIBS@|$(LIBS)|' tools/rmpcc.in

# The build tree's rmpcc uses the tree's headers and this variant's libraries.
$(RMPCC): tools/rmpcc.in Makefile
	@mkdir -p $(dir $@)
	$(call rmpcc_text,$(abspath include),$(abspath $(OUT)/lib),$(abspath $(GEN_RMP))) > $@.tmp
	chmod 755 $@.tmp && mv $@.tmp $@
$(OUT)/bin/rmpicc: $(RMPCC)
	ln -sf rmpcc $@
$(RMPICXX): tools/rmpicxx.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@CXX@|$(RMPICXX_CXX)|' tools/rmpicxx.in > $@.tmp
	chmod 755 $@.tmp && mv $@.tmp $@
$(OUT)/bin/rmpic++: $(RMPICXX)
	ln -sf rmpicxx $@

# rmp-info reads the knob table and the runtime's internals: it links the internal archive.
$(RMPINFO): tools/rmp-info.c $(INTERNAL) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DRMP_INFO_CC='"$(CC)"' -DRMP_INFO_VARIANT='"$(VARIANT)"' \
	  -DRMP_INFO_CFLAGS='"$(strip $(OPT) $(SAN) $(CFLAGS))"' $(RMPINFO_FORTRAN) $(LDFLAGS_ALL) -o $@ $< \
	  $(INTERNAL) $(LIBS)

# rmp-prof reads a report's files: libc only.
$(RMPPROF): tools/rmp-prof.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $<

# rmp-mpi.pc: $(call mpipc_text,PREFIX,INCLUDEDIR[,GENINC]); librmp's flags come from Requires: rmp.
mpipc_text = printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=%s\n\nName: rmp-mpi\nDescription: the MPI-3.1 subset of rmp (rmp/mpi.h)\nVersion: %s\nRequires: rmp\nCflags: -I$${includedir}/rmp%s\nLibs: -L$${libdir} -Wl,-rpath,$${libdir} -lrmp-mpi\nLibs.private: -lpthread\n' '$(1)' '$(2)' '$(VERSION)' '$(if $(3), -I$(3))'

$(OUT)/lib/pkgconfig/rmp-mpi.pc: Makefile
	@mkdir -p $(dir $@)
	$(call mpipc_text,$(abspath $(OUT)),$(abspath include),$(abspath $(GEN_RMP))) > $@

# rmp.pc for a prefix and include directory: $(call pc_text,PREFIX,INCLUDEDIR). The build tree's
# headers stay in include/ for every variant; an installed one is $${prefix}/include.
pc_text = printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=%s\n\nName: rmp\nDescription: rmp message-passing runtime\nVersion: %s\nRequires.private: pmix libibverbs librdmacm\nCflags: -I$${includedir}\nLibs: -L$${libdir} -Wl,-rpath,$${libdir} -lrmp\nLibs.private: -lpthread -lm\n' '$(1)' '$(2)' '$(VERSION)'

$(OUT)/lib/pkgconfig/rmp.pc: Makefile
	@mkdir -p $(dir $@)
	$(call pc_text,$(abspath $(OUT)),$(abspath include)) > $@

# Programs link the static library so a build tree needs no LD_LIBRARY_PATH.
$(OUT)/bin/examples/%: examples/%.c $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $< $(STATIC) $(LIBS)

$(OUT)/bin/rmp-bench: $(BENCH_SRC) $(wildcard bench/rmp-bench/*.h) $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Ibench/rmp-bench $(LDFLAGS_ALL) -o $@ $(BENCH_SRC) $(STATIC) $(LIBS)

# The same benchmark sources built against an installed MPI (bench/compare runs them), with
# the optimization rmp-bench's own sources get in a release build: only the libraries differ.
BENCH_OPT := -O3
BENCH_MPIS := $(foreach m,openmpi mpich,$(if $(shell command -v mpicc.$(m)),build/bench/osu-like-$(m)))
POLL_RING := build/bench/poll-ring-rmp $(if $(shell command -v mpicc.openmpi),build/bench/poll-ring-openmpi)
bench: $(BENCH) $(BENCH_MPIS) build/bench/osu-like-rmp-mpi build/bench/floor $(POLL_RING)
# Waiting by polling (bench/poll-ring.c), one source for rmp and Open MPI.
build/bench/poll-ring-rmp: bench/poll-ring.c $(MPI_SHARED) $(RMPCC) Makefile
	@mkdir -p $(dir $@)
	$(RMPCC) -static-rmp -std=c11 -D_GNU_SOURCE $(BENCH_OPT) $(WARN) -o $@ $<
build/bench/poll-ring-openmpi: bench/poll-ring.c Makefile
	@mkdir -p $(dir $@)
	mpicc.openmpi -std=c11 -D_GNU_SOURCE $(BENCH_OPT) $(WARN) -o $@ $<
# The shared-memory latency floor of this machine (bench/floor.c), recorded by bench/compare.
build/bench/floor: bench/floor.c Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(BENCH_OPT) $(WARN) -o $@ $<
# ... and through rmp's own mpi.h (rmpcc, librmp-mpi): the "rmp-mpi" column of bench/compare,
# which shows what the MPI layer costs over the native API (both link rmp statically).
build/bench/osu-like-rmp-mpi: $(BENCH_SRC) $(wildcard bench/rmp-bench/*.h) $(MPI_SHARED) $(RMPCC) Makefile
	@mkdir -p $(dir $@)
	$(RMPCC) -static-rmp -std=c11 -D_GNU_SOURCE $(BENCH_OPT) $(WARN) -DBENCH_MPI -Ibench/rmp-bench -o $@ \
	  $(BENCH_SRC)
build/bench/osu-like-%: $(BENCH_SRC) $(wildcard bench/rmp-bench/*.h) Makefile
	@mkdir -p $(dir $@)
	mpicc.$* -std=c11 -D_GNU_SOURCE $(BENCH_OPT) $(WARN) -DBENCH_MPI -Ibench/rmp-bench -o $@ $(BENCH_SRC)

# A program that plays a hostile peer (hostile.c) drives the runtime's internals, which
# librmp.a no longer exports: it links the internal archive instead.
$(TESTS)/progs/hostile: tests/progs/hostile.c $(INTERNAL) $(wildcard tests/progs/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/progs $(LDFLAGS_ALL) -o $@ $< $(INTERNAL) $(LIBS)

$(TESTS)/progs/rndv_failed: tests/progs/rndv_failed.c $(INTERNAL) $(wildcard tests/progs/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/progs $(LDFLAGS_ALL) -o $@ $< $(INTERNAL) $(LIBS)

# The collective I/O engine's test calls io_coll_access, internal to the library.
$(TESTS)/progs/io_coll: tests/progs/io_coll.c $(INTERNAL) $(wildcard tests/progs/*.h io/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/progs $(LDFLAGS_ALL) -o $@ $< $(INTERNAL) $(LIBS)

# As with tests/mpi: a long program's other files are tests/progs/<prog>/*.c.
$(TESTS)/progs/%: tests/progs/%.c $(STATIC) $(wildcard tests/progs/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/progs $(LDFLAGS_ALL) -o $@ $(filter %.c,$^) $(STATIC) $(LIBS)
$(foreach p,$(PROG_SRC:tests/progs/%.c=%),$(if $(wildcard tests/progs/$(p)/*.c),\
  $(eval $(TESTS)/progs/$(p): $(wildcard tests/progs/$(p)/*.c tests/progs/$(p)/*.h))))

# The transport contract cases (tests/contract) run in the unit tests (self, shm) and, as the
# program tests/contract, in the VM (verbs: tests/vm/run-verbs-suite contract).
CONTRACT_SRC := tests/contract/contract.c tests/contract/ct_run.c tests/contract/contract_rma.c
CONTRACT_DEPS := $(CONTRACT_SRC) tests/contract/contract.h tests/contract/ct_harness.h
$(TESTS)/unit: $(UNIT_SRC) $(CONTRACT_DEPS) $(INTERNAL) | need-test-deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/contract $(LDFLAGS_ALL) -o $@ $(UNIT_SRC) $(CONTRACT_SRC) \
	  $(INTERNAL) $(LIBS) -lcriterion

$(TESTS)/contract: tests/contract/main.c $(CONTRACT_DEPS) $(INTERNAL)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/contract $(LDFLAGS_ALL) -o $@ tests/contract/main.c \
	  $(CONTRACT_SRC) $(INTERNAL) $(LIBS)

# A program that defines every internal name of the library (the global symbols of its
# objects minus the exported ones, listed anew at each build), linked against librmp.a and
# librmp.so: tests/integration/test_packaging.c runs both under mrun.
$(TESTS)/packaging/clash_defs.c: tests/packaging/gen-clash-defs.sh $(STATIC)
	@mkdir -p $(dir $@)
	tests/packaging/gen-clash-defs.sh $(OBJ)/librmp-all.o $(STATIC) > $@.tmp && mv $@.tmp $@
$(TESTS)/progs/clash-static: tests/packaging/clash.c $(TESTS)/packaging/clash_defs.c $(STATIC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $(filter %.c,$^) $(STATIC) $(LIBS)
$(TESTS)/progs/clash-shared: tests/packaging/clash.c $(TESTS)/packaging/clash_defs.c $(SHARED)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $(filter %.c,$^) -L$(OUT)/lib \
	  -Wl,-rpath,$(abspath $(OUT)/lib) -lrmp $(LIBS)
CLASH_BIN := $(TESTS)/progs/clash-static $(TESTS)/progs/clash-shared

# The integration driver only starts mrun and reads its output; under TSan it is built without
# the sanitizer, because Criterion's runner cannot start under TSan (Snaipe/Criterion#274). The
# programs it drives (mrun and the ranks) are still TSan builds.
INTEG_SAN := $(if $(filter tsan,$(VARIANT)),,$(SAN))
# runtime/util/knobs.c (libc only) is linked in so that the rmp-info test knows every knob.
$(TESTS)/integration: $(INTEG_SRC) $(wildcard tests/integration/*.h) runtime/util/knobs.c \
                      runtime/util/knobs.h | need-test-deps
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(OPT) $(INTEG_SAN) $(CFLAGS) -Itests/integration $(INTEG_SAN) $(LDFLAGS) \
	  -DRMP_TEST_MRUN='"$(abspath $(MRUN))"' -DRMP_TEST_PROGS='"$(abspath $(TESTS)/progs)"' \
	  -DRMP_TEST_MPIPROGS='"$(abspath $(TESTS)/mpi)"' -DRMP_TEST_BINDIR='"$(abspath $(OUT)/bin)"' \
	  -DRMP_TEST_BENCH='"$(abspath $(OUT)/bin/rmp-bench)"' \
	  -DRMP_TEST_SRCDIR='"$(abspath .)"' -DRMP_TEST_LIBDIR='"$(abspath $(OUT)/lib)"' \
	  -DRMP_TEST_VARIANT='"$(VARIANT)"' -DRMP_TEST_CC='"$(CC)"' -DRMP_TEST_CXX='"$(RMPICXX_CXX)"' \
	  -DRMP_TEST_LDFLAGS='"$(strip $(LDFLAGS_ALL))"' \
	  -o $@ $(INTEG_SRC) runtime/util/knobs.c -lcriterion

# MPI-style test programs, built the way a user builds them: with rmpcc (shared librmp-mpi).
# A program too long for one file keeps its main in tests/mpi/<prog>.c and its other concerns
# in tests/mpi/<prog>/*.c (one program, one start per case in CI, files under 600 lines).
$(TESTS)/mpi/%: tests/mpi/%.c $(wildcard tests/mpi/*.h) $(MPI_SHARED) $(MPI_STATIC) $(RMPCC)
	@mkdir -p $(dir $@)
	$(RMPCC) $(OPT) $(SAN) $(WARN) -std=c11 -D_GNU_SOURCE -g $(CFLAGS) $(LDFLAGS_ALL) -o $@ \
	  $(filter %.c,$^)
$(foreach p,$(MPIPROG_SRC:tests/mpi/%.c=%),$(if $(wildcard tests/mpi/$(p)/*.c),\
  $(eval $(TESTS)/mpi/$(p): $(wildcard tests/mpi/$(p)/*.c tests/mpi/$(p)/*.h))))

# The profiling interface as tools use it (tests/integration/test_pmpi.c): pmpi_counter.c, a
# tool defining some MPI_X over PMPI_X, as a library linked ahead of librmp-mpi.so (and
# preloaded into the plain tests/mpi/mpi_pmpi), and as an object linked with librmp-mpi.a.
PMPI_T := $(TESTS)/pmpi
PMPI_BIN := $(PMPI_T)/libpmpi_counter.so $(PMPI_T)/mpi_pmpi-shared $(PMPI_T)/mpi_pmpi-static
PMPI_FLAGS = $(OPT) $(SAN) $(WARN) -std=c11 -D_GNU_SOURCE -g $(CFLAGS) $(LDFLAGS_ALL)
$(PMPI_T)/libpmpi_counter.so: tests/packaging/pmpi_counter.c $(MPI_SHARED) $(RMPCC)
	@mkdir -p $(dir $@)
	$(RMPCC) -shared -fPIC $(PMPI_FLAGS) -o $@ $<
$(PMPI_T)/mpi_pmpi-shared: tests/mpi/mpi_pmpi.c tests/mpi/mpicheck.h $(PMPI_T)/libpmpi_counter.so
	$(RMPCC) $(PMPI_FLAGS) -o $@ $< -L$(PMPI_T) -Wl,-rpath,$(abspath $(PMPI_T)) -lpmpi_counter
$(PMPI_T)/mpi_pmpi-static: tests/mpi/mpi_pmpi.c tests/mpi/mpicheck.h tests/packaging/pmpi_counter.c \
                           $(MPI_STATIC) $(STATIC) $(RMPCC)
	@mkdir -p $(dir $@)
	$(RMPCC) -static-rmp $(PMPI_FLAGS) -o $@ tests/mpi/mpi_pmpi.c tests/packaging/pmpi_counter.c

tests: all $(PROG_BIN) $(MPIPROG_BIN) $(PMPI_BIN) $(CLASH_BIN) $(if $(UNIT_SRC),$(TESTS)/unit) $(TESTS)/contract \
       $(if $(INTEG_SRC),$(TESTS)/integration)

-include $(LIB_OBJ:.o=.d) $(MRUN_OBJ:.o=.d) $(MPI_OBJ:.o=.d)
# The Fortran bindings (optional: built when gfortran is here); mpi_f08 joins them.
include mk/fortran.mk
include mk/f08.mk

# ---- running tests -------------------------------------------------------------------------
CRITERION_FLAGS ?= --jobs 2 --timeout 300

# The contract program again after the unit tests: its ranks' own leak check (VARIANT=asan) is
# exact there, while in Criterion's forked workers LSan also sees the runner's threads.
# And the wall: runtime/transport/ includes nothing of runtime/ above it (transport.h says why).
check-unit: tests
	$(TESTS)/unit $(CRITERION_FLAGS)
	$(TESTS)/contract self && $(TESTS)/contract shm
	@if grep -Hn '^#include "' runtime/transport/*.[ch] runtime/transport/*/*.[ch] | grep -v '"transport/\|"offload.h"\|"rma.h"\|"rmp.h"'; \
	then echo "check-unit: runtime/transport/ includes the runtime above it (lines above)"; exit 1; fi
	tests/check-layers.sh $(OBJ) "$(CC) $(LDFLAGS_ALL)" "$(LIBS)"

INTEGRATION_FILTER ?=
check-integration: tests
	$(TESTS)/integration $(CRITERION_FLAGS) $(INTEGRATION_FILTER)

# libpmix's own allocations outlive PMIx_Finalize: suppressed, ours are still reported.
# Under ASan, jobs run at the small sizes (RMP_TEST_*NS, see tests/integration/run.c), and
# the tests whose cost is volume or the launcher's life cycle rather than new code paths
# (2^31-element transfers, install trees, 30 jobs in a row, a 50 MB burst to a slow reader,
# kill-and-restart loops) run in the release pass only: together they were a third of the
# ASan stage, which CI's 30 minutes cannot hold next to the cluster stage.
#
# Also left to the release pass: the suites whose subject is the launcher's life cycle and
# timing or the refusal of bad arguments (launch, mrun_output, hang, shm_guard, security,
# env) and a benchmark's timing loops (bench). mrun and the knob parser still run under ASan
# in every other job, and the knob tables in the unit tests. And Chromium drawing the
# profiler's page (prof/html_in_chromium): at ASan's n = 2 its job is prof/exact_p2p's, run
# under ASan anyway; the other 24 of its 25 s were Chromium's (the slowest ASan test).
ASAN_SKIP = mpi_persist/bigcount_huge|packaging/*|shm_leftovers/*|launch/*|mrun_output/*|$\
	hang/*|shm_guard/*|security/*|env/*|bench/*|prof/html_in_chromium
#
# Symbols: every process that exits with libpmix's allocations alive has them matched against
# the suppressions, which symbolizes a frame of each in-process (libbacktrace reading the
# DWARF of every module): 0.8 of the 1.3 s an mrun -n 4 of tests/progs/p2p takes under ASan.
# The integration pass (thousands of processes) runs with symbolize=0: suppression by module
# name still works, and a report names each frame as module+offset; rerun the one failing
# test with ASAN_OPTIONS=symbolize=1 (its command is in its log) for function names. The
# unit pass keeps them.
ASAN_ENV = LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp):print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1
check-asan:
	$(MAKE) -j$(NPROC) VARIANT=asan tests
	$(ASAN_ENV) ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 $(MAKE) VARIANT=asan check-unit
	$(ASAN_ENV) ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:symbolize=0 \
	RMP_TEST_ALGO_NS="5" RMP_TEST_MPI_NS="2 5" RMP_TEST_RMA_NS="1 3" \
	RMP_TEST_NS="1 2 5 8" \
	  $(MAKE) VARIANT=asan check-integration INTEGRATION_FILTER="--filter '!($(ASAN_SKIP))'"

check-tsan:
	$(MAKE) -j$(NPROC) VARIANT=tsan tests
	TSAN_OPTIONS=suppressions=$(abspath tests/tsan.supp):halt_on_error=0:second_deadlock_stack=1 \
	  build/tsan/tests/integration $(CRITERION_FLAGS) --filter 'thread*/*'
	# the MPI layer's threaded programs (attributes, communicator creation, persistent
	# collectives, generalized requests completed by another thread) at two sizes
	TSAN_OPTIONS=suppressions=$(abspath tests/tsan.supp):halt_on_error=0:second_deadlock_stack=1 \
	RMP_TEST_MPI_NS="2 4" build/tsan/tests/integration $(CRITERION_FLAGS) \
	  --filter 'mpi_@(ccreate|persist)/threads'
	TSAN_OPTIONS=suppressions=$(abspath tests/tsan.supp):halt_on_error=0:second_deadlock_stack=1 \
	RMP_TEST_MPI_NS="2 4" build/tsan/tests/integration $(CRITERION_FLAGS) \
	  --filter 'mpi_@(grptopo/req_greq|attr/attributes)'
	# and partitioned Pready from 4 threads, MPI_T pvars read by a second thread, polling
	# loops (clean under TSan, nothing suppressed)
	TSAN_OPTIONS=suppressions=$(abspath tests/tsan.supp):halt_on_error=0:second_deadlock_stack=1 \
	RMP_TEST_MPI_NS="2 4" build/tsan/tests/integration $(CRITERION_FLAGS) \
	  --filter '@(mpi_part/threads|mpi_t/pvars_threads|mpi_t/events_threads|mpi/poll)'
	# nonblocking collective I/O: its file work on the I/O threads, its rounds in progress (the
	# progress thread's too), at n = 1, 2, 4 (clean under TSan, nothing suppressed)
	TSAN_OPTIONS=suppressions=$(abspath tests/tsan.supp):halt_on_error=0:second_deadlock_stack=1 \
	build/tsan/tests/integration $(CRITERION_FLAGS) --filter 'io/nbc*'

check-vm:
	tests/vm/run-verbs-suite

# rmp across the kernels of a cluster of VMs (tests/cluster: boots them, runs the cases on the
# first); builds first, like check-vm.
check-cluster:
	tests/cluster/run-cases

# Random-kill soak (counts, not timings): SOAK_TRIALS=200 for the issue's full run.
SOAK_TRIALS ?= 20
check-soak: tests
	MRUN=$(abspath $(MRUN)) tests/soak/kill-soak $(SOAK_TRIALS)

# libFuzzer targets (tests/fuzz/fuzz_*.c), FUZZ_SECONDS each (default 20), built with clang.
.PHONY: check-fuzz
check-fuzz:
	tests/fuzz/run

# deps first, then a fresh make: pkg-config's answers are read when make starts.
# Each stage prints its wall time, so that CI's budget can be followed stage by stage.
stage = @t0=$$(date +%s); $(MAKE) $(1); st=$$?; \
	echo "check stage $(1): $$(( $$(date +%s) - t0 )) s"; exit $$st

# The builds of make check use every CPU (the test runs keep their own --jobs).
NPROC := $(shell nproc 2>/dev/null || echo 1)

check: deps
	$(call stage,-j$(NPROC) tests)
	$(call stage,check-unit check-integration)
	$(call stage,check-asan)
	$(call stage,check-tsan)
	$(call stage,check-fuzz)
	$(call stage,check-soak)
	@if [ -x tests/vm/run-verbs-suite ]; then t0=$$(date +%s); $(MAKE) check-vm; st=$$?; \
	  echo "check stage check-vm: $$(( $$(date +%s) - t0 )) s"; exit $$st; fi
	@if [ -x tests/cluster/run-cases ]; then t0=$$(date +%s); $(MAKE) check-cluster; st=$$?; \
	  echo "check stage check-cluster: $$(( $$(date +%s) - t0 )) s"; exit $$st; fi
	@tests/leftovers.sh

# Debian packages the build and tests need: installed (apt-get) only when missing.
deps:
	@tests/install-deps.sh

demo: deps
	$(MAKE) all
	$(MRUN) -n 4 $(OUT)/bin/examples/allreduce

install: all
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin
	install -m 644 include/rmp.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED).0 $(DESTDIR)$(PREFIX)/lib/
	ln -sf librmp.so.0 $(DESTDIR)$(PREFIX)/lib/librmp.so
	install -m 755 $(MRUN) $(BENCH) $(RMPINFO) $(RMPPROF) $(DESTDIR)$(PREFIX)/bin/
	$(call pc_text,$(PREFIX),$${prefix}/include) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/rmp.pc
	install -d $(DESTDIR)$(PREFIX)/include/rmp
	install -m 644 $(RMP_HEADERS) $(DESTDIR)$(PREFIX)/include/rmp/
	install -m 644 $(MPI_STATIC) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(MPI_SHARED).0 $(DESTDIR)$(PREFIX)/lib/
	ln -sf librmp-mpi.so.0 $(DESTDIR)$(PREFIX)/lib/librmp-mpi.so
	$(call mpipc_text,$(PREFIX),$${prefix}/include) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/rmp-mpi.pc
	$(call rmpcc_text,$(PREFIX)/include,$(PREFIX)/lib) > $(DESTDIR)$(PREFIX)/bin/rmpcc
	chmod 755 $(DESTDIR)$(PREFIX)/bin/rmpcc
	ln -sf rmpcc $(DESTDIR)$(PREFIX)/bin/rmpicc
	sed -e 's|@CXX@|$(RMPICXX_CXX)|' tools/rmpicxx.in > $(DESTDIR)$(PREFIX)/bin/rmpicxx
	chmod 755 $(DESTDIR)$(PREFIX)/bin/rmpicxx
	ln -sf rmpicxx $(DESTDIR)$(PREFIX)/bin/rmpic++

# Every header of include/rmp/ is installed: mpi.h, rmp.h include them; and the generated ones
# beside them, where mpi.h finds them.
RMP_HEADERS := $(sort $(wildcard include/rmp/*.h)) $(PROTO_H) $(PMPI_H)

# Removes the files install writes (the same list, rmp-bench whether or not it was built), and
# nothing else: the directories stay, as they may hold other packages' files.
# include/rmp/ is rmp's own directory: removed once empty.
INSTALLED := include/rmp.h lib/librmp.a lib/librmp.so.0 lib/librmp.so lib/pkgconfig/rmp.pc \
             bin/mrun bin/rmp-bench bin/rmp-info bin/rmp-prof \
             $(addprefix include/rmp/,$(notdir $(RMP_HEADERS))) lib/librmp-mpi.a \
             lib/librmp-mpi.so.0 lib/librmp-mpi.so lib/pkgconfig/rmp-mpi.pc bin/rmpcc bin/rmpicc \
             bin/rmpicxx bin/rmpic++
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))
	if [ -d $(DESTDIR)$(PREFIX)/include/rmp ]; then rmdir $(DESTDIR)$(PREFIX)/include/rmp; fi

format:
	clang-format -i $(LIB_SRC) $(MRUN_SRC) $(MPI_SRC) tools/*.c include/rmp.h include/rmp/mpi.h runtime/*.h runtime/*/*.h comm/*.h runtime/transport/*/*.h

clean:
	rm -rf build lib bin
